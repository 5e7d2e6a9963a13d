// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref softmax --param axis=1 --rtol 1e-5 --atol 1e-6 --check-winners --same-with-threads 1

// Tests that a generated softmax over the rows of 7x131 (a prime axis) gives
// each row's normalised exponentials.

func.func @softmax(%x: tensor<7x131xf32>) -> tensor<7x131xf32> {
  %e = tensor.empty() : tensor<7x131xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<7x131xf32>) outs(%e : tensor<7x131xf32>) -> tensor<7x131xf32>
  return %s : tensor<7x131xf32>
}
