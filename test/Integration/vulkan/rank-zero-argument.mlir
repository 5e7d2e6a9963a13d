// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref scale_add_self --rtol 1e-6 --atol 1e-6 --check-winners --expect-backend vulkan

// Tests a rank-0 argument (the scale %s, a 0-d .npy) bound to a SPIR-V
// kernel, every node pinned to vulkan:0, against numpy.

func.func @scalars(%a: tensor<37xf32>, %s: tensor<f32>) -> tensor<37xf32> {
  %e = tensor.empty() : tensor<37xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%a, %s : tensor<37xf32>, tensor<f32>) outs(%e : tensor<37xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %p = arith.addf %m, %x : f32
    linalg.yield %p : f32
  } -> tensor<37xf32>
  return %r : tensor<37xf32>
}
