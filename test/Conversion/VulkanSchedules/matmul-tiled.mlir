// DEFINE: %{plan} = pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json --plan="%{plan}" --emit=kernels -o - \
// RUN:   | FileCheck %s --check-prefix=LAVAPIPE
// RUN: fuel-compile %s --topology=%S/Inputs/cpu-vulkan-wide.json --plan="%{plan}" --emit=kernels -o - \
// RUN:   | FileCheck %s --check-prefix=WIDE
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json --plan="%{plan}" --emit=spirv -o - \
// RUN:   | FileCheck %s --check-prefix=SPIRV
// RUN: fuel-compile %s --topology=%S/Inputs/cpu-vulkan-wide.json --plan="%{plan}" --emit=spirv -o - \
// RUN:   | FileCheck %s --check-prefix=SPIRV-WIDE
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json %{plan}" \
// RUN:   --fuel-lower --test-fuel-emit-spirv=output=%t.spv -o /dev/null
// RUN: %if spirv-tools %{ %spirv-val --target-env vulkan1.1 %t.spv %}
// RUN: fuel-opt %s --fuel-plan="topology=%S/Inputs/cpu-vulkan-wide.json %{plan}" \
// RUN:   --fuel-lower --test-fuel-emit-spirv=output=%t.wide.spv -o /dev/null
// RUN: %if spirv-tools %{ %spirv-val --target-env vulkan1.1 %t.wide.spv %}
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json --plan="%{plan}" -o %t.a.fuelx
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json --plan="%{plan}" -o %t.b.fuelx
// RUN: cmp %t.a.fuelx %t.b.fuelx

// Tests that vulkan matmul and batch_matmul kernels take the shared-memory
// schedule with tiles chosen from the device's limits: on lavapipe
// (subgroups of 8, 32 KiB) 16 x 16 invocations of 4 x 4 elements, 64 x 64
// tiles of C, K panels of 64; with 32-wide subgroups and 48 KiB, 32 x 16
// invocations, 64 x 128 tiles; a K of 5 takes panels of 8. The SPIR-V
// holds the panels as Workgroup variables, barriers, the workgroup size as
// LocalSize, and passes spirv-val; the executable is the same bytes twice.

// LAVAPIPE-LABEL: fuel.executable @vulkan_0 on vulkan:0
// LAVAPIPE: func.func @matmul_0(
// LAVAPIPE-SAME: fuel.gpu_matmul = {a = 0 : i64, b = 1 : i64, batch = 1 : i64, block = array<i64: 4, 4>, c = 2 : i64, init = 0.000000e+00 : f32, k = 64 : i64, m = 128 : i64, n = 160 : i64, target = "vulkan", tile = array<i64: 64, 64, 64>}
// LAVAPIPE-SAME: fuel.workgroup_size = array<i64: 16, 16, 1>
// LAVAPIPE-SAME: fuel.workgroups = array<i64: 3, 2, 1>
// LAVAPIPE-NOT: scf.forall
// LAVAPIPE: linalg.matmul
// LAVAPIPE: func.func @batch_matmul_1(
// LAVAPIPE-SAME: fuel.gpu_matmul = {a = 0 : i64, b = 1 : i64, batch = 3 : i64, block = array<i64: 4, 4>, c = 2 : i64, init = 0.000000e+00 : f32, k = 5 : i64, m = 67 : i64, n = 130 : i64, target = "vulkan", tile = array<i64: 64, 64, 8>}
// LAVAPIPE-SAME: fuel.workgroup_size = array<i64: 16, 16, 1>
// LAVAPIPE-SAME: fuel.workgroups = array<i64: 3, 2, 3>

// WIDE: func.func @matmul_0(
// WIDE-SAME: tile = array<i64: 64, 128, 64>
// WIDE-SAME: fuel.workgroup_size = array<i64: 32, 16, 1>
// WIDE-SAME: fuel.workgroups = array<i64: 2, 2, 1>
// WIDE: func.func @batch_matmul_1(
// WIDE-SAME: tile = array<i64: 64, 128, 8>
// WIDE-SAME: fuel.workgroups = array<i64: 2, 2, 3>

// SPIRV: func.func private @matmul_0({{.*}}fuel.spirv_entry = "matmul_0"
// SPIRV: spirv.module
// SPIRV-DAG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<4096 x f32>)>, Workgroup>
// SPIRV-DAG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<512 x f32>)>, Workgroup>
// SPIRV-DAG: spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// SPIRV-DAG: spirv.ExecutionMode @matmul_0 "LocalSize", 16, 16, 1
// SPIRV-DAG: spirv.ExecutionMode @batch_matmul_1 "LocalSize", 16, 16, 1

// SPIRV-WIDE-DAG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<8192 x f32>)>, Workgroup>
// SPIRV-WIDE-DAG: spirv.ExecutionMode @matmul_0 "LocalSize", 32, 16, 1

func.func @mm(%a: tensor<128x64xf32>, %b: tensor<64x160xf32>,
              %ba: tensor<3x67x5xf32>, %bb: tensor<3x5x130xf32>)
    -> (tensor<128x160xf32>, tensor<3x67x130xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x160xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x160xf32>) -> tensor<128x160xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x160xf32>)
                     outs(%f : tensor<128x160xf32>) -> tensor<128x160xf32>
  %e1 = tensor.empty() : tensor<3x67x130xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3x67x130xf32>) -> tensor<3x67x130xf32>
  %bc = linalg.batch_matmul ins(%ba, %bb : tensor<3x67x5xf32>, tensor<3x5x130xf32>)
                            outs(%f1 : tensor<3x67x130xf32>) -> tensor<3x67x130xf32>
  return %c, %bc : tensor<128x160xf32>, tensor<3x67x130xf32>
}
