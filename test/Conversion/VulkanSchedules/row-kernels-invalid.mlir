// RUN: not fuel-opt %s --fuel-plan="topology=%S/../../Codegen/Inputs/vulkan-small-limits.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fuel-opt %s --fuel-plan="topology=%S/Inputs/vulkan-narrow-workgroups.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=fast" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: fuel-opt %s --fuel-plan="topology=%S/../../Codegen/Inputs/vulkan-small-limits.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=per-element" | FileCheck %s --check-prefix=PER

// Tests the diagnostics of the subgroup row schedule: limits that do not
// state the shared memory the subgroups' results need, and a subgroup (64)
// wider than the device's workgroups (32), are errors at the kernel naming
// the limit; an unknown vulkan-row-schedule is an error naming the option;
// with `per-element` the same limits compile (no row kernel needs them).

// MISSING: error: kernel @reduce_0 (vulkan.generated.reduce_f32): the subgroup row schedule of 37 x 101: the device's gpu_limits give no 'shared_memory_bytes'
// SMALL: error: kernel @reduce_0 (vulkan.generated.reduce_f32): the subgroup row schedule of 37 x 101: reduction tiling: a subgroup of 64 (subgroup_size) exceeds the workgroup limit of 32 invocations (max_workgroup_invocations, max_workgroup_size[0])
// MODE: for the --vulkan-row-schedule option: Cannot find option named 'fast'!
// PER: func.func @reduce_0
// PER-NOT: fuel.row_kernel

func.func @reduce(%x: tensor<37x101xf32>) -> tensor<37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.reduce ins(%x : tensor<37x101xf32>) outs(%f : tensor<37xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<37xf32>
}
