// REQUIRES: vulkan
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --plan="pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" --emit=kernels -o - \
// RUN:   | FileCheck %s
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref conv2d_nhwc_hwcf --param stride=2 --param dilation=2 --rtol 1e-4 --atol 1e-4 \
// RUN:   --check-winners --expect-backend vulkan

// Tests that an NHWC convolution with stride 2 and dilation 2 and prime
// sizes (3x37x41x5 by 3x3x5x67), pinned to vulkan:0, takes the
// shared-memory schedule (pixels along M, filters along N) and matches
// numpy.

// CHECK: fuel.gpu_conv2d = {{{.*}}dilations = array<i64: 2, 2>, {{.*}}layout = "nhwc_hwcf", {{.*}}shape = array<i64: 3, 5, 37, 41, 67, 3, 3>, strides = array<i64: 2, 2>

func.func @conv(%x: tensor<3x37x41x5xf32>, %w: tensor<3x3x5x67xf32>) -> tensor<3x17x19x67xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x19x67xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x19x67xf32>) -> tensor<3x17x19x67xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<3x37x41x5xf32>, tensor<3x3x5x67xf32>)
      outs(%f : tensor<3x17x19x67xf32>) -> tensor<3x17x19x67xf32>
  return %c : tensor<3x17x19x67xf32>
}
