// RUN: not %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref wrong_matmul --rtol 1e-4 --atol 1e-4 2>&1 | FileCheck %s
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=RIGHT

// Tests that the harness fails on a wrong answer: the same executable,
// checked against a reference that is off by one, is a mismatch naming the
// output, and against the right reference it passes.

// CHECK: output 0 ({{.*}}, 19x23xf32): 437 elements, max abs error
// CHECK: run-and-check: MISMATCH output 0 ({{.*}}): 437 of 437 elements outside tolerance
// RIGHT: run-and-check: 1 outputs match 'matmul'

func.func @matmul(%a: tensor<19x29xf32>, %b: tensor<29x23xf32>) -> tensor<19x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<19x23xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<19x23xf32>) -> tensor<19x23xf32>
  %c = linalg.matmul ins(%a, %b : tensor<19x29xf32>, tensor<29x23xf32>)
                     outs(%f : tensor<19x23xf32>) -> tensor<19x23xf32>
  return %c : tensor<19x23xf32>
}
