// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref returned_twice --rtol 0 --atol 0

// Tests that a value returned twice fills both outputs (an output aliasing
// another is copied).

func.func @twice(%a: tensor<9x5xf32>) -> (tensor<9x5xf32>, tensor<9x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9x5xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<9x5xf32>) outs(%e : tensor<9x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<9x5xf32>
  return %r, %r : tensor<9x5xf32>, tensor<9x5xf32>
}
