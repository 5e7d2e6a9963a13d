// RUN: not fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules 2>&1 | FileCheck %s

// Tests that a GPU kernel without a parallel loop (a reduction to a rank-0
// result) is refused with a diagnostic at the kernel naming the reason,
// rather than handed to a tiling that has no loop to split.

// CHECK: error: kernel @{{.*}} (vulkan.generated.{{.*}}): parameter 'parallel(1)' splits the parallel loops and the root op has none (its result has rank 0): there is nothing to map onto GPU threads; run this kernel on the CPU
func.func @sum(%a: tensor<37xf32>) -> tensor<f32> {
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
  return %sum : tensor<f32>
}
