// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy

// Tests that NCHW max pooling and NHWC sum pooling (stride 2) become
// vectorized 1-D pooling over (n, c) or (n, oh) workgroups.

// CHECK-LABEL: func.func @pool_0
// CHECK-SAME: fuel.workgroups = array<i64: 2, 3, 1>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 3)
// AVX2: vector.transfer_read {{.*}} : tensor<1x1x16xf32>, vector<16xf32>
// AVX2: arith.maximumf
// AVX512: vector.transfer_read {{.*}} : tensor<1x1x32xf32>, vector<32xf32>
// CHECK-LABEL: func.func @pool_1
// CHECK-SAME: fuel.workgroups = array<i64: 3, 4, 1>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (3, 4)
// AVX2: arith.addf %{{.*}} : vector<8xf32>
// AVX2: arith.addf %{{.*}} : vector<5xf32>
// AVX512: arith.addf %{{.*}} : vector<16xf32>
// AVX512: arith.addf %{{.*}} : vector<5xf32>

// BUF-LABEL: func.func @pool_0
// BUF: scf.forall
// BUF-LABEL: func.func @pool_1
// BUF: scf.forall

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @pool_0(%im0: memref<2x3x34x34xf32>, %om0: memref<2x3x17x17xf32>)
        attributes {fuel.kernel_id = "cpu.generated.pool_f32", fuel.op_kind = "pool", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/pool.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<2x3x34x34xf32> to tensor<2x3x34x34xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<2x3x17x17xf32> to tensor<2x3x17x17xf32>
        %z = arith.constant 0xFF800000 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x3x17x17xf32>) -> tensor<2x3x17x17xf32>
        %w = tensor.empty() : tensor<2x2xf32>
        %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
           ins(%i0, %w : tensor<2x3x34x34xf32>, tensor<2x2xf32>) outs(%f : tensor<2x3x17x17xf32>) -> tensor<2x3x17x17xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<2x3x17x17xf32>, memref<2x3x17x17xf32>) -> ()
        return
      }

    func.func @pool_1(%im0: memref<3x8x8x37xf32>, %om0: memref<3x4x4x37xf32>)
        attributes {fuel.kernel_id = "cpu.generated.pool_f32", fuel.op_kind = "pool", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/pool.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<3x8x8x37xf32> to tensor<3x8x8x37xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<3x4x4x37xf32> to tensor<3x4x4x37xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<3x4x4x37xf32>) -> tensor<3x4x4x37xf32>
        %w = tensor.empty() : tensor<2x2xf32>
        %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
           ins(%i0, %w : tensor<3x8x8x37xf32>, tensor<2x2xf32>) outs(%f : tensor<3x4x4x37xf32>) -> tensor<3x4x4x37xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<3x4x4x37xf32>, memref<3x4x4x37xf32>) -> ()
        return
      }
  }
}
