// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules | FileCheck %s
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-lower | FileCheck %s --check-prefix=SPIRV

// Tests that a vulkan kernel with more workgroups than one grid dimension
// holds (2049 x 2049 elements: 65601 workgroups of 64) gets the grid
// [65535, 2, 1], and that its invocations number the workgroups y * 65535 + x.

// CHECK: fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 65535, 2, 1>
// SPIRV: spirv.func @elementwise_0
// SPIRV: spirv.IMul %{{.*}}, %cst65535_i32
// SPIRV: fuel.launch @vulkan_0::@elementwise_0{{.*}} grid [65535, 2, 1]

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
