// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref generate_add --rtol 0 --atol 0

// Tests that tensor.generate (a host op compiled as a CPU kernel) fills a
// 4x6 tensor with i * 6 + j, added to an input by a kernel.

func.func @generate(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %g = tensor.generate {
  ^bb0(%i: index, %j: index):
    %c6 = arith.constant 6 : index
    %r0 = arith.muli %i, %c6 : index
    %r1 = arith.addi %r0, %j : index
    %n = arith.index_cast %r1 : index to i32
    %f = arith.sitofp %n : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %g : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
