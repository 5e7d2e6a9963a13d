// RUN: fuel-opt %s | FileCheck %s
// RUN: fuel-opt %s | fuel-opt | FileCheck %s

// Tests that the outlined stage's ops print and parse back: an executable
// per device with a kernel module and a library kernel, and dispatches of
// both kinds of kernel.

// CHECK-LABEL: fuel.executable @cpu on cpu {
// CHECK: builtin.module {
// CHECK: func.func @matmul_0(%{{.*}}: memref<4x8xf32>, %{{.*}}: memref<8x2xf32>, %{{.*}}: memref<4x2xf32>)
// CHECK-SAME: fuel.kernel_id = "cpu.generated.matmul_f32"
// CHECK: fuel.library_kernel @openblas_matmul_1 "cpu.openblas.matmul_f32" shim "openblas" entry "fuel_shim_openblas_sgemm" grid [1, 1, 1] params [4, 2, 8, 8, 2, 2, 0, 0, 4] workspace 0 revision -42
fuel.executable @cpu on cpu {
  builtin.module {
    func.func @matmul_0(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>)
        attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul",
                    fuel.revision = 7 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir"} {
      return
    }
  }
  fuel.library_kernel @openblas_matmul_1 "cpu.openblas.matmul_f32" shim "openblas"
      entry "fuel_shim_openblas_sgemm" grid [1, 1, 1] params [4, 2, 8, 8, 2, 2, 0, 0, 4]
      workspace 0 revision -42
}

// CHECK: fuel.executable @cuda_0 on cuda:0 {
fuel.executable @cuda_0 on cuda:0 {
}

// CHECK-LABEL: func.func @f
// CHECK: %[[G:.+]] = fuel.dispatch @cpu::@matmul_0 (%arg0, %arg1) {node = 0 : i64, predicted_ns = 100 : i64} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
// CHECK: fuel.dispatch @cpu::@openblas_matmul_1 (%arg0, %arg1) {node = 1 : i64} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %0 = fuel.dispatch @cpu::@matmul_0 (%a, %b) {node = 0 : i64, predicted_ns = 100 : i64}
      : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %1 = fuel.dispatch @cpu::@openblas_matmul_1 (%a, %b) {node = 1 : i64}
      : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0, %1 : tensor<4x2xf32>, tensor<4x2xf32>
}
