// RUN: fuel-compile %S/Inputs/matmul-panels.mlir --topology=%topologies/cpu-avx512.json \
// RUN:   --plan="kernel-sources=generated" --emit=asm -o - | FileCheck %s --check-prefix=AVX512
// RUN: fuel-compile %S/Inputs/matmul-panels.mlir --topology=%topologies/cpu-target.json \
// RUN:   --plan="kernel-sources=generated" --emit=asm -o - | FileCheck %s --check-prefix=AVX2
// RUN: fuel-compile %S/Inputs/matmul-panels.mlir --topology=%topologies/cpu-generic.json \
// RUN:   --plan="kernel-sources=generated" --emit=asm -o - | FileCheck %s --check-prefix=GENERIC
// RUN: fuel-compile %S/Inputs/matmul-panels.mlir --topology=%topologies/cpu-avx512.json \
// RUN:   --plan="kernel-sources=generated" --emit=asm -o %t.s
// RUN: FileCheck %s --check-prefix=AVX512 < %t.s

// Tests that --emit=asm prints the assembly of the generated kernels for the
// topology's cpu target on any machine (none of it runs): the matmul is the
// AVX-512 sequence on skylake-avx512 (FMAs with a broadcast of A on zmm
// registers: the 8 x 32 tile), ymm FMAs and no zmm on x86-64-v3 (AVX2, the
// packed 6 x 16 tile) and SSE multiplies and adds on baseline x86-64.

// AVX512: .globl matmul_0
// AVX512: vfmadd231ps {{.*}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// AVX512: vfmadd231ps {{.*}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}

// AVX2: .globl matmul_0
// AVX2-NOT: zmm
// AVX2: vfmadd231ps {{.*}}%ymm{{[0-9]+}}, %ymm{{[0-9]+}}
// AVX2-NOT: zmm

// GENERIC: .globl matmul_0
// GENERIC-NOT: vfmadd
// GENERIC-NOT: ymm
// GENERIC: mulps {{.*}}%xmm
// GENERIC-NOT: vfmadd
// GENERIC-NOT: ymm
