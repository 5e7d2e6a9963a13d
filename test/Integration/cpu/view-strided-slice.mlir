// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref strided_slice_matmul --param 'offsets=(1,0)' --param 'shape=(16,40)' --param 'strides=(2,1)' --rtol 1e-4 --atol 1e-4

// Tests that a strided slice (every other row of a 33x40 input, from row 1)
// read by a matmul is bound strided or materialised: either way the product
// of those rows with b.

func.func @strided_slice(%a: tensor<33x40xf32>, %b: tensor<40x24xf32>) -> tensor<16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %a[1, 0] [16, 40] [2, 1] : tensor<33x40xf32> to tensor<16x40xf32>
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %c = linalg.matmul ins(%s, %b : tensor<16x40xf32>, tensor<40x24xf32>) outs(%f : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %c : tensor<16x24xf32>
}
