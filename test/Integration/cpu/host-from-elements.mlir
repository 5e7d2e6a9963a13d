// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref from_elements_add --param 'values=(1.0,-2.0,3.5,0.25,-7.0,8.0)' --rtol 0 --atol 0

// Tests that tensor.from_elements (a host op compiled as a CPU kernel)
// builds a 2x3 tensor of six scalars, added to an input by a kernel.

func.func @from_elements(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c0 = arith.constant 1.0 : f32
  %c1 = arith.constant -2.0 : f32
  %c2 = arith.constant 3.5 : f32
  %c3 = arith.constant 0.25 : f32
  %c4 = arith.constant -7.0 : f32
  %c5 = arith.constant 8.0 : f32
  %t = tensor.from_elements %c0, %c1, %c2, %c3, %c4, %c5 : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
