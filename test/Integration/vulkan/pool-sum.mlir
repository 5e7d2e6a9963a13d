// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref pool_sum_nchw --param window=2 --param stride=1 --rtol 1e-5 --atol 1e-6 --check-winners --expect-backend vulkan

// Tests that a 2x2 sum pool of 1x2x5x3, every node pinned to vulkan:0, runs on
// the Vulkan device as SPIR-V and matches numpy.

func.func @pool(%x: tensor<1x2x5x3xf32>) -> tensor<1x2x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x2xf32>) -> tensor<1x2x4x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %window : tensor<1x2x5x3xf32>, tensor<2x2xf32>)
      outs(%f : tensor<1x2x4x2xf32>) -> tensor<1x2x4x2xf32>
  return %p : tensor<1x2x4x2xf32>
}
