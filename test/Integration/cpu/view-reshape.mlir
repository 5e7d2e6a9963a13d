// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref matmul_reshape_relu --param 'shape=(12,20)' --rtol 1e-4 --atol 1e-4

// Tests that reshapes between kernels are views: a 12x20 matmul result
// expanded to 3x4x20 and read by a 3-D ReLU, then collapsed back to 12x20 and
// returned.

func.func @reshape(%a: tensor<12x9xf32>, %b: tensor<9x20xf32>) -> tensor<12x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<12x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<12x20xf32>) -> tensor<12x20xf32>
  %c = linalg.matmul ins(%a, %b : tensor<12x9xf32>, tensor<9x20xf32>) outs(%f : tensor<12x20xf32>) -> tensor<12x20xf32>
  %x = tensor.expand_shape %c [[0, 1], [2]] output_shape [3, 4, 20] : tensor<12x20xf32> into tensor<3x4x20xf32>
  %e = tensor.empty() : tensor<3x4x20xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<3x4x20xf32>) outs(%e : tensor<3x4x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<3x4x20xf32>
  %y = tensor.collapse_shape %r [[0, 1], [2]] : tensor<3x4x20xf32> into tensor<12x20xf32>
  return %y : tensor<12x20xf32>
}
