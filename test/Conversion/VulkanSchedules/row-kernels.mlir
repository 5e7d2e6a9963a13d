// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=subgroup" | FileCheck %s --check-prefix=SG8
// RUN: fuel-opt %s --fuel-plan="topology=%S/Inputs/vulkan-subgroup32.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=subgroup" | FileCheck %s --check-prefix=SG32
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=per-element" | FileCheck %s --check-prefix=PER
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=subgroup" --fuel-bufferize-kernels --fuel-plan-buffers \
// RUN:   --convert-fuel-to-llvm --convert-fuel-to-spirv --test-fuel-emit-spirv=output=%t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %if spirv-tools %{ %spirv-val --target-env vulkan1.1 %t.spv %}
// RUN: fuel-opt %s --fuel-plan="topology=%S/Inputs/vulkan-subgroup32.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=subgroup" --fuel-bufferize-kernels --fuel-plan-buffers \
// RUN:   --convert-fuel-to-llvm --convert-fuel-to-spirv --test-fuel-emit-spirv=output=%t32.spv | FileCheck %s --check-prefix=SPIRV32
// RUN: %if spirv-tools %{ %spirv-val --target-env vulkan1.1 %t32.spv %}
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=per-element" --fuel-bufferize-kernels --fuel-plan-buffers \
// RUN:   --convert-fuel-to-llvm --convert-fuel-to-spirv | FileCheck %s --check-prefix=SPIRVPER

// Tests that row reductions and softmax over the innermost dimension take
// the subgroup row schedule, widths from the device's limits: one workgroup
// per row of 8 subgroups of 8 on lavapipe (rows of 101, 1024 and 63), two of
// 8 for rows of 13, and of 32-wide subgroups on a device that has them
// (4 x 32 for 101, 8 x 32 for 1024, 1 x 32 for 13); a reduction over the
// outer dimension and a softmax over dimension 0 keep the per-element
// schedule; `per-element` keeps it for all. In SPIR-V: GroupNonUniform
// reductions at subgroup scope, the capabilities and LocalSize that go with
// them (and none without a row kernel), workgroup memory and a barrier
// where there is more than one subgroup, and a binary spirv-val accepts.

// SG8-LABEL: fuel.executable @vulkan_0 on vulkan:0
// SG8: func.func @reduce_0({{.*}}fuel.row_kernel = "sum", fuel.row_tiling = array<i64: 37, 101, 8, 8>{{.*}}fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 37, 1, 1>
// SG8-NOT: scf.forall
// SG8: linalg.reduce
// SG8: func.func @reduce_1({{.*}}fuel.row_kernel = "max", fuel.row_tiling = array<i64: 12, 1024, 8, 8>{{.*}}fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 12, 1, 1>
// SG8: func.func @reduce_2({{.*}}fuel.row_kernel = "min", fuel.row_tiling = array<i64: 5, 63, 8, 8>{{.*}}fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 5, 1, 1>
// SG8: func.func @softmax_3({{.*}}fuel.row_kernel = "softmax", fuel.row_tiling = array<i64: 7, 13, 8, 2>{{.*}}fuel.workgroup_size = array<i64: 16, 1, 1>, fuel.workgroups = array<i64: 7, 1, 1>
// SG8: func.func @reduce_4(
// SG8-NOT: fuel.row_kernel
// SG8-SAME: fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 2, 1, 1>
// SG8: scf.forall
// SG8: func.func @softmax_5(
// SG8-NOT: fuel.row_kernel
// SG8-SAME: fuel.workgroups = array<i64: 1, 1, 1>
// SG8: scf.forall

// SG32: func.func @reduce_0({{.*}}fuel.row_tiling = array<i64: 37, 101, 32, 4>{{.*}}fuel.workgroup_size = array<i64: 128, 1, 1>, fuel.workgroups = array<i64: 37, 1, 1>
// SG32: func.func @reduce_1({{.*}}fuel.row_tiling = array<i64: 12, 1024, 32, 8>{{.*}}fuel.workgroup_size = array<i64: 256, 1, 1>
// SG32: func.func @reduce_2({{.*}}fuel.row_tiling = array<i64: 5, 63, 32, 2>{{.*}}fuel.workgroup_size = array<i64: 64, 1, 1>
// SG32: func.func @softmax_3({{.*}}fuel.row_tiling = array<i64: 7, 13, 32, 1>{{.*}}fuel.workgroup_size = array<i64: 32, 1, 1>

// PER-NOT: fuel.row_kernel

