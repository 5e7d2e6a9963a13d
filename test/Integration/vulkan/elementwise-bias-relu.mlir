// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref bias_relu --rtol 1e-6 --atol 1e-7 --check-winners --expect-backend vulkan

// Tests that a broadcast bias add and ReLU of 67x131, every node pinned to
// vulkan:0, runs on the Vulkan device as SPIR-V and matches numpy.

func.func @bias_relu(%a: tensor<67x131xf32>, %b: tensor<131xf32>) -> tensor<67x131xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x131xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<67x131xf32>, tensor<131xf32>) outs(%e : tensor<67x131xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<67x131xf32>
  return %r : tensor<67x131xf32>
}
