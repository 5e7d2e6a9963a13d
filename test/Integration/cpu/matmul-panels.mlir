// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners --same-with-threads 1
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-generic.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-target.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-avx512.json \
// RUN:   --ref matmul --rtol 1e-4 --atol 1e-4 --plan "kernel-sources=generated" --check-winners

// Tests that a generated matmul packed into B panels computes the product
// for every ISA class the machine runs (the host's, baseline x86-64, AVX2,
// AVX-512): N = 96 is 6 panels of 16, 3 of 32, 12 of 8 (workgroups over
// panels), and the prime M = 37 and K = 29 leave peeled remainders of rows
// and of K in every panel.

func.func @matmul(%a: tensor<37x29xf32>, %b: tensor<29x96xf32>) -> tensor<37x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x96xf32>) -> tensor<37x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<37x29xf32>, tensor<29x96xf32>)
                     outs(%f : tensor<37x96xf32>) -> tensor<37x96xf32>
  return %c : tensor<37x96xf32>
}
