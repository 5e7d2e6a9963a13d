// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref layer_norm --rtol 1e-4 --atol 1e-5 --check-winners --expect-backend vulkan

// Tests that a layer norm of 31x67 (reductions and elementwise ops), every node
// pinned to vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @layer_norm(%x: tensor<31x67xf32>, %g: tensor<67xf32>, %b: tensor<67xf32>) -> tensor<31x67xf32> {
  %zero = arith.constant 0.0 : f32
  %width = arith.constant 67.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<31xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<31xf32>) -> tensor<31xf32>
  %e = tensor.empty() : tensor<31x67xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<31x67xf32>) outs(%zr : tensor<31xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<31xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<31x67xf32>, tensor<31xf32>) outs(%e : tensor<31x67xf32>) {
  ^bb0(%v: f32, %sum: f32, %o: f32):
    %m = arith.divf %sum, %width : f32
    %r = arith.subf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<31x67xf32>
  %q = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<31x67xf32>) outs(%zr : tensor<31xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<31xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d, %q, %g, %b : tensor<31x67xf32>, tensor<31xf32>, tensor<67xf32>, tensor<67xf32>)
      outs(%e : tensor<31x67xf32>) {
  ^bb0(%v: f32, %qq: f32, %gg: f32, %bb: f32, %o: f32):
    %var = arith.divf %qq, %width : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %nv = arith.mulf %v, %rs : f32
    %sc = arith.mulf %nv, %gg : f32
    %r = arith.addf %sc, %bb : f32
    linalg.yield %r : f32
  } -> tensor<31x67xf32>
  return %n : tensor<31x67xf32>
}
