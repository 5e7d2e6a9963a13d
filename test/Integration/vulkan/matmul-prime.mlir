// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --check-winners --expect-backend vulkan

// Tests that a matmul of 37x53 by 53x29 (prime sizes), every node pinned to
// vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

func.func @matmul(%a: tensor<37x53xf32>, %b: tensor<53x29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %c = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x29xf32>)
                     outs(%f : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %c : tensor<37x29xf32>
}
