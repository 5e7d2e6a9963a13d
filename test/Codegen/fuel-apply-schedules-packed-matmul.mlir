// RUN: fuel-opt %S/Inputs/cpu-matmul-kernels.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu" | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: fuel-opt %S/Inputs/cpu-matmul-kernels.mlir --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: fuel-opt %S/Inputs/cpu-matmul-kernels.mlir --fuel-apply-schedules="target-cpu=x86-64 target-triple=x86_64-unknown-linux-gnu" | FileCheck %s --check-prefixes=CHECK,GENERIC
// RUN: fuel-opt %S/Inputs/cpu-matmul-kernels.mlir --fuel-attach-topology="topology=%topologies/cpu-avx512.json" --fuel-apply-schedules | FileCheck %s --check-prefixes=CHECK,AVX512

// Tests the packed-B schedules of matmul.mlir and batch_matmul.mlir per ISA
// class: a matmul whose N is a multiple of the panel width P (16 AVX2, 8
// generic; on AVX-512, 32 and only for a constant B, which these kernels do
// not have: fuel-apply-schedules-constant-b.mlir and
// test/Integration/cpu/matmul-constant-weight.mlir check that; batch
// matmuls always) reads B through panels [N/P][K][P] copied one panel
// per iteration (a vector.transpose of K-row tiles into a panel-sized
// buffer) and writes C through a view [M][N/P][P]; the register tile is
// R x P with the accumulator hoisted (6x16, 8x32, 4x8; rows peeled); workgroups are
// whole panels when there are more than 2, else blocks of M; a matmul whose
// N no panel divides is tiled unpacked, split over M.

// 8x12 . 12x64: 4 panels of 16 (one per workgroup), 8 of 8; on AVX-512
// unpacked, 2 strips of 32 (one workgroup: M = 8 is one block).
// CHECK-LABEL: func.func @matmul_wide
// AVX2-SAME: fuel.workgroups = array<i64: 4, 1, 1>
// AVX512-SAME: fuel.workgroups = array<i64: 1, 1, 1>
// GENERIC-SAME: fuel.workgroups = array<i64: 8, 1, 1>
// CHECK-NOT: linalg.
// AVX2: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [8, 4, 16]
// AVX2: scf.forall (%{{.*}}) in (4)
// AVX2: tensor.empty() : tensor<1x12x16xf32>
// AVX2: vector.transpose %{{.*}}, [1, 0, 2] : vector<6x1x16xf32> to vector<1x6x16xf32>
// AVX2: iter_args(%{{.*}} = %{{.*}}) -> (vector<6x1x16xf32>)
// AVX2: vector.fma {{.*}} : vector<16xf32>
// AVX2: -> (vector<2x1x16xf32>)
// AVX512-NOT: tensor.expand_shape
// AVX512: iter_args(%{{.*}} = %{{.*}}) -> (vector<8x32xf32>)
// AVX512: vector.fma {{.*}} : vector<32xf32>
// GENERIC: scf.forall (%{{.*}}) in (8)
// GENERIC: tensor.empty() : tensor<1x12x8xf32>
// GENERIC: iter_args(%{{.*}} = %{{.*}}) -> (vector<4x1x8xf32>)
// GENERIC: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: linalg.
// AVX2: tensor.collapse_shape
// GENERIC: tensor.collapse_shape
// CHECK: bufferization.materialize_in_destination

// 37x53 . 53x32, M and K prime: 2 panels of 16 and 1 of 32 (one block of M:
// 37 has no smaller divisor), 4 of 8 (workgroups over panels); rows peeled
// (37 = 36 + 1 = 32 + 5), K copied row by row (53 is prime).
// CHECK-LABEL: func.func @matmul_narrow
// AVX2-SAME: fuel.workgroups = array<i64: 1, 1, 1>
// AVX512-SAME: fuel.workgroups = array<i64: 1, 1, 1>
// GENERIC-SAME: fuel.workgroups = array<i64: 4, 1, 1>
// CHECK-NOT: linalg.
// AVX2: tensor.empty() : tensor<1x53x16xf32>
// AVX2: -> (vector<6x1x16xf32>)
// AVX2: -> (vector<1x1x16xf32>)
// AVX512: -> (vector<8x32xf32>)
// AVX512: -> (vector<5x32xf32>)
// GENERIC: -> (vector<4x1x8xf32>)
// GENERIC: -> (vector<1x1x8xf32>)
// CHECK-NOT: linalg.
// CHECK: bufferization.materialize_in_destination

// 64x16 . 16x10: N = 10 is no multiple of a panel: unpacked, workgroups of
// 8 rows, the tile 6x10 and 2x10 (8x10 AVX-512; 4x8 and 4x2 generic).
// CHECK-LABEL: func.func @matmul_rem
// CHECK-SAME: fuel.workgroups = array<i64: 8, 1, 1>
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.expand_shape
// CHECK: scf.forall (%{{.*}}) in (8)
// AVX2: -> (vector<6x10xf32>)
// AVX2: -> (vector<2x10xf32>)
// AVX512: -> (vector<8x10xf32>)
// GENERIC: -> (vector<4x8xf32>)
// GENERIC: -> (vector<4x2xf32>)
// CHECK-NOT: linalg.
// CHECK: bufferization.materialize_in_destination

// 4x2048 . 2048x64: a panel of 16 or 8 columns is at most 128 KiB of stack
// scratch (packed); one of 32 would be 256 KiB, too much to pack even a
// constant B on AVX-512.
// CHECK-LABEL: func.func @matmul_deep
// AVX2: tensor.empty() : tensor<1x2048x16xf32>
// AVX2: -> (vector<4x1x16xf32>)
// AVX512: -> (vector<4x32xf32>)
// GENERIC: tensor.empty() : tensor<1x2048x8xf32>
// CHECK: bufferization.materialize_in_destination

// 4 x 12x8 . 8x32: one batch entry per workgroup, B packed per entry.
// CHECK-LABEL: func.func @batch_matmul_0
// CHECK-SAME: fuel.workgroups = array<i64: 4, 1, 1>
// CHECK-NOT: linalg.
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]]
// CHECK: scf.forall (%{{.*}}) in (4)
// AVX2: vector.transpose %{{.*}}, [0, 2, 1, 3] : vector<1x8x1x16xf32> to vector<1x1x8x16xf32>
// AVX2: -> (vector<1x4x1x16xf32>)
// AVX512: vector.transpose %{{.*}}, [0, 2, 1, 3] : vector<1x8x1x32xf32> to vector<1x1x8x32xf32>
// AVX512: -> (vector<1x8x1x32xf32>)
// AVX512: -> (vector<1x4x1x32xf32>)
// GENERIC: -> (vector<1x4x1x8xf32>)
// CHECK-NOT: linalg.
// CHECK: bufferization.materialize_in_destination
