// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(fuel-rank-candidates,fuel-retain-frontier{keep-per-device=1}))' \
// RUN:   | FileCheck %s
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(fuel-rank-candidates,fuel-retain-frontier{keep-per-device=0}))' \
// RUN:   | FileCheck %s

// The crowding cap of SEMANTICS §7 step 5 with keep-per-device=1 (and 0,
// which means 1).

// Tests that two frontier members of one (device, source) are cut to the
// winner: cpu.generated.c (slower but smaller) is neither the winner nor the
// last of its source, so it goes.

// CHECK-LABEL: func.func @cap
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: [#fuel.candidate<"cpu.generated.a"{{[^#]*}}]> {
func.func @cap(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 100, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.c", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 300 static, host_bytes = 50, device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that protected candidates are kept over the cap with a remark
// naming the excess and the devices: on cpu the winner and the last of each
// source (openblas, blis, generated), on cuda:0 its best and the last
// cublas; 2 + 1 over the cap.

// CHECK-LABEL: func.func @protected
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: [#fuel.candidate<"cuda.generated.g"{{[^#]*}}#fuel.candidate<"cuda.cublas.u"{{[^#]*}}#fuel.candidate<"cpu.openblas.o"{{[^#]*}}#fuel.candidate<"cpu.blis.b"{{[^#]*}}#fuel.candidate<"cpu.generated.a"{{[^#]*}}]> {
func.func @protected(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-remark @+1 {{node 0 (elementwise) keeps 3 candidate(s) over keep-per-device=1 because they are protected, on cpu, cuda:0}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.openblas.o", source = "openblas", device = cpu, priority = 20,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 10, device_bytes = 0>,
         #fuel.candidate<"cpu.blis.b", source = "blis", device = cpu, priority = 10,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 110 static, host_bytes = 20, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 200 static, host_bytes = 30, device_bytes = 0>,
         #fuel.candidate<"cuda.generated.g", source = "generated", device = cuda:0,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 50 static, host_bytes = 0, device_bytes = 10>,
         #fuel.candidate<"cuda.cublas.u", source = "cublas", device = cuda:0, priority = 20,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 60 static, host_bytes = 0, device_bytes = 20>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}
