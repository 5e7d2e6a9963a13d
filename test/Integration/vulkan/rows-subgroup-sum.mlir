// REQUIRES: vulkan
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=subgroup" --fuel-bufferize-kernels --fuel-plan-buffers \
// RUN:   --convert-fuel-to-llvm --convert-fuel-to-spirv --fuel-serialize-executable=output=%t.fuelx -o /dev/null
// RUN: fuel-run %t.fuelx --dump | FileCheck %s
// RUN: %python %S/../run-and-check.py --executable %t.fuelx --ref row_sums --rtol 1e-5 --atol 1e-5 --same-with-threads 2
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref row_sums --rtol 1e-5 --atol 1e-5 --check-winners --expect-backend vulkan

// Tests that row sums of shapes (rows x columns) 5 x 8 (a row one subgroup
// wide), 3 x 64 (one workgroup wide), 4 x 1031, 6 x 13 and 9 x 67 (prime)
// and 2 x 3 (shorter than a subgroup), through the subgroup row schedule on
// lavapipe (one workgroup per row, subgroups of 8), match numpy, bit for bit
// with 1 and 2 threads; and through fuel-compile's own choice (the measured
// rule).

// CHECK-DAG: dispatch {{.*}} on vulkan:0 {{.*}}grid 5x1x1
// CHECK-DAG: dispatch {{.*}} on vulkan:0 {{.*}}grid 3x1x1
// CHECK-DAG: dispatch {{.*}} on vulkan:0 {{.*}}grid 4x1x1
// CHECK-DAG: dispatch {{.*}} on vulkan:0 {{.*}}grid 6x1x1
// CHECK-DAG: dispatch {{.*}} on vulkan:0 {{.*}}grid 2x1x1
// CHECK-DAG: dispatch {{.*}} on vulkan:0 {{.*}}grid 9x1x1

func.func @rows(%x0: tensor<5x8xf32>, %x1: tensor<3x64xf32>, %x2: tensor<4x1031xf32>, %x3: tensor<6x13xf32>, %x4: tensor<2x3xf32>, %x5: tensor<9x67xf32>)
    -> (tensor<5xf32>, tensor<3xf32>, tensor<4xf32>, tensor<6xf32>, tensor<2xf32>, tensor<9xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %e0 = tensor.empty() : tensor<5xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<5xf32>) -> tensor<5xf32>
  %r0 = linalg.reduce ins(%x0 : tensor<5x8xf32>) outs(%f0 : tensor<5xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e1 = tensor.empty() : tensor<3xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %r1 = linalg.reduce ins(%x1 : tensor<3x64xf32>) outs(%f1 : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r2 = linalg.reduce ins(%x2 : tensor<4x1031xf32>) outs(%f2 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<6xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<6xf32>) -> tensor<6xf32>
  %r3 = linalg.reduce ins(%x3 : tensor<6x13xf32>) outs(%f3 : tensor<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e4 = tensor.empty() : tensor<2xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2xf32>) -> tensor<2xf32>
  %r4 = linalg.reduce ins(%x4 : tensor<2x3xf32>) outs(%f4 : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e5 = tensor.empty() : tensor<9xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<9xf32>) -> tensor<9xf32>
  %r5 = linalg.reduce ins(%x5 : tensor<9x67xf32>) outs(%f5 : tensor<9xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<5xf32>, tensor<3xf32>, tensor<4xf32>, tensor<6xf32>, tensor<2xf32>, tensor<9xf32>
}
