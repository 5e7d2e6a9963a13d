// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --split-input-file -mlir-print-local-scope -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda-no-rates.json},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-annotate-costs))' \
// RUN:   | FileCheck %s

// Priors (SEMANTICS §3 step 6) on test/topologies/cpu-cuda-no-rates.json:
// cpu has no f32 peak (CPU prior 1 flop/ns; 20 B/ns, dispatch 2000 ns),
// cuda:0 has no bandwidth (GPU prior 40 B/ns; 50000 flop/ns, dispatch
// 5000 ns). Each (device, prior) is warned about once per function.
//
// matmul M=64, N=32, K=128: flops 524288, bytes 57344.
//   cpu.openblas   524288/0.38 = 1379705.3 -> 1379706; 57344/17.6 -> 3259
//                  -> 1379706 + 2000 + 0 = 1381706
//   cpu.blis       524288/0.35 = 1497965.7 -> 1497966 + 2000 + 0 = 1499966
//   cpu.generated  524288/0.54 = 970903.7 -> 970904 + 2000 = 972904
//   cuda.cublas    524288/42500 -> 13; 57344/(40*.85 = 34) = 1686.6 -> 1687
//                  -> 1687 + 5000 + 3000 = 9687
//   cuda.generated 524288/20000 -> 27; 57344/(40*.7 = 28) = 2048
//                  -> 2048 + 5000 = 7048

// Tests that the priors price the candidates, with one warning per device
// for the first node and none for the second.

// CHECK-LABEL: func.func @priors
// CHECK: fuel.node 0 matmul
// CHECK-SAME: #fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}time_ns = 1499966 static
// CHECK-SAME: #fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}time_ns = 972904 static
// CHECK-SAME: #fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}time_ns = 1381706 static
// CHECK-SAME: #fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}time_ns = 9687 static
// CHECK-SAME: #fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}time_ns = 7048 static
// CHECK: fuel.node 1 matmul
func.func @priors(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-warning @+2 {{device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns}}
  // expected-warning @+1 {{device 'cuda:0' has no memory bandwidth; using the GPU prior of 40 B/ns}}
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %n = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%m : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %n : tensor<64x32xf32>
}

// -----

// Tests that the warnings are per function: a second function warns again,
// and a pinned node warns only about its own device.

// CHECK-LABEL: func.func @pinned
func.func @pinned(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  // expected-warning @+1 {{device 'cuda:0' has no memory bandwidth; using the GPU prior of 40 B/ns}}
  %0 = linalg.exp {fuel.pin = #fuel.device<cuda:0>} ins(%a : tensor<1024xf32>)
      outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  return %0 : tensor<1024xf32>
}
