// DEFINE: %{plan} = pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json %{plan}" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="cuda-row-schedule=warp" | FileCheck %s --check-prefix=WARP
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json %{plan}" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules | FileCheck %s --check-prefix=AUTO
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json %{plan}" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="cuda-row-schedule=per-element" | FileCheck %s --check-prefix=PER
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json %{plan}" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="cuda-row-schedule=warp" --fuel-bufferize-kernels \
// RUN:   --fuel-plan-buffers --convert-fuel-to-llvm --convert-fuel-to-nvvm --test-fuel-emit-ptx=output=%t.ptx \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda-sm80.json %{plan}" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="cuda-row-schedule=warp" --fuel-bufferize-kernels \
// RUN:   --fuel-plan-buffers --convert-fuel-to-llvm --convert-fuel-to-nvvm --test-fuel-emit-ptx=output=%t.sm80.ptx -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.sm80.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}

// Tests the warp row schedule of cuda kernels: a softmax of 4 x 1031, a
// max of 3 x 13 (one warp: no shared memory) and a sum of 2 x 4096 take it
// under `cuda-row-schedule=warp`, with warps of 32 from the topology (8
// warps of 32 for 1031 columns), and lower to butterfly `shfl.sync` over
// the warp, the warps' results through `.shared` memory and `bar.sync`;
// ptxas assembles the PTX for sm_90 and sm_80. Under `auto` the measured
// rule (chooseRowSchedule) keeps the softmax (4 columns per thread) and
// the max (13 columns) per-element and takes the warp schedule for the sum
// (16 columns per thread), and `per-element` keeps all three, each kept
// kernel with the reason as fuel.gpu_schedule_note.

// WARP: func.func @softmax_0(
// WARP-SAME: fuel.row_kernel = "softmax"
// WARP-SAME: fuel.row_tiling = array<i64: 4, 1031, 32, 8>
// WARP-SAME: fuel.workgroup_size = array<i64: 256, 1, 1>
// WARP-SAME: fuel.workgroups = array<i64: 4, 1, 1>
// WARP: func.func @reduce_1(
// WARP-SAME: fuel.row_kernel = "max"
// WARP-SAME: fuel.row_tiling = array<i64: 3, 13, 32, 1>
// WARP-SAME: fuel.workgroup_size = array<i64: 32, 1, 1>
// WARP: func.func @reduce_2(
// WARP-SAME: fuel.row_kernel = "sum"
// WARP-SAME: fuel.row_tiling = array<i64: 2, 4096, 32, 8>

// AUTO: func.func @softmax_0(
// AUTO-SAME: fuel.gpu_schedule_note = {reason = "per-element: 4 rows of 1031 columns: the measured rule takes the subgroup schedule only for fewer rows than the subgroup size (32) of at least 16 columns per invocation of its 256-wide workgroup", target = "cuda"}
// AUTO-NOT: fuel.row_kernel
// AUTO: func.func @reduce_1(
// AUTO-SAME: fuel.gpu_schedule_note = {reason = "per-element: 3 rows of 13 columns: {{.*}} of its 32-wide workgroup", target = "cuda"}
// AUTO: func.func @reduce_2(
// AUTO-NOT: fuel.gpu_schedule_note
// AUTO-SAME: fuel.row_kernel = "sum"

// PER: func.func @softmax_0(
// PER-SAME: fuel.gpu_schedule_note = {reason = "per-element: the row schedule option is 'per-element'", target = "cuda"}
// PER: func.func @reduce_1(
// PER-SAME: fuel.gpu_schedule_note = {reason = "per-element: the row schedule option is 'per-element'", target = "cuda"}
// PER: func.func @reduce_2(
// PER-SAME: fuel.gpu_schedule_note = {reason = "per-element: the row schedule option is 'per-element'", target = "cuda"}
// PER-NOT: fuel.row_kernel

// IR: func.func private @softmax_0({{.*}}fuel.ptx_entry = "softmax_0"
// IR: func.func private @reduce_1({{.*}}fuel.ptx_entry = "reduce_1"
// IR: func.func private @reduce_2({{.*}}fuel.ptx_entry = "reduce_2"
// IR-NOT: spirv.

// PTX: .entry softmax_0(
// PTX: .maxntid 256, 1, 1
// PTX: .shared
// PTX: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// PTX: bar.sync
// PTX: .entry reduce_1(
// PTX: .maxntid 32, 1, 1
// PTX-NOT: .shared
// PTX-NOT: bar.sync
// PTX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// PTX: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// PTX: .entry reduce_2(
// PTX: .maxntid 256, 1, 1
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync

func.func @rows(%x: tensor<4x1031xf32>, %y: tensor<3x13xf32>, %z: tensor<2x4096xf32>)
    -> (tensor<4x1031xf32>, tensor<3xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<4x1031xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x1031xf32>) outs(%e : tensor<4x1031xf32>) -> tensor<4x1031xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %re = tensor.empty() : tensor<3xf32>
  %rf = linalg.fill ins(%ninf : f32) outs(%re : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%y : tensor<3x13xf32>) outs(%rf : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<2xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.reduce ins(%z : tensor<2x4096xf32>) outs(%sf : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %s, %r, %sum : tensor<4x1031xf32>, tensor<3xf32>, tensor<2xf32>
}
