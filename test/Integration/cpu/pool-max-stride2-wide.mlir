// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref pool_max_nchw --param window=2 --param stride=2 --rtol 0 --atol 0 --check-winners
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-target.json \
// RUN:   --ref pool_max_nchw --param window=2 --param stride=2 --rtol 0 --atol 0 --check-winners

// Tests that a generated 2x2 stride-2 NCHW max pool over rows of 262
// columns (131 outputs: vector tiles and a remainder, each window's maximum
// taken element by element through the branch-free one-element maximum)
// gives exactly each window's maximum, for the host's ISA class and AVX2.

func.func @pool(%x: tensor<1x2x10x262xf32>) -> tensor<1x2x5x131xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x5x131xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x5x131xf32>) -> tensor<1x2x5x131xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x2x10x262xf32>, tensor<2x2xf32>) outs(%f : tensor<1x2x5x131xf32>) -> tensor<1x2x5x131xf32>
  return %p : tensor<1x2x5x131xf32>
}
