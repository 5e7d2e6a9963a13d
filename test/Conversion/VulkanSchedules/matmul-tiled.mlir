// The shared-memory matmul schedule (kernels/schedules/vulkan/
// matmul_tiled.mlir) with lavapipe's tiles (16 x 16, K panels of 32): the
// panels of A and B in workgroup memory (space 3) with a barrier after each
// copy and after the accumulation, lowered to SPIR-V that spirv-val accepts.
//
// RUN: fuel-opt %s --transform-preload-library=transform-library-paths=%fuel_schedules/vulkan/matmul_tiled.mlir,%S/Inputs/matmul-tiled-main.mlir \
// RUN:   --transform-interpreter \
// RUN:   | FileCheck %s --check-prefix=SCHED
// RUN: fuel-opt %s --transform-preload-library=transform-library-paths=%fuel_schedules/vulkan/matmul_tiled.mlir,%S/Inputs/matmul-tiled-main.mlir \
// RUN:   --transform-interpreter \
// RUN:   --convert-linalg-to-loops --canonicalize --gpu-launch-sink-index-computations \
// RUN:   --gpu-kernel-outlining --canonicalize \
// RUN:   | sed -e 's/ kernel attributes {/ kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 16, 1]>, /' \
// RUN:   | fuel-opt --pass-pipeline='builtin.module(fold-memref-alias-ops,expand-strided-metadata,lower-affine,canonicalize,convert-gpu-to-spirv,spirv.module(spirv-lower-abi-attrs,spirv-update-vce))' \
// RUN:   -o %t.spirv.mlir
// RUN: FileCheck %s --check-prefix=SPIRV < %t.spirv.mlir
// RUN: %python %S/Inputs/extract-spirv-module.py %t.spirv.mlir > %t.module.mlir
// RUN: mlir-translate --no-implicit-module --serialize-spirv %t.module.mlir -o %t.spv
// RUN: spirv-val --target-env vulkan1.1 %t.spv

module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<subgroup_size = 8>>} {
  func.func @mm(%A: tensor<128x64xf32>, %B: tensor<64x96xf32>, %C: tensor<128x96xf32>) -> tensor<128x96xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<128x64xf32>, tensor<64x96xf32>) outs(%C : tensor<128x96xf32>) -> tensor<128x96xf32>
    return %r : tensor<128x96xf32>
  }
}

// SCHED-LABEL: func.func @mm
// SCHED:         gpu.launch blocks({{.*}}) in ({{.*}} = %c6{{.*}}, {{.*}} = %c8{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c16{{.*}}, {{.*}} = %c16{{.*}}, {{.*}})
// SCHED:           scf.for {{.*}} = %c0{{.*}} to %c64{{.*}} step %c32
// SCHED:             %[[PA:.*]] = memref.alloc() {{.*}} : memref<16x32xf32, 3>
// SCHED:             linalg.copy {{.*}} outs({{.*}} : memref<1x2xf32, {{.*}}, 3>)
// SCHED-NEXT:        gpu.barrier
// SCHED:             %[[PB:.*]] = memref.alloc() {{.*}} : memref<32x16xf32, 3>
// SCHED:             linalg.copy {{.*}} outs({{.*}} : memref<2x1xf32, {{.*}}, 3>)
// SCHED-NEXT:        gpu.barrier
// SCHED:             memref.subview %[[PA]]
// SCHED:             memref.subview %[[PB]]
// SCHED:             linalg.matmul ins({{.*}} : memref<1x32xf32, {{.*}}, 3>, memref<32x1xf32, {{.*}}, 3>) outs({{.*}} : memref<1x1xf32
// SCHED-NEXT:        gpu.barrier
// The result's copy onto itself is gone.
// SCHED-NOT:     linalg.copy
// SCHED:         gpu.terminator

// SPIRV:       spirv.module @{{.*}} Logical GLSL450
// SPIRV-DAG:     spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<512 x f32>)>, Workgroup>
// SPIRV-DAG:     spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<512 x f32>)>, Workgroup>
// SPIRV-COUNT-3: spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// SPIRV:         spirv.ExecutionMode @{{.*}} "LocalSize", 16, 16, 1
