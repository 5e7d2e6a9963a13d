// RUN: fuel-opt %S/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu" | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: fuel-opt %S/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: fuel-opt %S/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=x86-64 target-triple=x86_64-unknown-linux-gnu" | FileCheck %s --check-prefixes=CHECK,GENERIC
// RUN: fuel-opt %S/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu" | fuel-opt | FileCheck %s --check-prefixes=CHECK,AVX2

// Tests that each kernel runs its schedule's sequence for the target's ISA
// class: the prime-shaped matmul becomes peeled register tiles of FMAs with
// a hoisted accumulator (6x16 on AVX2, 8x32 on AVX-512, 4x8 generic; the
// remainders 37 = 36 + 1 and 29 = 16 + 13 are static tiles), and the
// elementwise chain one workgroup forall of row blocks with the chain fused
// per 64-wide row tile; grid, workspace and target are recorded.

// CHECK: builtin.module attributes {fuel.cpu_target = {cpu = "{{[a-z0-9-]+}}", features = "", triple = "x86_64-unknown-linux-gnu"}}

// CHECK-LABEL: func.func @matmul_0
// CHECK-SAME: fuel.workgroups = array<i64: 1, 1, 1>, fuel.workspace_bytes = 0 : i64
// CHECK-NOT: linalg.
// AVX2: scf.for {{.*}} iter_args({{.*}}) -> (vector<6x16xf32>)
// AVX2: vector.fma {{.*}} : vector<16xf32>
// AVX2: vector<6x13xf32>
// AVX2: vector<1x16xf32>
// AVX2: vector<1x13xf32>
// AVX512: scf.for {{.*}} iter_args({{.*}}) -> (vector<8x29xf32>)
// AVX512: vector.fma {{.*}} : vector<29xf32>
// AVX512: vector<5x29xf32>
// GENERIC: scf.for {{.*}} iter_args({{.*}}) -> (vector<4x8xf32>)
// GENERIC: vector.fma {{.*}} : vector<8xf32>
// GENERIC: vector<4x5xf32>
// CHECK-NOT: linalg.
// CHECK: bufferization.materialize_in_destination

// CHECK-LABEL: func.func @elementwise_1
// CHECK-SAME: fuel.workgroups = array<i64: 16, 1, 1>, fuel.workspace_bytes = 0 : i64
// CHECK-NOT: linalg.
// CHECK: scf.forall (%{{.*}}) in (16)
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (4, {{16|32}})
// AVX2: arith.addf {{.*}} : vector<1x64xf32>
// AVX2: arith.maximumf {{.*}} : vector<1x64xf32>
// GENERIC: arith.maximumf {{.*}} : vector<1x32xf32>
// CHECK-NOT: linalg.
