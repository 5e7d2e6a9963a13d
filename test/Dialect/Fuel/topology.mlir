// RUN: fuel-opt %s | fuel-opt | FileCheck %s
// RUN: fuel-opt %s --mlir-print-op-generic | fuel-opt | FileCheck %s

// Tests that topologies round-trip, that an omitted hash is computed, and
// that device and link records keep every figure.

// CHECK: #[[TOPO:topology[0-9]*]] = #fuel.topology<hash = 0x[[HASH:[0-9a-f]+]], devices = [<cpu, name = "host", cpu_type, peak = {f32 = 3.200000e+01}, bytes_per_ns = 2.000000e+01, dispatch_ns = 1000, memory = 17179869184, alignment = 64>, <cuda:0, name = "gpu", peak = {f16 = 4.000000e+05, f32 = 5.000000e+04}, bytes_per_ns = 3.000000e+03, dispatch_ns = 5000, memory = 85899345920, alignment = 256>, <vulkan:0, cpu_type, peak = {}, dispatch_ns = 0, memory = 0, alignment = 64>], links = [<cpu -> cuda:0, bandwidth = 25000000000, latency_ns = 10000, class = "device-copy">, <cuda:0 -> cpu, bandwidth = 25000000000, latency_ns = 10000, class = "device-copy">, <cpu -> vulkan:0, bandwidth = 20000000000, latency_ns = 2000, class = "shared-memory">, <cuda:0 -> vulkan:0, bandwidth = 12000000000, latency_ns = 15000, class = peer>]>
// CHECK: module attributes {fuel.topology = #[[TOPO]]}
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, name = "host", cpu_type, peak = {f32 = 32.0}, bytes_per_ns = 20.0,
     dispatch_ns = 1000, memory = 17179869184, alignment = 64>,
    <cuda:0, name = "gpu", peak = {f32 = 5.0e4, f16 = 4.0e5}, bytes_per_ns = 3000.0,
     dispatch_ns = 5000, memory = 85899345920, alignment = 256>,
    <vulkan:0, cpu_type>],
  links = [
    <cpu -> cuda:0, bandwidth = 25000000000, latency_ns = 10000, class = "device-copy">,
    <cuda:0 -> cpu, class = "device-copy", latency_ns = 10000, bandwidth = 25000000000>,
    <cpu -> vulkan:0, bandwidth = 20000000000, latency_ns = 2000, class = "shared-memory">,
    <cuda:0 -> vulkan:0, bandwidth = 12000000000, latency_ns = 15000, class = peer>]>} {
}

