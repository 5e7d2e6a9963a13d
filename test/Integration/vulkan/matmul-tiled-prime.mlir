// REQUIRES: vulkan
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --plan="pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" --emit=kernels -o - \
// RUN:   | FileCheck %s
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --check-winners --expect-backend vulkan \
// RUN:   --same-with-threads 2

// Tests that a matmul with prime sizes, which the tiles do not divide (127 x 67 by 67 x 131),
// pinned to vulkan:0, takes the shared-memory schedule and matches numpy.

// CHECK: fuel.gpu_matmul = {{{.*}}target = "vulkan", tile = array<i64: 64, 64, 64>}

func.func @matmul(%a: tensor<127x67xf32>, %b: tensor<67x131xf32>) -> tensor<127x131xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<127x131xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<127x131xf32>) -> tensor<127x131xf32>
  %c = linalg.matmul ins(%a, %b : tensor<127x67xf32>, tensor<67x131xf32>)
                     outs(%f : tensor<127x131xf32>) -> tensor<127x131xf32>
  return %c : tensor<127x131xf32>
}
