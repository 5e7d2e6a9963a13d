// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref pool_max_nchw --param window=3 --param stride=2 --rtol 0 --atol 0 --check-winners --expect-backend vulkan

// Tests that a 3x3 stride-2 max pool of 2x3x13x11, every node pinned to
// vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

func.func @pool(%x: tensor<2x3x13x11xf32>) -> tensor<2x3x6x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x3x6x5xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x3x6x5xf32>) -> tensor<2x3x6x5xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<2x3x13x11xf32>, tensor<3x3xf32>)
      outs(%f : tensor<2x3x6x5xf32>) -> tensor<2x3x6x5xf32>
  return %p : tensor<2x3x6x5xf32>
}
