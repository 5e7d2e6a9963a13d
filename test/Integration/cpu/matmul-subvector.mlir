// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners

// Tests that a generated matmul smaller than a vector (3x5 · 5x7) computes
// the product.

func.func @matmul(%a: tensor<3x5xf32>, %b: tensor<5x7xf32>) -> tensor<3x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x7xf32>) -> tensor<3x7xf32>
  %c = linalg.matmul ins(%a, %b : tensor<3x5xf32>, tensor<5x7xf32>)
                     outs(%f : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %c : tensor<3x7xf32>
}
