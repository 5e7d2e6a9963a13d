// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref scale_add_sum --rtol 1e-6 --atol 1e-6 --check-winners

// Tests rank-0 tensors through the executable and fuel-run: a rank-0
// argument (the scale %s, a 0-d .npy), a rank-0 constant broadcast into an
// elementwise kernel and a rank-0 result (the sum of %a), against numpy.

func.func @scalars(%a: tensor<37xf32>, %s: tensor<f32>) -> (tensor<37xf32>, tensor<f32>) {
  %two = arith.constant dense<2.0> : tensor<f32>
  %e = tensor.empty() : tensor<37xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%a, %s, %two : tensor<37xf32>, tensor<f32>, tensor<f32>) outs(%e : tensor<37xf32>) {
  ^bb0(%x: f32, %y: f32, %c: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %p = arith.addf %m, %c : f32
    linalg.yield %p : f32
  } -> tensor<37xf32>
  %zero = arith.constant 0.0 : f32
  %z0 = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%z0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
      iterator_types = ["reduction"]}
      ins(%a : tensor<37xf32>) outs(%z : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %r, %sum : tensor<37xf32>, tensor<f32>
}
