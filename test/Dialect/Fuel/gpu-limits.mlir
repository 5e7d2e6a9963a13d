// RUN: fuel-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// Tests `#fuel.gpu_limits` on a GPU device of `#fuel.topology`: it prints
// back field by field (unknown figures left out), and it enters the content
// hash, so the same machine with and without limits has two hashes.

// CHECK: #fuel.topology<hash = [[NONE:0x[0-9a-f]+]], devices = [<cpu, cpu_type, {{.*}}>, <vulkan:0, cpu_type, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64>]
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type, peak = {f32 = 8.0}>, <vulkan:0, cpu_type>]>} {}

// -----

// CHECK-NOT: [[NONE]]
// CHECK: <vulkan:0, cpu_type, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64, limits = <subgroup_size = 8, shared_memory_bytes = 32768, max_workgroup_invocations = 1024, max_workgroup_size = [1024, 1024, 64], min_storage_buffer_offset_alignment = 16, max_push_constants_bytes = 128, timestamp_period_ns = 1.000000e+00>>
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type, peak = {f32 = 8.0}>,
    <vulkan:0, cpu_type, limits = <timestamp_period_ns = 1.0, subgroup_size = 8,
      shared_memory_bytes = 32768, max_workgroup_invocations = 1024,
      max_workgroup_size = [1024, 1024, 64],
      min_storage_buffer_offset_alignment = 16, max_push_constants_bytes = 128>>]>} {}

// -----

// Some limits only; empty limits are still limits (and hash as such).
// CHECK: <cuda:0, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64, limits = <subgroup_size = 32>>
// CHECK-SAME: <vulkan:1, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64, limits = <>>
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type>, <cuda:0, limits = <subgroup_size = 32>>,
    <vulkan:1, limits = <>>]>} {}

// -----

// expected-error @+1 {{invalid gpu_limits: subgroup_size 12 is not a power of two up to 128}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <vulkan:0, limits = <subgroup_size = 12>>]>} {}

// -----

// expected-error @+1 {{gpu_limits max_workgroup_size needs three sizes [x, y, z], got 2}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <vulkan:0, limits = <max_workgroup_size = [8, 8]>>]>} {}

// -----

// expected-error @+1 {{gpu_limits shared_memory_bytes -1 is out of range [0, 1073741824]}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <vulkan:0, limits = <shared_memory_bytes = -1>>]>} {}

// -----

// expected-error @+1 {{invalid gpu_limits: min_storage_buffer_offset_alignment 48 is not a power of two up to 256}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <vulkan:0, limits = <min_storage_buffer_offset_alignment = 48>>]>} {}

// -----

// expected-error @+1 {{invalid gpu_limits: max_workgroup_size[2] 2048 is more than max_workgroup_invocations 1024}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <vulkan:0, limits = <max_workgroup_invocations = 1024, max_workgroup_size = [1, 1, 2048]>>]>} {}

// -----

// expected-error @+1 {{device 'cpu' has limits; only GPU devices (cuda:N, vulkan:N) have them}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, limits = <subgroup_size = 8>>]>} {}

// -----

// expected-error @+1 {{unknown gpu_limits field 'warp_size'; expected one of: subgroup_size, shared_memory_bytes, max_workgroup_invocations, max_workgroup_size, min_storage_buffer_offset_alignment, max_push_constants_bytes, timestamp_period_ns}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <vulkan:0, limits = <warp_size = 32>>]>} {}
