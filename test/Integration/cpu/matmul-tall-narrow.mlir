// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners --same-with-threads 1
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-generic.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-target.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-avx512.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners

// Tests that a tall, narrow matmul (200x24 · 24x32) computes the product for
// every ISA class the machine runs: N = 32 is 2 panels of 16 and 1 of 32, so
// AVX2 and AVX-512 split the workgroups over M (10 blocks of 20 rows, each
// packing the panels itself), baseline x86-64 over its 4 panels of 8.

func.func @matmul(%a: tensor<200x24xf32>, %b: tensor<24x32xf32>) -> tensor<200x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<200x32xf32>) -> tensor<200x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<200x24xf32>, tensor<24x32xf32>)
                     outs(%f : tensor<200x32xf32>) -> tensor<200x32xf32>
  return %c : tensor<200x32xf32>
}
