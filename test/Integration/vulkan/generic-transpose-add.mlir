// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref transpose_add --rtol 1e-6 --atol 1e-7 --check-winners --expect-backend vulkan

// Tests that a generic op adding a transposed 17x13 to 13x17, every node pinned
// to vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

func.func @transpose_add(%a: tensor<17x13xf32>, %b: tensor<13x17xf32>) -> tensor<13x17xf32> {
  %e = tensor.empty() : tensor<13x17xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<17x13xf32>, tensor<13x17xf32>) outs(%e : tensor<13x17xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<13x17xf32>
  return %r : tensor<13x17xf32>
}
