// DEFINE: %{plan} = pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated
// RUN: fuel-compile %s --topology=%S/Inputs/cpu-vulkan-no-limits.json --plan="%{plan}" --emit=kernels -o - \
// RUN:   | FileCheck %s --check-prefix=NO-LIMITS
// RUN: fuel-compile %s --topology=%S/Inputs/cpu-vulkan-no-subgroup.json --plan="%{plan}" --emit=kernels -o - \
// RUN:   | FileCheck %s --check-prefix=NO-SUBGROUP
// RUN: fuel-compile %s --topology=%S/Inputs/cpu-vulkan-tiny-shared.json --plan="%{plan}" --emit=kernels -o - \
// RUN:   | FileCheck %s --check-prefix=TINY
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json %{plan}" --fuel-outline-kernels \
// RUN:   --fuel-apply-schedules="vulkan-matmul=per-element" | FileCheck %s --check-prefix=OPTION
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json --plan="%{plan}" --emit=kernels -o - \
// RUN:   | FileCheck %s --check-prefix=SMALL
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json %{plan}" --fuel-outline-kernels \
// RUN:   --fuel-apply-schedules="vulkan-matmul=tiled vulkan-matmul-block=2" | FileCheck %s --check-prefix=BLOCK2
// RUN: not fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json %{plan}" --fuel-outline-kernels \
// RUN:   --fuel-apply-schedules="vulkan-matmul=fast" 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

// Tests that a vulkan matmul keeps the per-element schedule, with the
// reason as `fuel.gpu_schedule_note`, where the topology gives no
// limits, leaves the subgroup size unknown or has too little shared memory
// for one column of the panels, where the matmul (37 x 29) is smaller than
// one 64 x 64 tile, and with vulkan-matmul=per-element; that
// vulkan-matmul=tiled takes the shared-memory schedule all the same, with
// the elements per invocation vulkan-matmul-block sets; and that an
// unknown vulkan-matmul value is an error naming the option.

// NO-LIMITS: func.func @matmul_0(
// NO-LIMITS-NOT: fuel.gpu_matmul =
// NO-LIMITS-SAME: fuel.gpu_schedule_note = {reason = "per-element: the topology gives no gpu limits for this device", target = "vulkan"}
// NO-LIMITS: scf.forall

// NO-SUBGROUP: fuel.gpu_schedule_note = {reason = "per-element: the device's gpu_limits give no 'subgroup_size' (0 = unknown)
// NO-SUBGROUP: scf.forall

// TINY: fuel.gpu_schedule_note = {reason = "per-element: matmul tiling: 256 bytes of shared memory cannot hold one column of a 64 x 64 tile", target = "vulkan"}
// TINY: scf.forall

// SMALL: func.func @matmul_0(
// SMALL-SAME: fuel.gpu_schedule_note = {reason = "per-element: the matmul's 37 x 29 is smaller than one 64 x 64 tile, which the per-element schedule runs faster", target = "vulkan"}
// SMALL: scf.forall

// OPTION: func.func @matmul_0(
// OPTION-NOT: fuel.gpu_matmul =
// OPTION: scf.forall

// BLOCK2: fuel.gpu_matmul = {{{.*}}block = array<i64: 2, 2>{{.*}}target = "vulkan", tile = array<i64: 32, 32, 64>}
// BLOCK2-SAME: fuel.workgroup_size = array<i64: 16, 16, 1>

// BAD-OPTION: for the --vulkan-matmul option: Cannot find option named 'fast'!

func.func @matmul(%a: tensor<37x53xf32>, %b: tensor<53x29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %c = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x29xf32>)
                     outs(%f : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %c : tensor<37x29xf32>
}
