// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref reduce_sum --param axis=1 --rtol 1e-5 --atol 1e-5 --check-winners --expect-backend vulkan

// Tests that a row sum of 37x101, every node pinned to vulkan:0, runs on the
// Vulkan device as SPIR-V and matches numpy.

func.func @reduce(%x: tensor<37x101xf32>) -> tensor<37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.reduce ins(%x : tensor<37x101xf32>) outs(%f : tensor<37xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<37xf32>
}
