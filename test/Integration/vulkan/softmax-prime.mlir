// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref softmax --param axis=1 --rtol 1e-5 --atol 1e-6 --check-winners --expect-backend vulkan

// Tests that a softmax over rows of 131 (7x131), every node pinned to vulkan:0,
// runs on the Vulkan device as SPIR-V and matches numpy.

func.func @softmax(%x: tensor<7x131xf32>) -> tensor<7x131xf32> {
  %e = tensor.empty() : tensor<7x131xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<7x131xf32>) outs(%e : tensor<7x131xf32>) -> tensor<7x131xf32>
  return %s : tensor<7x131xf32>
}
