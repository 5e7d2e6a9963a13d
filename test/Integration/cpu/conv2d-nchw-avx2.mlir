// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-target.json \
// RUN:   --ref conv2d_nchw --rtol 1e-4 --atol 1e-4 --check-winners --same-with-threads 1

// Tests that a generated unit-stride NCHW/FCHW convolution whose shapes leave
// a remainder in every register-tile dimension (5 input channels, 9 filters
// of 5x5, output rows of 27 columns: lane tiles of 16 + 8 + 3 on AVX2, 16 +
// 11 on AVX-512) computes the sums of products, compiled for AVX2 (x86-64-v3).

func.func @conv(%x: tensor<2x5x13x31xf32>, %w: tensor<9x5x5x5xf32>) -> tensor<2x9x9x27xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x9x9x27xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x9x27xf32>) -> tensor<2x9x9x27xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x5x13x31xf32>, tensor<9x5x5x5xf32>)
      outs(%f : tensor<2x9x9x27xf32>) -> tensor<2x9x9x27xf32>
  return %c : tensor<2x9x9x27xf32>
}
