// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref transpose --param 'perm=(2,0,1)' --rtol 0 --atol 0 --check-winners

// Tests that a generated 3-D transpose (5x7x3, permutation [2, 0, 1]) moves
// every element.

func.func @transpose(%a: tensor<5x7x3xf32>) -> tensor<3x5x7xf32> {
  %e = tensor.empty() : tensor<3x5x7xf32>
  %t = linalg.transpose ins(%a : tensor<5x7x3xf32>) outs(%e : tensor<3x5x7xf32>) permutation = [2, 0, 1]
  return %t : tensor<3x5x7xf32>
}
