// RUN: fuel-opt %s --split-input-file | FileCheck %s

// Tests that a written hash matching the content is accepted, and that the
// hash ignores device names and the order devices and links are written in.

// CHECK: hash = 0xdad908a1547e3426, devices = [<cpu, name = "a"
module attributes {fuel.topology = #fuel.topology<hash = 0xdad908a1547e3426,
    devices = [<cpu, name = "a", cpu_type, peak = {f32 = 8.0}>]>} {}

// -----

// CHECK: hash = 0xdad908a1547e3426, devices = [<cpu, name = "b"
module attributes {fuel.topology = #fuel.topology<
    devices = [<cpu, name = "b", cpu_type, peak = {f32 = 8.0}>]>} {}

// -----

// CHECK: hash = 0x[[H:[0-9a-f]+]], devices = [<cpu, cpu_type, {{.*}}>, <cuda:0,
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type, peak = {f32 = 8.0}>, <cuda:0, peak = {f32 = 100.0}>],
  links = [<cpu -> cuda:0, bandwidth = 1000, latency_ns = 1, class = "device-copy">,
           <cuda:0 -> cpu, bandwidth = 2000, latency_ns = 1, class = "device-copy">]>} {}

// -----

// CHECK: hash = 0x[[H]], devices = [<cuda:0,
module attributes {fuel.topology = #fuel.topology<devices = [
    <cuda:0, peak = {f32 = 100.0}>, <cpu, cpu_type, peak = {f32 = 8.0}>],
  links = [<cuda:0 -> cpu, bandwidth = 2000, latency_ns = 1, class = "device-copy">,
           <cpu -> cuda:0, bandwidth = 1000, latency_ns = 1, class = "device-copy">]>} {}

// -----

// Tests that a cpu_target enters the hash (the first case above, the same
// machine without a target, hashes 0xdad908a1547e3426), and that the
// features do too.

// CHECK-NOT: 0xdad908a1547e3426
// CHECK: devices = [<cpu, name = "a", cpu_type, peak = {f32 = 8.000000e+00}, dispatch_ns = 0, memory = 0, alignment = 64, cpu_target = "x86-64-v3">]
module attributes {fuel.topology = #fuel.topology<
    devices = [<cpu, name = "a", cpu_type, peak = {f32 = 8.0}, cpu_target = "x86-64-v3">]>} {}

// -----

// CHECK-NOT: 0xdad908a1547e3426
// CHECK: cpu_target = "x86-64-v3", cpu_features = "+avx2">]
module attributes {fuel.topology = #fuel.topology<
    devices = [<cpu, name = "a", cpu_type, peak = {f32 = 8.0}, cpu_target = "x86-64-v3", cpu_features = "+avx2">]>} {}
