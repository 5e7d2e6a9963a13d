// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref row_slice_matmul --param r0=3 --param rows=5 --rtol 1e-4 --atol 1e-4 \
// RUN:   --check-winners --expect-backend vulkan

// Tests that a matmul on vulkan:0 reading rows 3..8 of an 11x13 input (a
// view at byte 156, which the 64-byte binding alignment does not divide) is
// bound from byte 128 with an element offset of 7 in its push constants,
// and gives the product of those rows.

func.func @row_slice(%a: tensor<11x13xf32>, %b: tensor<13x7xf32>) -> tensor<5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %a[3, 0] [5, 13] [1, 1] : tensor<11x13xf32> to tensor<5x13xf32>
  %e = tensor.empty() : tensor<5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x7xf32>) -> tensor<5x7xf32>
  %c = linalg.matmul ins(%s, %b : tensor<5x13xf32>, tensor<13x7xf32>) outs(%f : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %c : tensor<5x7xf32>
}
