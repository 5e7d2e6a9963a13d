// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref conv2d_nhwc_hwcf --param stride=2 --rtol 1e-4 --atol 1e-4 --check-winners --expect-backend vulkan

// Tests that a stride-2 NHWC conv2d of 1x13x11x3 by 3x3x3x7, every node pinned
// to vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

func.func @conv(%x: tensor<1x13x11x3xf32>, %w: tensor<3x3x3x7xf32>) -> tensor<1x6x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x5x7xf32>) -> tensor<1x6x5x7xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x13x11x3xf32>, tensor<3x3x3x7xf32>)
      outs(%f : tensor<1x6x5x7xf32>) -> tensor<1x6x5x7xf32>
  return %c : tensor<1x6x5x7xf32>
}
