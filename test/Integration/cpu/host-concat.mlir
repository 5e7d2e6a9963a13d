// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref concat_relu --param axis=1 --rtol 0 --atol 0

// Tests that tensor.concat (a host op compiled as a CPU kernel) joins 5x3
// and 5x4 inputs along dimension 1, read by a ReLU kernel.

func.func @concat(%a: tensor<5x3xf32>, %b: tensor<5x4xf32>) -> tensor<5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.concat dim(1) %a, %b : (tensor<5x3xf32>, tensor<5x4xf32>) -> tensor<5x7xf32>
  %e = tensor.empty() : tensor<5x7xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<5x7xf32>) outs(%e : tensor<5x7xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
