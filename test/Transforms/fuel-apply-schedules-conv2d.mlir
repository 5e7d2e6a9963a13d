// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy

// Tests that NCHW and NHWC convolutions of prime sizes become vectorized
// 1-D convolutions over (n, f) or (n, oh) workgroups.

// CHECK-LABEL: func.func @conv2d_0
// CHECK-SAME: fuel.workgroups = array<i64: 2, 17, 1>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 17)
// CHECK: vector.fma
// CHECK-LABEL: func.func @conv2d_1
// CHECK-SAME: fuel.workgroups = array<i64: 7, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (7)
// AVX2: vector.transfer_read {{.*}} : tensor<3x8x7xf32>, vector<3x8x7xf32>
// AVX512: vector.transfer_read {{.*}} : tensor<3x16x7xf32>, vector<3x16x7xf32>
// CHECK: vector.fma

// BUF-LABEL: func.func @conv2d_0
// BUF: scf.forall
// BUF-LABEL: func.func @conv2d_1
// BUF: scf.forall

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
  }
}
