// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref input_returned --rtol 0 --atol 0

// Tests that an input returned unchanged comes back unchanged (an output
// aliasing an input is copied) next to a kernel's result.

func.func @passthrough(%a: tensor<6x10xf32>) -> (tensor<6x10xf32>, tensor<6x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x10xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<6x10xf32>) outs(%e : tensor<6x10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<6x10xf32>
  return %a, %r : tensor<6x10xf32>, tensor<6x10xf32>
}
