// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref conv2d_nchw --rtol 1e-4 --atol 1e-4 --check-winners --expect-backend vulkan

// Tests that an NCHW conv2d of 2x3x11x13 by 5x3x3x3, every node pinned to
// vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

func.func @conv(%x: tensor<2x3x11x13xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<2x5x9x11xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x9x11xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x9x11xf32>) -> tensor<2x5x9x11xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x11x13xf32>, tensor<5x3x3x3xf32>)
      outs(%f : tensor<2x5x9x11xf32>) -> tensor<2x5x9x11xf32>
  return %c : tensor<2x5x9x11xf32>
}
