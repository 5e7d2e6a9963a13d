// RUN: fuel-opt %s --fuel-plan="topology=%S/Inputs/vulkan-small-limits.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules | FileCheck %s
// RUN: not fuel-opt %s --fuel-plan="topology=%S/Inputs/vulkan-small-limits.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-lower -o /dev/null 2>&1 | FileCheck %s --check-prefix=PUSH

// Tests that the workgroup size of a vulkan kernel comes from the device's
// limits in the topology: at most 40 invocations per workgroup, rounded down
// to whole subgroups of 16, is 32 (so 100 elements take 4 workgroups); and
// that the push constants the topology allows (8 bytes) bound the bindings'
// element offsets (this kernel's 3 bindings need 12) at the kernel module.

// PUSH: error: a vulkan kernel of @vulkan_0 has 3 bindings: their element offsets need 12 bytes of push constants, more than the 8 allowed

// CHECK: fuel.workgroup_size = array<i64: 32, 1, 1>, fuel.workgroups = array<i64: 4, 1, 1>

func.func @add(%a: tensor<100xf32>, %b: tensor<100xf32>) -> tensor<100xf32> {
  %e = tensor.empty() : tensor<100xf32>
  %r = linalg.add ins(%a, %b : tensor<100xf32>, tensor<100xf32>) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  return %r : tensor<100xf32>
}
