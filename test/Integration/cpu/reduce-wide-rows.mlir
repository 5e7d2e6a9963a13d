// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref reduce_sum --param axis=1 --rtol 1e-5 --atol 1e-4 --check-winners \
// RUN:   --same-with-threads 1
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-target.json \
// RUN:   --ref reduce_sum --param axis=1 --rtol 1e-5 --atol 1e-4 --check-winners \
// RUN:   --same-with-threads 1

// Tests that a generated row sum over 1100 columns (17 column tiles of 64
// accumulated into 64 partial sums, a remainder of 12, the lanes reduced
// once per row) sums each row, for the host's ISA class and for AVX2.

func.func @reduce_sum(%x: tensor<9x1100xf32>) -> tensor<9xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %r = linalg.reduce ins(%x : tensor<9x1100xf32>) outs(%f : tensor<9xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<9xf32>
}
