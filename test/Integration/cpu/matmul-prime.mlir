// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners --same-with-threads 1

// Tests that a generated matmul of prime sizes (37x53 · 53x29: every tile
// has a remainder) computes the product.

func.func @matmul(%a: tensor<37x53xf32>, %b: tensor<53x29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %c = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x29xf32>)
                     outs(%f : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %c : tensor<37x29xf32>
}
