// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --check-winners --same-with-threads 1
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-generic.json \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --check-winners
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-target.json \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --check-winners
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-avx512.json \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --check-winners

// Tests that a generated batch matmul packed into B panels (3 x 37x29 ·
// 29x64: N = 64 is a multiple of every panel width, M and K prime) computes
// every batch entry for every ISA class the machine runs; one batch entry
// per workgroup.

func.func @batch_matmul(%a: tensor<3x37x29xf32>, %b: tensor<3x29x64xf32>) -> tensor<3x37x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x37x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x37x64xf32>) -> tensor<3x37x64xf32>
  %c = linalg.batch_matmul {fuel.kernel = "cpu.generated.batch_matmul_f32"} ins(%a, %b : tensor<3x37x29xf32>, tensor<3x29x64xf32>)
                           outs(%f : tensor<3x37x64xf32>) -> tensor<3x37x64xf32>
  return %c : tensor<3x37x64xf32>
}
