// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s -verify-diagnostics -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-cuda.json keep-per-device=1" | FileCheck %s

// Tests what retention keeps with keep-per-device=1 on the real registry:
// every (device, kernel source) has one variant, so each candidate is the
// last of its source and protected. On cpu (generated first, then openblas)
// blis is dominated by openblas (slower, more bytes) and on cuda:0 cublas by
// generated, yet both are
// re-admitted; the cap is exceeded by 2 on cpu and 1 on cuda:0.

// CHECK-LABEL: func.func @matmul
// CHECK: fuel.node 0 matmul
// CHECK-SAME: [#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}]> {
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-remark @+1 {{node 0 (matmul) keeps 3 candidate(s) over keep-per-device=1 because they are protected, on cpu, cuda:0}}
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
