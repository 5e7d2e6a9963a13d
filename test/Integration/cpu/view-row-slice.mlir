// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref row_slice_matmul --param r0=8 --param rows=16 --rtol 1e-4 --atol 1e-4

// Tests that a contiguous slice (rows 8..24 of a 32x40 input) read by a
// matmul is a view of its source: the product of those rows with b.

func.func @row_slice(%a: tensor<32x40xf32>, %b: tensor<40x24xf32>) -> tensor<16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %a[8, 0] [16, 40] [1, 1] : tensor<32x40xf32> to tensor<16x40xf32>
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %c = linalg.matmul ins(%s, %b : tensor<16x40xf32>, tensor<40x24xf32>) outs(%f : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %c : tensor<16x24xf32>
}
