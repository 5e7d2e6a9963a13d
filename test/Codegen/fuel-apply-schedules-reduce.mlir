// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=x86-64 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,GENERIC --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy

// Tests that reduce kernels (a row sum of a prime width, a column max whose
// reduction is the outer loop, a rank-3 reduction over the middle dimension,
// row sums of 1024 and 131 columns) become vector code: rows split into
// workgroups where the outer loop is parallel; a reduction over the innermost
// dimension accumulates column tiles of T (64 on avx2 and avx512, 32
// generic) into a loop-carried vector of T partial sums and reduces its lanes
// once per row, the tile loop peeled; other reductions tile the innermost
// dimension by T.

// CHECK-LABEL: func.func @reduce_0
// CHECK-SAME: fuel.workgroups = array<i64: 5, 1, 1>, fuel.workspace_bytes = 0 : i64
// CHECK: scf.forall (%{{.*}}) in (5)
// AVX2: arith.addf %{{.*}} : vector<37xf32>
// AVX512: arith.addf %{{.*}} : vector<37xf32>
// GENERIC: arith.addf %{{.*}} : vector<32xf32>
// GENERIC: arith.addf %{{.*}} : vector<5xf32>
// AVX2: vector.reduction <add>, %{{.*}} : vector<64xf32> into f32
// AVX512: vector.reduction <add>, %{{.*}} : vector<64xf32> into f32
// GENERIC: vector.reduction <add>, %{{.*}} : vector<32xf32> into f32
// CHECK: scf.forall.in_parallel
// CHECK-LABEL: func.func @reduce_1
// CHECK-SAME: fuel.workgroups = array<i64: 1, 1, 1>
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK: arith.maximumf %{{.*}} : vector<17xf32>
// CHECK: return
// CHECK-LABEL: func.func @reduce_2
// CHECK-SAME: fuel.workgroups = array<i64: 7, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (7)
// CHECK: arith.addf %{{.*}} : vector<17xf32>
// CHECK-LABEL: func.func @reduce_3
// CHECK-SAME: fuel.workgroups = array<i64: 8, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (8)
// AVX2: scf.for %{{.*}} step %c64 iter_args(%[[ACC:.+]] = %{{.*}}) -> (vector<1x64xf32>)
// AVX2: arith.addf %{{.*}} : vector<64xf32>
// AVX2: vector.reduction <add>, %{{.*}} : vector<64xf32> into f32
// AVX512: scf.for %{{.*}} step %c64 iter_args(%[[ACC:.+]] = %{{.*}}) -> (vector<1x64xf32>)
// AVX512: vector.reduction <add>, %{{.*}} : vector<64xf32> into f32
// GENERIC: scf.for %{{.*}} step %c32 iter_args(%[[ACC:.+]] = %{{.*}}) -> (vector<1x32xf32>)
// GENERIC: arith.addf %{{.*}} : vector<32xf32>
// GENERIC: vector.reduction <add>, %{{.*}} : vector<32xf32> into f32
// CHECK-NOT: vector.reduction
// CHECK: scf.forall.in_parallel
// CHECK-LABEL: func.func @reduce_4
// AVX2: scf.for %{{.*}} to %c128 step %c64 iter_args(%{{.*}}) -> (vector<1x64xf32>)
// AVX2: arith.addf %{{.*}} : vector<3xf32>
// AVX2: vector.reduction <add>, %{{.*}} : vector<64xf32> into f32

// BUF-LABEL: func.func @reduce_0
// BUF: scf.forall
// BUF: vector.transfer_read {{.*}} : memref<{{.*}}>, vector<37xf32>
// BUF-LABEL: func.func @reduce_1
// BUF-LABEL: func.func @reduce_2
// BUF-LABEL: func.func @reduce_3
// BUF: scf.for {{.*}} -> (vector<1x64xf32>)
// BUF-LABEL: func.func @reduce_4

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @reduce_0(%im0: memref<5x37xf32>, %om0: memref<5xf32>)
        attributes {fuel.kernel_id = "cpu.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/reduce.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<5x37xf32> to tensor<5x37xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<5xf32> to tensor<5xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<5xf32>) -> tensor<5xf32>
        %r = linalg.reduce ins(%i0 : tensor<5x37xf32>) outs(%f : tensor<5xf32>) dimensions = [1]
          (%x: f32, %y: f32) { %s = arith.addf %x, %y : f32
            linalg.yield %s : f32 }
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<5xf32>, memref<5xf32>) -> ()
        return
      }

    func.func @reduce_1(%im0: memref<37x17xf32>, %om0: memref<17xf32>)
        attributes {fuel.kernel_id = "cpu.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/reduce.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x17xf32> to tensor<37x17xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<17xf32> to tensor<17xf32>
        %z = arith.constant 0xFF800000 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<17xf32>) -> tensor<17xf32>
        %r = linalg.reduce ins(%i0 : tensor<37x17xf32>) outs(%f : tensor<17xf32>) dimensions = [0]
          (%x: f32, %y: f32) { %s = arith.maximumf %x, %y : f32
            linalg.yield %s : f32 }
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<17xf32>, memref<17xf32>) -> ()
        return
      }

    func.func @reduce_2(%im0: memref<7x3x17xf32>, %om0: memref<7x17xf32>)
        attributes {fuel.kernel_id = "cpu.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/reduce.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<7x3x17xf32> to tensor<7x3x17xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<7x17xf32> to tensor<7x17xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<7x17xf32>) -> tensor<7x17xf32>
        %r = linalg.reduce ins(%i0 : tensor<7x3x17xf32>) outs(%f : tensor<7x17xf32>) dimensions = [1]
          (%x: f32, %y: f32) { %s = arith.addf %x, %y : f32
            linalg.yield %s : f32 }
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<7x17xf32>, memref<7x17xf32>) -> ()
        return
      }

    func.func @reduce_3(%im0: memref<8x1024xf32>, %om0: memref<8xf32>)
        attributes {fuel.kernel_id = "cpu.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/reduce.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<8x1024xf32> to tensor<8x1024xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<8xf32> to tensor<8xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<8xf32>) -> tensor<8xf32>
        %r = linalg.reduce ins(%i0 : tensor<8x1024xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
          (%x: f32, %y: f32) { %s = arith.addf %x, %y : f32
            linalg.yield %s : f32 }
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<8xf32>, memref<8xf32>) -> ()
        return
      }

    func.func @reduce_4(%im0: memref<3x131xf32>, %om0: memref<3xf32>)
        attributes {fuel.kernel_id = "cpu.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/reduce.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<3x131xf32> to tensor<3x131xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<3xf32> to tensor<3xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<3xf32>) -> tensor<3xf32>
        %r = linalg.reduce ins(%i0 : tensor<3x131xf32>) outs(%f : tensor<3xf32>) dimensions = [1]
          (%x: f32, %y: f32) { %s = arith.addf %x, %y : f32
            linalg.yield %s : f32 }
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<3xf32>, memref<3xf32>) -> ()
        return
      }
  }
}
