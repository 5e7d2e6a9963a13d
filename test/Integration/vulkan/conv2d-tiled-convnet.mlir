// REQUIRES: vulkan
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --plan="pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" --emit=kernels -o - \
// RUN:   | FileCheck %s
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref conv2d_nchw --rtol 1e-4 --atol 1e-4 --check-winners --expect-backend vulkan \
// RUN:   --same-with-threads 2

// Tests that the convnet's first convolution with 64 filters instead of 16
// (8x3x32x32 by 64x3x5x5, NCHW), pinned to vulkan:0, takes the
// shared-memory schedule (an implicit matmul per image: 64 filters x 784
// pixels x 75 taps) and matches numpy. With 16 filters the implicit matmul
// is smaller than one 64-row tile and takes the per-element schedule.

// CHECK: fuel.gpu_conv2d = {block = array<i64: 4, 4>, {{.*}}layout = "nchw_fchw", {{.*}}shape = array<i64: 8, 3, 32, 32, 64, 5, 5>, strides = array<i64: 1, 1>, target = "vulkan", tile = array<i64: 64, 64, 64>}
// CHECK-SAME: fuel.workgroup_size = array<i64: 16, 16, 1>
// CHECK-SAME: fuel.workgroups = array<i64: 13, 1, 8>

func.func @conv(%x: tensor<8x3x32x32xf32>, %w: tensor<64x3x5x5xf32>) -> tensor<8x64x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64x28x28xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64x28x28xf32>) -> tensor<8x64x28x28xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<8x3x32x32xf32>, tensor<64x3x5x5xf32>)
      outs(%f : tensor<8x64x28x28xf32>) -> tensor<8x64x28x28xf32>
  return %c : tensor<8x64x28x28xf32>
}
