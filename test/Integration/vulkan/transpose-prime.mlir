// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref transpose --param 'perm=(1,0)' --rtol 0 --atol 0 --check-winners --expect-backend vulkan

// Tests that a transpose of 37x53, every node pinned to vulkan:0, runs on the
// Vulkan device as SPIR-V and matches numpy.

func.func @transpose(%a: tensor<37x53xf32>) -> tensor<53x37xf32> {
  %e = tensor.empty() : tensor<53x37xf32>
  %t = linalg.transpose ins(%a : tensor<37x53xf32>) outs(%e : tensor<53x37xf32>) permutation = [1, 0]
  return %t : tensor<53x37xf32>
}
