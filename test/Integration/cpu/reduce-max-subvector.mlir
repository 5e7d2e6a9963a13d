// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref reduce_max --param axis=0 --rtol 0 --atol 0 --check-winners

// Tests that a generated column maximum (linalg.reduce over dimension 0 of
// 3x5, below the vector width) takes each column's maximum.

func.func @reduce(%x: tensor<3x5xf32>) -> tensor<5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<5xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r = linalg.reduce ins(%x : tensor<3x5xf32>) outs(%f : tensor<5xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<5xf32>
}
