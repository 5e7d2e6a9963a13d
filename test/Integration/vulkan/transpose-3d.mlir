// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref transpose --param 'perm=(2,0,1)' --rtol 0 --atol 0 --check-winners --expect-backend vulkan

// Tests that a (2,0,1) transpose of 5x7x3, every node pinned to vulkan:0, runs
// on the Vulkan device as SPIR-V and matches numpy.

func.func @transpose(%a: tensor<5x7x3xf32>) -> tensor<3x5x7xf32> {
  %e = tensor.empty() : tensor<3x5x7xf32>
  %t = linalg.transpose ins(%a : tensor<5x7x3xf32>) outs(%e : tensor<3x5x7xf32>) permutation = [2, 0, 1]
  return %t : tensor<3x5x7xf32>
}
