// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref transpose --param 'perm=(1,0)' --rtol 0 --atol 0 --check-winners

// Tests that a generated transpose of 37x53 moves every element.

func.func @transpose(%a: tensor<37x53xf32>) -> tensor<53x37xf32> {
  %e = tensor.empty() : tensor<53x37xf32>
  %t = linalg.transpose ins(%a : tensor<37x53xf32>) outs(%e : tensor<53x37xf32>) permutation = [1, 0]
  return %t : tensor<53x37xf32>
}
