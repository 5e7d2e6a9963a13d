// REQUIRES: fuel-lowering
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="kernel-sources=generated" --emit=outlined -o - | FileCheck %s --check-prefix=OUTLINED
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="kernel-sources=generated" --emit=kernels -o - | FileCheck %s --check-prefix=KERNELS
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="kernel-sources=generated" --emit=bufferized -o - | FileCheck %s --check-prefix=BUFFERIZED
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="kernel-sources=generated" --emit=host -o - | FileCheck %s --check-prefix=HOST
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="kernel-sources=generated" --emit=llvm -o - | FileCheck %s --check-prefix=LLVM

// Tests that every --emit stage after planning prints the IR of its pass
// (the matmul's generated kernel outlined, scheduled, bufferized, the host
// program, the LLVM dialect), that the planned output compiles as it is,
// and that compiling twice writes byte-identical executables that
// fuel-run --dump reads.

// OUTLINED: fuel.executable @cpu on cpu
// OUTLINED: func.func @[[K:[a-z_0-9]+]](%{{.*}}: memref<16x32xf32>, %{{.*}}: memref<32x8xf32>, %{{.*}}: memref<16x8xf32>)
// OUTLINED-SAME: fuel.kernel_id = "cpu.generated.matmul_f32"
// OUTLINED-SAME: fuel.op_kind = "matmul"
// OUTLINED: linalg.matmul
// OUTLINED-LABEL: func.func @matmul
// OUTLINED: fuel.dispatch @cpu::@[[K]] (%arg0, %arg1) {node = 0 : i64
// OUTLINED-NOT: fuel.node

// KERNELS: fuel.executable @cpu on cpu
// KERNELS: fuel.workgroups = array<i64: {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}>
// KERNELS-SAME: fuel.workspace_bytes = {{[0-9]+}} : i64
// KERNELS-NOT: linalg.matmul

// BUFFERIZED: fuel.executable @cpu on cpu
// BUFFERIZED-NOT: bufferization.to_tensor
// BUFFERIZED-NOT: memref.alloc(
// BUFFERIZED-LABEL: func.func @matmul

// HOST: fuel.program

// LLVM: llvm.func

// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=planned -o %t.planned.mlir
// RUN: fuel-compile %t.planned.mlir -o %t.a.fuelx
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json -o %t.b.fuelx
// RUN: cmp %t.a.fuelx %t.b.fuelx
// RUN: fuel-run %t.a.fuelx --dump | FileCheck %s --check-prefix=DUMP
// DUMP: inputs 2
// DUMP: outputs 1
// DUMP: dispatch {{.*}}| node 0 "matmul"
