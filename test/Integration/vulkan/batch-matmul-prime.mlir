// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --check-winners --expect-backend vulkan

// Tests that a batch_matmul of 3x17x19 by 3x19x13, every node pinned to
// vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

func.func @batch_matmul(%a: tensor<3x17x19xf32>, %b: tensor<3x19x13xf32>) -> tensor<3x17x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x13xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x13xf32>) -> tensor<3x17x13xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x17x19xf32>, tensor<3x19x13xf32>)
                           outs(%f : tensor<3x17x13xf32>) -> tensor<3x17x13xf32>
  return %c : tensor<3x17x13xf32>
}
