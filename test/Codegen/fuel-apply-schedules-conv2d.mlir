// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels --convert-fuel-to-llvm --test-fuel-emit-cpu-asm | FileCheck %s --check-prefix=ASM512
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels --convert-fuel-to-llvm --test-fuel-emit-cpu-asm | FileCheck %s --check-prefix=ASM2

// Tests that a strided NCHW convolution becomes vectorized 1-D convolutions
// over (n, f) workgroups, and that unit-stride NHWC and NCHW convolutions of
// prime sizes become register tiles over (n, oh) workgroups: outer products
// with the accumulator hoisted out of the reduction loops (loop-carried
// vectors), multiply-adds that may contract into FMAs, and lane tiles split
// into multiples of the vector width and one shorter remainder.

// CHECK-LABEL: func.func @conv2d_0
// CHECK-SAME: fuel.workgroups = array<i64: 2, 17, 1>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 17)
// CHECK: vector.fma

// NHWC: 4 (AVX2) or 8 (AVX-512) output columns x 7 filters; the remainder
// of the 17 columns is one column.
// CHECK-LABEL: func.func @conv2d_1
// CHECK-SAME: fuel.workgroups = array<i64: 7, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (7)
// AVX2: scf.for {{.*}} -> (vector<4x7xf32>)
// AVX2: arith.addf {{.*}} fastmath<contract> : vector<4x7xf32>
// AVX512: scf.for {{.*}} -> (vector<8x7xf32>)
// AVX512: arith.addf {{.*}} fastmath<contract> : vector<8x7xf32>
// CHECK: scf.for {{.*}} -> (vector<7xf32>)
// CHECK: arith.addf {{.*}} fastmath<contract> : vector<7xf32>

// NCHW: 8 filters x 27 output columns: 8 + 8 + 8 + 3 lanes on AVX2, 16 + 11
// on AVX-512; the remainder of the 9 filters is one.
// CHECK-LABEL: func.func @conv2d_2
// CHECK-SAME: fuel.workgroups = array<i64: 5, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (5)
// AVX2: scf.for {{.*}} -> (vector<8x8xf32>)
// AVX2: arith.mulf {{.*}} fastmath<contract> : vector<8x8xf32>
// AVX2: arith.addf {{.*}} fastmath<contract> : vector<8x8xf32>
// AVX2: scf.for {{.*}} -> (vector<8x3xf32>)
// AVX2: scf.for {{.*}} -> (vector<8xf32>)
// AVX2: scf.for {{.*}} -> (vector<3xf32>)
// AVX512: scf.for {{.*}} -> (vector<8x16xf32>)
// AVX512: arith.addf {{.*}} fastmath<contract> : vector<8x16xf32>
// AVX512: scf.for {{.*}} -> (vector<8x11xf32>)
// AVX512: scf.for {{.*}} -> (vector<16xf32>)
// AVX512: scf.for {{.*}} -> (vector<11xf32>)
// CHECK: scf.forall.in_parallel

// BUF-LABEL: func.func @conv2d_0
// BUF: scf.forall
// BUF-LABEL: func.func @conv2d_1
// BUF: scf.forall
// BUF-LABEL: func.func @conv2d_2
// BUF: scf.forall

// The register tiles' multiply-adds are FMAs: zmm on AVX-512, ymm on AVX2.
// ASM512-LABEL: conv2d_2:
// ASM512: vfmadd{{[0-9]+}}ps {{.*}}%zmm
// ASM2-LABEL: conv2d_2:
// ASM2: vbroadcastss
// ASM2: vfmadd{{[0-9]+}}ps {{.*}}%ymm

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @conv2d_0(%im0: memref<2x3x11x13xf32>, %im1: memref<17x3x3x3xf32>, %om0: memref<2x17x5x6xf32>)
        attributes {fuel.kernel_id = "cpu.generated.conv2d_f32", fuel.op_kind = "conv2d", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/conv2d.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<2x3x11x13xf32> to tensor<2x3x11x13xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<17x3x3x3xf32> to tensor<17x3x3x3xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<2x17x5x6xf32> to tensor<2x17x5x6xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x17x5x6xf32>) -> tensor<2x17x5x6xf32>
        %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
           ins(%i0, %i1 : tensor<2x3x11x13xf32>, tensor<17x3x3x3xf32>) outs(%f : tensor<2x17x5x6xf32>) -> tensor<2x17x5x6xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<2x17x5x6xf32>, memref<2x17x5x6xf32>) -> ()
        return
      }

    func.func @conv2d_1(%im0: memref<1x9x19x17xf32>, %im1: memref<3x3x17x7xf32>, %om0: memref<1x7x17x7xf32>)
        attributes {fuel.kernel_id = "cpu.generated.conv2d_f32", fuel.op_kind = "conv2d", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/conv2d.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<1x9x19x17xf32> to tensor<1x9x19x17xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<3x3x17x7xf32> to tensor<3x3x17x7xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<1x7x17x7xf32> to tensor<1x7x17x7xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x7x17x7xf32>) -> tensor<1x7x17x7xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
           ins(%i0, %i1 : tensor<1x9x19x17xf32>, tensor<3x3x17x7xf32>) outs(%f : tensor<1x7x17x7xf32>) -> tensor<1x7x17x7xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<1x7x17x7xf32>, memref<1x7x17x7xf32>) -> ()
        return
      }

    func.func @conv2d_2(%im0: memref<1x5x9x31xf32>, %im1: memref<9x5x5x5xf32>, %om0: memref<1x9x5x27xf32>)
        attributes {fuel.kernel_id = "cpu.generated.conv2d_f32", fuel.op_kind = "conv2d", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/conv2d.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<1x5x9x31xf32> to tensor<1x5x9x31xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<9x5x5x5xf32> to tensor<9x5x5x5xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<1x9x5x27xf32> to tensor<1x9x5x27xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x9x5x27xf32>) -> tensor<1x9x5x27xf32>
        %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
           ins(%i0, %i1 : tensor<1x5x9x31xf32>, tensor<9x5x5x5xf32>) outs(%f : tensor<1x9x5x27xf32>) -> tensor<1x9x5x27xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<1x9x5x27xf32>, memref<1x9x5x27xf32>) -> ()
        return
      }
  }
}
