// RUN: not fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="cuda-matmul=fast" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="cuda-row-schedule=subgroup" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="cuda-matmul=per-element" | FileCheck %s --check-prefix=PER
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules | FileCheck %s --check-prefix=SMALL
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="cuda-matmul=tiled" | FileCheck %s --check-prefix=TILED

// Tests the options of the CUDA fast schedules: an unknown `cuda-matmul`
// or `cuda-row-schedule` is refused by the option parser, naming the
// option and the value (the fast row schedule is spelled 'warp' on CUDA); `cuda-matmul=per-element`
// keeps the per-element schedule with no record; under `auto` a matmul
// smaller than one 64 x 128 tile keeps it with the reason as
// fuel.gpu_schedule_note; `tiled` takes the shared-memory schedule anyway.

// MATMUL: for the --cuda-matmul option: Cannot find option named 'fast'!
// ROWS: for the --cuda-row-schedule option: Cannot find option named 'subgroup'!
// PER: func.func @matmul_0(
// PER-NOT: fuel.gpu_matmul
// SMALL: func.func @matmul_0(
// SMALL-NOT: fuel.gpu_matmul
// SMALL-SAME: fuel.gpu_schedule_note = {reason = "per-element: the matmul's 33 x 29 is smaller than one 64 x 128 tile, which the per-element schedule runs faster", target = "cuda"}
// TILED: func.func @matmul_0(
// TILED-SAME: fuel.gpu_matmul = {{.*}}tile = array<i64: 64, 128, 32>
// TILED-SAME: fuel.workgroups = array<i64: 1, 1, 1>

func.func @mm(%a: tensor<33x17xf32>, %b: tensor<17x29xf32>) -> tensor<33x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<33x29xf32>) -> tensor<33x29xf32>
  %m = linalg.matmul ins(%a, %b : tensor<33x17xf32>, tensor<17x29xf32>) outs(%f : tensor<33x29xf32>) -> tensor<33x29xf32>
  return %m : tensor<33x29xf32>
}
