// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref exp_mul --rtol 1e-5 --atol 1e-6 --check-winners

// Tests that a generated elementwise op below the vector width (3x5,
// exp(a) * b through a polynomial exp) computes every element.

func.func @exp_mul(%a: tensor<3x5xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<3x5xf32>, tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %x1 = math.exp %x : f32
    %m = arith.mulf %x1, %y : f32
    linalg.yield %m : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
