// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref pad_relu --param 'low=(1,2)' --param 'high=(3,0)' --param value=0.5 --rtol 0 --atol 0

// Tests that tensor.pad (a host op compiled as a CPU kernel) pads a 5x7
// input by [1, 2] low and [3, 0] high with 0.5, read by a ReLU kernel.

func.func @pad(%a: tensor<5x7xf32>) -> tensor<9x9xf32> {
  %zero = arith.constant 0.0 : f32
  %v = arith.constant 0.5 : f32
  %p = tensor.pad %a low[1, 2] high[3, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<5x7xf32> to tensor<9x9xf32>
  %e = tensor.empty() : tensor<9x9xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<9x9xf32>) outs(%e : tensor<9x9xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<9x9xf32>
  return %r : tensor<9x9xf32>
}
