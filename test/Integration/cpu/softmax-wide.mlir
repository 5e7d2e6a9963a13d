// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref softmax --param axis=1 --input-range=-60,60 --rtol 2e-5 --atol 1e-30 \
// RUN:   --check-winners --same-with-threads 1
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-target.json \
// RUN:   --ref softmax --param axis=1 --input-range=-60,60 --rtol 2e-5 --atol 1e-30 \
// RUN:   --check-winners --same-with-threads 1

// Tests that a generated softmax over rows of 1029 (16 column tiles of 64 and
// a remainder of 5) with logits spread over [-60, 60] (exp of x - max down to
// e^-120, which flushes to zero) gives each row's normalised exponentials,
// bit-identical on one thread, for the host's ISA class and for AVX2.

func.func @softmax(%x: tensor<6x1029xf32>) -> tensor<6x1029xf32> {
  %e = tensor.empty() : tensor<6x1029xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<6x1029xf32>) outs(%e : tensor<6x1029xf32>) -> tensor<6x1029xf32>
  return %s : tensor<6x1029xf32>
}
