// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref gelu_erf --rtol 1e-5 --atol 1e-6 --check-winners

// Tests that a generated gelu in its erf form (17x19, math.erf by
// polynomial approximation) computes every element.

func.func @gelu(%a: tensor<17x19xf32>) -> tensor<17x19xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678118 : f32
  %e = tensor.empty() : tensor<17x19xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<17x19xf32>) outs(%e : tensor<17x19xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %rsqrt2 : f32
    %er = math.erf %s : f32
    %p = arith.addf %er, %one : f32
    %h = arith.mulf %x, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  } -> tensor<17x19xf32>
  return %r : tensor<17x19xf32>
}
