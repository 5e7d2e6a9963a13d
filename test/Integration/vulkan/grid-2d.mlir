// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref relu --rtol 0 --atol 0 --check-winners --expect-backend vulkan

// Tests that a kernel of more workgroups than one grid dimension holds
// (2049 x 2049 elements: 65601 workgroups of 64, the grid [65535, 2, 1])
// computes every element exactly once, the last ones in workgroup row y = 1.

func.func @relu(%a: tensor<2049x2049xf32>) -> tensor<2049x2049xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2049x2049xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2049x2049xf32>) outs(%e : tensor<2049x2049xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2049x2049xf32>
  return %r : tensor<2049x2049xf32>
}
