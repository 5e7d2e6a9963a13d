// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref softmax --param axis=0 --rtol 1e-5 --atol 1e-6 --check-winners

// Tests that a generated softmax over dimension 0 of 3x5 (below the vector
// width, not the innermost axis) normalises each column.

func.func @softmax(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %s = linalg.softmax dimension(0) ins(%x : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %s : tensor<3x5xf32>
}
