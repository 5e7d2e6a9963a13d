// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners

// Tests that a generated batch matmul below the vector width (2 x 3x5 · 5x4)
// computes every batch entry.

func.func @batch_matmul(%a: tensor<2x3x5xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<2x3x5xf32>, tensor<2x5x4xf32>)
                           outs(%f : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %c : tensor<2x3x4xf32>
}
