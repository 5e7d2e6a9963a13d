// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --split-input-file -verify-diagnostics \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-cuda.json explain=true" -o /dev/null

// The explain remarks of the pipeline on a CPU + GPU topology (times as in
// fuel-annotate-costs.mlir).

// Tests that the remark names the global winner (on cuda:0), the best on
// each device, and the runner-up on the decision device with what separated
// it; the small exp is won by the host.

func.func @matmul_exp(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-remark @+1 {{node 0 (matmul): winner cuda.generated.matmul_f32 on cuda:0; best on cpu: cpu.generated.matmul_f32 (time 32341 ns static, precision 9, accuracy 1, bytes 319488); best on cuda:0: cuda.generated.matmul_f32 (time 5028 ns static, precision 0, accuracy 0, bytes 57344); runner-up on cpu: cpu.openblas.matmul_f32, behind cpu.generated.matmul_f32 on time 45116 ns vs 32341 ns}}
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-remark @+1 {{node 1 (elementwise): winner cpu.generated.elementwise_f32 on cpu; best on cpu: cpu.generated.elementwise_f32 (time 3024 ns static, precision 9, accuracy 1, bytes 16384); best on cuda:0: cuda.generated.elementwise_f32 (time 5007 ns static, precision 0, accuracy 0, bytes 16384); no runner-up on cpu}}
  %r = linalg.exp ins(%m : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
