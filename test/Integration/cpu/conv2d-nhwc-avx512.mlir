// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-avx512.json \
// RUN:   --ref conv2d_nhwc_hwcf --rtol 1e-4 --atol 1e-4 --check-winners --same-with-threads 1

// Tests that a generated unit-stride NHWC/HWCF convolution whose shapes leave
// a remainder in every register-tile dimension (7 input channels, 23 filters
// of 3x3: lane tiles of 16 + 7 on AVX2, 23 on AVX-512; output rows of 10 columns) computes
// the sums of products, compiled for AVX-512 (skylake-avx512).

func.func @conv(%x: tensor<1x9x12x7xf32>, %w: tensor<3x3x7x23xf32>) -> tensor<1x7x10x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x10x23xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x10x23xf32>) -> tensor<1x7x10x23xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x12x7xf32>, tensor<3x3x7x23xf32>)
      outs(%f : tensor<1x7x10x23xf32>) -> tensor<1x7x10x23xf32>
  return %c : tensor<1x7x10x23xf32>
}
