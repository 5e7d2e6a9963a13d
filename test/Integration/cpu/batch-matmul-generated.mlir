// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref batch_matmul --rtol 1e-4 --atol 1e-4 --check-winners

// Tests that the batch matmul forced to cpu.generated.batch_matmul_f32
// (fuel.kernel) runs that kernel and computes every batch entry (5 x 23x31 ·
// 31x19).

func.func @batch_matmul(%a: tensor<5x23x31xf32>, %b: tensor<5x31x19xf32>) -> tensor<5x23x19xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x23x19xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x23x19xf32>) -> tensor<5x23x19xf32>
  %c = linalg.batch_matmul {fuel.kernel = "cpu.generated.batch_matmul_f32"} ins(%a, %b : tensor<5x23x31xf32>, tensor<5x31x19xf32>)
                           outs(%f : tensor<5x23x19xf32>) -> tensor<5x23x19xf32>
  return %c : tensor<5x23x19xf32>
}
