// RUN: fuel-opt %S/../../Codegen/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu" --fuel-bufferize-kernels --convert-fuel-to-llvm | FileCheck %s
// RUN: fuel-opt %S/../../Codegen/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu" --fuel-bufferize-kernels --convert-fuel-to-llvm | fuel-opt | FileCheck %s

// Tests that each kernel becomes a private body with the workgroup ids as
// its last three arguments (the elementwise kernel's forall is gone, its
// row block indexed by x) and a fuel_kernel_fn entry under the kernel's own
// symbol that loads the binding pointers from the dispatch and calls the
// body; the entry keeps the kernel's attributes.

// CHECK: builtin.module attributes {fuel.cpu_target =
// CHECK-NOT: func.func
// CHECK-NOT: scf.
// CHECK: llvm.func internal @matmul_0.body(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: llvm.intr.fmuladd
// CHECK: llvm.func internal @elementwise_1.body(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[X:.+]]: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: llvm.mul %[[X]]
// CHECK: llvm.intr.maximum({{.*}}) : (vector<64xf32>, vector<64xf32>) -> vector<64xf32>

// CHECK-LABEL: llvm.func @matmul_0(
// CHECK-SAME: %[[D:.+]]: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[WX:.+]]: i32, %[[WY:.+]]: i32, %[[WZ:.+]]: i32)
// CHECK-SAME: fuel.kernel_body = @matmul_0.body, fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir", fuel.workgroups = array<i64: 1, 1, 1>, fuel.workspace_bytes = 0 : i64
// CHECK: %[[B:.+]] = llvm.load %[[D]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[S0:.+]] = llvm.getelementptr %[[B]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[P0:.+]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[S2:.+]] = llvm.getelementptr %[[B]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[P2:.+]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[X64:.+]] = llvm.zext %[[WX]] : i32 to i64
// CHECK: llvm.call @matmul_0.body(%[[P0]], %{{.*}}, %[[P2]], %[[X64]], %{{.*}}, %{{.*}})
// CHECK: llvm.return

// CHECK-LABEL: llvm.func @elementwise_1(
// CHECK-SAME: fuel.workgroups = array<i64: 16, 1, 1>
// CHECK: llvm.call @elementwise_1.body
