// RUN: fuel-opt %S/../../Codegen/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" --fuel-bufferize-kernels --convert-fuel-to-llvm --test-fuel-emit-cpu-asm | FileCheck %s --check-prefix=AVX512
// RUN: fuel-opt %S/../../Codegen/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu" --fuel-bufferize-kernels --convert-fuel-to-llvm --test-fuel-emit-cpu-asm | FileCheck %s --check-prefix=AVX2
// RUN: fuel-opt %S/../../Codegen/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=x86-64 target-triple=x86_64-unknown-linux-gnu" --fuel-bufferize-kernels --convert-fuel-to-llvm --test-fuel-emit-cpu-asm | FileCheck %s --check-prefix=GENERIC

// Tests that the kernels compile for the stamped target, whatever machine
// runs the test: FMAs on zmm registers for AVX-512 (the 8x32 tile), on ymm
// for AVX2 and none (SSE mulps/addps on xmm) for baseline x86-64; the ABI
// entries are global symbols.

// AVX512: .globl matmul_0
// AVX512: vfmadd{{[0-9]+}}ps {{.*}}%zmm
// AVX512: .globl elementwise_1

// AVX2: .globl matmul_0
// AVX2-NOT: zmm
// AVX2: vfmadd{{[0-9]+}}ps {{.*}}%ymm
// AVX2-NOT: zmm
// AVX2: .globl elementwise_1

// GENERIC: .globl matmul_0
// GENERIC-NOT: vfmadd
// GENERIC: mulps {{.*}}%xmm
// GENERIC-NOT: vfmadd
