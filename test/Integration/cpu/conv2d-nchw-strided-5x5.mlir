// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref conv2d_nchw --param stride=2 --rtol 1e-4 --atol 1e-4 --check-winners --same-with-threads 1
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-generic.json \
// RUN:   --ref conv2d_nchw --param stride=2 --rtol 1e-4 --atol 1e-4 --check-winners

// Tests that a generated NCHW/FCHW convolution with stride 2, 3 input
// channels and 7 filters of 5x5 (1x3x17x19 image -> 7x8 output) computes the
// sums of products, for the host's ISA class and for baseline x86-64.

func.func @conv(%x: tensor<1x3x17x19xf32>, %w: tensor<7x3x5x5xf32>) -> tensor<1x7x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x17x19xf32>, tensor<7x3x5x5xf32>)
      outs(%f : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  return %c : tensor<1x7x7x8xf32>
}
