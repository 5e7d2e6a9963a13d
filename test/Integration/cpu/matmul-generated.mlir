// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --check-winners

// Tests that the matmul forced to cpu.generated.matmul_f32 (fuel.kernel) runs
// that kernel and computes the product; the same 61x97 · 97x83 matmul as the
// other kernel-source tests, prime so every row block and tile has a
// remainder.

func.func @matmul(%a: tensor<61x97xf32>, %b: tensor<97x83xf32>) -> tensor<61x83xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<61x83xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<61x83xf32>) -> tensor<61x83xf32>
  %c = linalg.matmul {fuel.kernel = "cpu.generated.matmul_f32"} ins(%a, %b : tensor<61x97xf32>, tensor<97x83xf32>)
                     outs(%f : tensor<61x83xf32>) -> tensor<61x83xf32>
  return %c : tensor<61x83xf32>
}
