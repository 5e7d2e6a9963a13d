// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref strided_slice_matmul --param 'offsets=(1,0)' --param 'shape=(16,40)' --param 'strides=(2,1)' \
// RUN:   --rtol 1e-4 --atol 1e-4 --check-winners --expect-backend vulkan

// Tests that a strided slice (every other row of a 33x40 input from row 1)
// read by a matmul on vulkan:0 is folded into the kernel (the
// strided_input cap), which reads the slice's source through its strides.

func.func @strided_slice(%a: tensor<33x40xf32>, %b: tensor<40x24xf32>) -> tensor<16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %a[1, 0] [16, 40] [2, 1] : tensor<33x40xf32> to tensor<16x40xf32>
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %c = linalg.matmul ins(%s, %b : tensor<16x40xf32>, tensor<40x24xf32>) outs(%f : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %c : tensor<16x24xf32>
}
