// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --split-input-file -verify-diagnostics -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-cuda.json price-transfers=false pinned-device=cuda:0 precision=deterministic explain=true" \
// RUN:   | FileCheck %s
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --split-input-file -verify-diagnostics -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-cuda.json allow-cost-placement=false pinned-device=cuda:0 precision=deterministic explain=true" \
// RUN:   | FileCheck %s

// Tests that with pricing (or cost placement) off, a decision device left
// with no survivor falls back: cuda:0 has no deterministic kernel, so the
// fallback cpu's single winner, cpu.generated, is used, tagged `fallback`.

// CHECK: fuel.config = #fuel.config<{{.*}}pinned_device = cuda:0, precision = "deterministic">
// CHECK-LABEL: func.func @fallback
// CHECK: fuel.node 0 matmul
// CHECK-SAME: decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cuda:0>, [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}time_ns = 32341 static, host_bytes = 319488, device_bytes = 0, fallback>]> {
func.func @fallback(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-remark @+1 {{node 0 (matmul): winner cpu.generated.matmul_f32 on cpu; best on cpu: cpu.generated.matmul_f32 (time 32341 ns static, precision 9, accuracy 1, bytes 319488); no runner-up on cuda:0}}
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
