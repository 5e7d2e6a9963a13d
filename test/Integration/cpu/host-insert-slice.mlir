// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref insert_slice_relu --param 'offsets=(2,5)' --rtol 0 --atol 0

// Tests that tensor.insert_slice (a host op compiled as a CPU kernel)
// inserts a 3x4 input into a copy of an 8x9 input at [2, 5] (never into the
// input itself), read by a ReLU kernel.

func.func @insert(%dst: tensor<8x9xf32>, %src: tensor<3x4xf32>) -> tensor<8x9xf32> {
  %zero = arith.constant 0.0 : f32
  %i = tensor.insert_slice %src into %dst[2, 5] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<8x9xf32>
  %e = tensor.empty() : tensor<8x9xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%i : tensor<8x9xf32>) outs(%e : tensor<8x9xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x9xf32>
  return %r : tensor<8x9xf32>
}
