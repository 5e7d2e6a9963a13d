// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners

// Tests that a generated batch matmul of prime sizes (3 x 17x19 · 19x13)
// computes every batch entry.

func.func @batch_matmul(%a: tensor<3x17x19xf32>, %b: tensor<3x19x13xf32>) -> tensor<3x17x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x13xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x13xf32>) -> tensor<3x17x13xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x17x19xf32>, tensor<3x19x13xf32>)
                           outs(%f : tensor<3x17x13xf32>) -> tensor<3x17x13xf32>
  return %c : tensor<3x17x13xf32>
}