// Without a row kernel the module asks for no subgroup capability.
// SPIRVPER: spirv.module @__spv__vulkan_0_spirv
// SPIRVPER-NOT: GroupNonUniform
// SPIRVPER: spirv.func @reduce_0()

// SPIRV-LABEL: spirv.module @__spv__vulkan_0_spirv
// SPIRV-SAME: requires #spirv.vce<v1.3, [{{.*}}GroupNonUniformArithmetic{{.*}}]
// SPIRV: spirv.GlobalVariable {{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<8 x f32>)>, Workgroup>
// SPIRV: spirv.func @reduce_0()
// SPIRV: spirv.GroupNonUniformFAdd <Subgroup> <Reduce>
// SPIRV: spirv.ControlBarrier <Workgroup>
// SPIRV: spirv.GroupNonUniformFAdd <Subgroup> <Reduce>
// SPIRV: spirv.func @reduce_1()
// SPIRV: spirv.GroupNonUniformFMax <Subgroup> <Reduce>
// SPIRV: spirv.func @reduce_2()
// SPIRV: spirv.GroupNonUniformFMin <Subgroup> <Reduce>
// SPIRV: spirv.func @softmax_3()
// SPIRV: spirv.GroupNonUniformFMax <Subgroup> <Reduce>
// SPIRV: spirv.GroupNonUniformFAdd <Subgroup> <Reduce>
// SPIRV: spirv.func @reduce_4()
// SPIRV-NOT: spirv.GroupNonUniform
// SPIRV: spirv.func @softmax_5()
// SPIRV-NOT: spirv.GroupNonUniform
// SPIRV-DAG: spirv.ExecutionMode @reduce_0 "LocalSize", 64, 1, 1
// SPIRV-DAG: spirv.ExecutionMode @softmax_3 "LocalSize", 16, 1, 1

// The softmax of 13 columns is one subgroup of 32: no workgroup memory, no
// barrier in it.
// SPIRV32: spirv.func @softmax_3()
// SPIRV32-NOT: spirv.ControlBarrier
// SPIRV32: spirv.GroupNonUniformFAdd <Subgroup> <Reduce>
// SPIRV32: spirv.func @reduce_4()
// SPIRV32-DAG: spirv.ExecutionMode @reduce_0 "LocalSize", 128, 1, 1
// SPIRV32-DAG: spirv.ExecutionMode @reduce_1 "LocalSize", 256, 1, 1
// SPIRV32-DAG: spirv.ExecutionMode @softmax_3 "LocalSize", 32, 1, 1

func.func @rows(%a: tensor<37x101xf32>, %b: tensor<3x4x1024xf32>, %c: tensor<5x7x9xf32>,
                %d: tensor<7x13xf32>, %e: tensor<101x97xf32>, %f: tensor<7x13xf32>)
    -> (tensor<37xf32>, tensor<3x4xf32>, tensor<5xf32>, tensor<7x13xf32>, tensor<97xf32>, tensor<7x13xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %e0 = tensor.empty() : tensor<37xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37xf32>) -> tensor<37xf32>
  %sum = linalg.reduce ins(%a : tensor<37x101xf32>) outs(%f0 : tensor<37xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e1 = tensor.empty() : tensor<3x4xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %max = linalg.reduce ins(%b : tensor<3x4x1024xf32>) outs(%f1 : tensor<3x4xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<5xf32>
  %f2 = linalg.fill ins(%pinf : f32) outs(%e2 : tensor<5xf32>) -> tensor<5xf32>
  %min = linalg.reduce ins(%c : tensor<5x7x9xf32>) outs(%f2 : tensor<5xf32>) dimensions = [1, 2]
    (%in: f32, %acc: f32) {
      %m = arith.minimumf %acc, %in : f32
      linalg.yield %m : f32
    }
  %e3 = tensor.empty() : tensor<7x13xf32>
  %sm = linalg.softmax dimension(1) ins(%d : tensor<7x13xf32>) outs(%e3 : tensor<7x13xf32>) -> tensor<7x13xf32>
  %e4 = tensor.empty() : tensor<97xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<97xf32>) -> tensor<97xf32>
  %col = linalg.reduce ins(%e : tensor<101x97xf32>) outs(%f4 : tensor<97xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e5 = tensor.empty() : tensor<7x13xf32>
  %sm0 = linalg.softmax dimension(0) ins(%f : tensor<7x13xf32>) outs(%e5 : tensor<7x13xf32>) -> tensor<7x13xf32>
  return %sum, %max, %min, %sm, %col, %sm0 : tensor<37xf32>, tensor<3x4xf32>, tensor<5xf32>, tensor<7x13xf32>, tensor<97xf32>, tensor<7x13xf32>
}
