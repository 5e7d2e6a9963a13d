// REQUIRES: vulkan
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --plan="pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" --emit=kernels -o - \
// RUN:   | FileCheck %s
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --check-winners --expect-backend vulkan

// Tests that a batch_matmul of batch 3 with prime sizes (3 x 127 x 67 by
// 3 x 67 x 71), pinned to vulkan:0, takes the shared-memory schedule (one
// workgroup row of the grid per batch) and matches numpy.

// CHECK: fuel.gpu_matmul = {{{.*}}batch = 3 : i64{{.*}}target = "vulkan", tile = array<i64: 64, 64, 64>}
// CHECK-SAME: fuel.workgroups = array<i64: 2, 2, 3>

func.func @batch_matmul(%a: tensor<3x127x67xf32>, %b: tensor<3x67x71xf32>) -> tensor<3x127x71xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x127x71xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x127x71xf32>) -> tensor<3x127x71xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x127x67xf32>, tensor<3x67x71xf32>)
                           outs(%f : tensor<3x127x71xf32>) -> tensor<3x127x71xf32>
  return %c : tensor<3x127x71xf32>
}
