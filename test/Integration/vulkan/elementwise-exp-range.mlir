// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref exp --input-range=-87,88 --rtol 3e-7 --atol 0 --check-winners --expect-backend vulkan

// Tests that exp over [-87, 88] (4x1000), by the CPU's polynomial, every node
// pinned to vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

func.func @exp(%a: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %e = tensor.empty() : tensor<4x1000xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x1000xf32>) outs(%e : tensor<4x1000xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x1000xf32>
  return %r : tensor<4x1000xf32>
}
