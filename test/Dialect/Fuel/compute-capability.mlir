// RUN: fuel-opt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: fuel-opt %s --split-input-file --verify-diagnostics | fuel-opt --split-input-file | FileCheck %s

// Tests `compute_capability` on a CUDA device of `#fuel.topology`: it prints
// back as given and enters the content hash, so the same machine with and
// without it, or with two chips, has distinct hashes.

// CHECK: #fuel.topology<hash = [[NONE:0x[0-9a-f]+]], devices = [<cpu, cpu_type, {{.*}}>, <cuda:0, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64>]
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type>, <cuda:0>]>} {}

// -----

// CHECK-NOT: [[NONE]]
// CHECK: #fuel.topology<hash = [[SM90:0x[0-9a-f]+]], devices = [<cpu, cpu_type, {{.*}}>, <cuda:0, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64, limits = <subgroup_size = 32>, compute_capability = "9.0">]
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type>, <cuda:0, compute_capability = "9.0", limits = <subgroup_size = 32>>]>} {}

// -----

// CHECK-NOT: [[SM90]]
// CHECK: <cuda:0, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64, limits = <subgroup_size = 32>, compute_capability = "8.0">
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type>, <cuda:0, limits = <subgroup_size = 32>, compute_capability = "8.0">]>} {}

// -----

// expected-error @+1 {{compute_capability of device 'cuda:0' must be "major.minor" from "3.0" to "99.9", got "9"}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0, compute_capability = "9">]>} {}

// -----

// expected-error @+1 {{compute_capability of device 'cuda:0' must be "major.minor" from "3.0" to "99.9", got "2.0"}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0, compute_capability = "2.0">]>} {}

// -----

// expected-error @+1 {{device 'vulkan:0' has a compute_capability; only CUDA devices (cuda:N) have one}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <vulkan:0, compute_capability = "9.0">]>} {}
