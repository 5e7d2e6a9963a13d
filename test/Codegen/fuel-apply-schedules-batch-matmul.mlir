// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy

// Tests that a batch_matmul of prime sizes becomes one workgroup per batch
// entry with peeled 4 x W register tiles of outer products.

// 37 rows = 9 tiles of 4 + 1; 61 columns = 3 x 16 + 13 (AVX2), 32 + 29 (AVX-512).
// CHECK-LABEL: func.func @batch_matmul_0
// CHECK-SAME: fuel.workgroups = array<i64: 4, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (4)
// AVX2: scf.for {{.*}} -> (tensor<4x16xf32>)
// AVX2: vector.broadcast %{{.*}} : vector<16xf32> to vector<4x16xf32>
// AVX2: arith.mulf %{{.*}} : vector<4x16xf32>
// AVX2: arith.addf %{{.*}} : vector<4x16xf32>
// AVX2: vector<4x13xf32>
// AVX2: arith.mulf %{{.*}} : vector<16xf32>
// AVX512: scf.for {{.*}} -> (tensor<4x32xf32>)
// AVX512: arith.mulf %{{.*}} : vector<4x32xf32>
// AVX512: vector<4x29xf32>
// CHECK: scf.forall.in_parallel

// BUF-LABEL: func.func @batch_matmul_0
// BUF: scf.forall
// BUF: vector.transfer_read {{.*}} : memref<{{.*}}>, vector<4x16xf32>

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @batch_matmul_0(%im0: memref<4x37x17xf32>, %im1: memref<4x17x61xf32>, %om0: memref<4x37x61xf32>)
        attributes {fuel.kernel_id = "cpu.generated.batch_matmul_f32", fuel.op_kind = "batch_matmul", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/batch_matmul.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<4x37x17xf32> to tensor<4x37x17xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<4x17x61xf32> to tensor<4x17x61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<4x37x61xf32> to tensor<4x37x61xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<4x37x61xf32>) -> tensor<4x37x61xf32>
        %r = linalg.batch_matmul ins(%i0, %i1 : tensor<4x37x17xf32>, tensor<4x17x61xf32>) outs(%f : tensor<4x37x61xf32>) -> tensor<4x37x61xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<4x37x61xf32>, memref<4x37x61xf32>) -> ()
        return
      }
  }
}
