// RUN: fuel-opt %s --split-input-file | FileCheck %s
// RUN: fuel-opt %s --split-input-file | fuel-opt --split-input-file | FileCheck %s

// Tests `driver` on a device of `#fuel.topology` (docs/TOPOLOGY.md, "Device
// identity"): it prints back last on the device, and enters the content hash
// only when present, so a driver update is another topology while a
// topology without one keeps its hash.

// CHECK: #fuel.topology<hash = [[NONE:0x[0-9a-f]+]], devices = [<cpu, cpu_type, {{.*}}>, <vulkan:0, name = "llvmpipe", cpu_type, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64>]
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type>, <vulkan:0, name = "llvmpipe", cpu_type>]>} {}

// -----

// CHECK-NOT: [[NONE]]
// CHECK: #fuel.topology<hash = [[MESA:0x[0-9a-f]+]], devices = [<cpu, cpu_type, {{.*}}>, <vulkan:0, name = "llvmpipe", cpu_type, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64, driver = "vulkan 22.3.6">]
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type>, <vulkan:0, driver = "vulkan 22.3.6", name = "llvmpipe", cpu_type>]>} {}

// -----

// CHECK-NOT: [[MESA]]
// CHECK: <vulkan:0, name = "llvmpipe", cpu_type, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64, driver = "vulkan 23.0.0">
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type>, <vulkan:0, name = "llvmpipe", cpu_type, driver = "vulkan 23.0.0">]>} {}
