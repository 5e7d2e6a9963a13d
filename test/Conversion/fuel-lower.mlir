// RUN: fuel-opt %S/../Tools/fuel-compile/Inputs/matmul.mlir \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json kernel-sources=generated" \
// RUN:   | fuel-opt --fuel-lower | FileCheck %s

// Tests that fuel-lower takes a placed module to the LLVM-dialect stage in
// one pipeline: the cpu executable holds the kernel's ABI entry in the LLVM
// dialect, and the function has become a host program launching it.

// CHECK: fuel.executable @cpu on cpu
// CHECK: llvm.func @[[K:[a-z_0-9]+]](%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// CHECK-NOT: func.func
// CHECK: fuel.program @matmul
// CHECK: fuel.launch @cpu::@[[K]]
// CHECK-SAME: kernel_id = "cpu.generated.matmul_f32"
