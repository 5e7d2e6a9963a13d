// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref reduce_max --param axis=0 --rtol 0 --atol 0 --check-winners --expect-backend vulkan

// Tests that a column max of 3x5, every node pinned to vulkan:0, runs on the
// Vulkan device as SPIR-V and matches numpy.

func.func @reduce(%x: tensor<3x5xf32>) -> tensor<5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<5xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r = linalg.reduce ins(%x : tensor<3x5xf32>) outs(%f : tensor<5xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<5xf32>
}
