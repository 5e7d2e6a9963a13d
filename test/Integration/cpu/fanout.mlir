// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref fanout --rtol 1e-4 --atol 1e-4 --check-winners

// Tests fan-out: one matmul result read by two kernels (ReLU and exp),
// both returned.

func.func @fanout(%a: tensor<13x7xf32>, %b: tensor<7x11xf32>) -> (tensor<13x11xf32>, tensor<13x11xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x11xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<13x11xf32>) -> tensor<13x11xf32>
  %c = linalg.matmul ins(%a, %b : tensor<13x7xf32>, tensor<7x11xf32>) outs(%f : tensor<13x11xf32>) -> tensor<13x11xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<13x11xf32>) outs(%e : tensor<13x11xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<13x11xf32>
  %x = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<13x11xf32>) outs(%e : tensor<13x11xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = math.exp %v : f32
    linalg.yield %m : f32
  } -> tensor<13x11xf32>
  return %r, %x : tensor<13x11xf32>, tensor<13x11xf32>
}
