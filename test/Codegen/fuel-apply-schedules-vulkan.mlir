// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=per-element" | FileCheck %s

// Tests that fuel-apply-schedules runs the @gpu sequence of each vulkan
// kernel's schedule: the matmul (smaller than one shared-memory tile, so
// per element, with the note saying so) root is tiled by 1 along M and N (K stays
// whole) with its fill fused, one forall iteration per output element, and
// the launch records 64-invocation workgroups over the 37 x 29 = 1073
// iterations (17 workgroups); the softmax of the product, held to the
// per-element schedule (the subgroup row schedule has its own tests,
// test/Conversion/VulkanSchedules/row-kernels.mlir), is tiled per row (37
// iterations, one workgroup) and decomposed inside the row.

// CHECK-LABEL: fuel.executable @vulkan_0 on vulkan:0
// CHECK: func.func @matmul_0({{.*}}fuel.gpu_schedule_note = {reason = "per-element: the matmul's 37 x 29 is smaller than one 64 x 64 tile{{.*}}", target = "vulkan"}, fuel.kernel_id = "vulkan.generated.matmul_f32"{{.*}}fuel.schedule = "kernels/schedules/gpu/per_element.mlir", fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 17, 1, 1>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (37, 29)
// CHECK: linalg.fill {{.*}} -> tensor<1x1xf32>
// CHECK: linalg.matmul {{.*}} tensor<1x53xf32>, tensor<53x1xf32>
// CHECK: func.func @softmax_1({{.*}}fuel.kernel_id = "vulkan.generated.softmax_f32"{{.*}}fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (37)
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK: scf.forall.in_parallel

func.func @f(%a: tensor<37x53xf32>, %b: tensor<53x29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %c = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x29xf32>)
                     outs(%f : tensor<37x29xf32>) -> tensor<37x29xf32>
  %e2 = tensor.empty() : tensor<37x29xf32>
  %s = linalg.softmax dimension(1) ins(%c : tensor<37x29xf32>) outs(%e2 : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %s : tensor<37x29xf32>
}
