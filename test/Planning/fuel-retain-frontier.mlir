// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(fuel-rank-candidates,fuel-retain-frontier))' \
// RUN:   | FileCheck %s

// Retention (SEMANTICS §7, §3 step 2) on hand-written sets, ranked first;
// neither pass reads the topology. Default keep-per-device (32).

// Tests that a candidate dominated by one of its own (device, source) is
// dropped, while a dominated candidate that is the last of its source
// (cpu.openblas.k, dominated by cpu.generated.a) is re-admitted; the other
// device's bucket is kept whole.

// CHECK-LABEL: func.func @frontier
// CHECK: fuel.node 0 elementwise
// CHECK-NOT: cpu.generated.b
// CHECK-SAME: [#fuel.candidate<"cuda.generated.g"{{[^#]*}}#fuel.candidate<"cpu.generated.a"{{[^#]*}}#fuel.candidate<"cpu.openblas.k"{{[^#]*}}]> {
func.func @frontier(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 100, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 200 static, host_bytes = 200, device_bytes = 0>,
         #fuel.candidate<"cpu.openblas.k", source = "openblas", device = cpu, priority = 20,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 150 static, host_bytes = 300, device_bytes = 0>,
         #fuel.candidate<"cuda.generated.g", source = "generated", device = cuda:0,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 50 static, host_bytes = 0, device_bytes = 10>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that a set made only of fallback candidates (the decision device
// cuda:0 kept none) is frozen to its single winner, still tagged.

// CHECK-LABEL: func.func @fallback_frozen
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: decision = <{{[^>]*}}device = cuda:0>, [#fuel.candidate<"cpu.generated.a"{{[^#]*}}time_ns = 300 static{{[^#]*}}fallback>]> {
func.func @fallback_frozen(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cuda:0>,
        [#fuel.candidate<"vulkan.generated.v", source = "generated", device = vulkan:0,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 400 static, host_bytes = 0, device_bytes = 8, fallback>,
         #fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 500 static, host_bytes = 8, device_bytes = 0, fallback>,
         #fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 300 static, host_bytes = 8, device_bytes = 0, fallback>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that fallback candidates are dropped when the decision device has
// one, even when the fallback is faster and fuel-filter-candidates did not
// run (bug: the set was frozen to the faster fallback).

// CHECK-LABEL: func.func @fallback_unused
// CHECK: fuel.node 0 elementwise
// CHECK-NOT: cuda.generated.g
// CHECK-SAME: [#fuel.candidate<"cpu.generated.a"{{[^#]*}}device_bytes = 0>]> {
func.func @fallback_unused(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 500 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cuda.generated.g", source = "generated", device = cuda:0,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 50 static, host_bytes = 0, device_bytes = 8, fallback>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}
