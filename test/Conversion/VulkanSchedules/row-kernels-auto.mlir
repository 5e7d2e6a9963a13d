// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules | FileCheck %s
// RUN: fuel-opt %s --fuel-plan="topology=%S/Inputs/vulkan-subgroup32.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=auto" | FileCheck %s --check-prefix=SG32

// Tests the default choice between the row schedules
// (fuel::target::chooseRowSchedule, measured on lavapipe): on lavapipe
// (subgroups of 8, row workgroups of 64) 4 rows of 1024 columns take the
// subgroup schedule, 4 rows of 256 and 256 rows of 1024 the per-element
// one, and so do softmaxes of the same shapes; with 32-wide subgroups
// (workgroups of 256) 4 rows of 1024 are too short.

// CHECK: func.func @reduce_0({{.*}}fuel.row_kernel = "sum", fuel.row_tiling = array<i64: 4, 1024, 8, 8>
// CHECK: func.func @reduce_1(
// CHECK-NOT: fuel.row_kernel
// CHECK-SAME: fuel.workgroups = array<i64: 1, 1, 1>
// CHECK: func.func @reduce_2(
// CHECK-NOT: fuel.row_kernel
// CHECK-SAME: fuel.workgroups = array<i64: 4, 1, 1>
// CHECK: func.func @softmax_3({{.*}}fuel.row_kernel = "softmax", fuel.row_tiling = array<i64: 4, 1024, 8, 8>
// CHECK: func.func @softmax_4(
// CHECK-NOT: fuel.row_kernel
// CHECK-SAME: fuel.workgroups

// SG32-NOT: fuel.row_kernel

func.func @f(%a: tensor<4x1024xf32>, %b: tensor<4x256xf32>, %c: tensor<256x1024xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<256xf32>, tensor<4x1024xf32>, tensor<4x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %r0 = linalg.reduce ins(%a : tensor<4x1024xf32>) outs(%f0 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %r1 = linalg.reduce ins(%b : tensor<4x256xf32>) outs(%f0 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  %r2 = linalg.reduce ins(%c : tensor<256x1024xf32>) outs(%f2 : tensor<256xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<4x1024xf32>
  %s3 = linalg.softmax dimension(1) ins(%a : tensor<4x1024xf32>) outs(%e3 : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %e4 = tensor.empty() : tensor<4x256xf32>
  %s4 = linalg.softmax dimension(1) ins(%b : tensor<4x256xf32>) outs(%e4 : tensor<4x256xf32>) -> tensor<4x256xf32>
  return %r0, %r1, %r2, %s3, %s4 : tensor<4xf32>, tensor<4xf32>, tensor<256xf32>, tensor<4x1024xf32>, tensor<4x256xf32>
}
