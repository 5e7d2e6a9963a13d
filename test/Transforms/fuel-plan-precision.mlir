// RUN: fuel-opt %s -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json" | FileCheck %s --check-prefix=NONE
// RUN: fuel-opt %s -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json precision=deterministic" | FileCheck %s --check-prefix=DET
// RUN: fuel-opt %s -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json precision=bit-stable" | FileCheck %s --check-prefix=DET
// RUN: fuel-opt %s -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json prefer-bit-stable=true" | FileCheck %s --check-prefix=DET

// Tests that the precision requirement changes the winner on the host
// (test/topologies/cpu-only.json; times as in fuel-annotate-costs.mlir):
//  - none: openblas wins (22776 ns) over blis
//    (23480 ns) and generated (38409 ns); all three are kept;
//  - deterministic, the list 'bit-stable', or prefer-bit-stable: only the
//    bit-stable cpu.generated is left.

// NONE: fuel.config = #fuel.config<{{.*}}precision = "none">
// NONE-LABEL: func.func @matmul
// NONE: fuel.node 0 matmul
// NONE-SAME: [#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}time_ns = 22776 static{{[^#]*}}#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}time_ns = 23480 static{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}time_ns = 38409 static{{[^#]*}}]> {

// DET-LABEL: func.func @matmul
// DET: fuel.node 0 matmul
// DET-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}precision = <deterministic,{{[^#]*}}time_ns = 38409 static, host_bytes = 319488, device_bytes = 0>]> {
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
