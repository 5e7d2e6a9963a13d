// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy

// Tests that transpose kernels become vector transfers along the output's
// innermost dimension, rows split into workgroups, remainders peeled.

// CHECK-LABEL: func.func @transpose_0
// CHECK-SAME: fuel.workgroups = array<i64: 61, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (61)
// AVX2: vector.transfer_read {{.*}}permutation_map{{.*}} : tensor<8x1xf32>, vector<8xf32>
// AVX2: vector.transfer_write {{.*}} : vector<8xf32>, tensor<1x8xf32>
// AVX2: vector.transfer_read {{.*}}permutation_map{{.*}} : tensor<5x1xf32>, vector<5xf32>
// AVX512: vector.transfer_read {{.*}}permutation_map{{.*}} : tensor<16x1xf32>, vector<16xf32>
// AVX512: vector.transfer_read {{.*}}permutation_map{{.*}} : tensor<5x1xf32>, vector<5xf32>
// CHECK-LABEL: func.func @transpose_1
// CHECK-SAME: fuel.workgroups = array<i64: 9, 1, 1>
// CHECK: vector.transfer_read {{.*}}permutation_map{{.*}} : tensor<2x1x1xf32>, vector<2xf32>

// BUF-LABEL: func.func @transpose_0
// BUF: vector.transfer_write {{.*}} : vector<8xf32>, memref<
// BUF-LABEL: func.func @transpose_1

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @transpose_0(%im0: memref<37x61xf32>, %om0: memref<61x37xf32>)
        attributes {fuel.kernel_id = "cpu.generated.transpose_f32", fuel.op_kind = "transpose", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/transpose.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x61xf32> to tensor<37x61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<61x37xf32> to tensor<61x37xf32>
        %r = linalg.transpose ins(%i0 : tensor<37x61xf32>) outs(%o0 : tensor<61x37xf32>) permutation = [1, 0]
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<61x37xf32>, memref<61x37xf32>) -> ()
        return
      }

    func.func @transpose_1(%im0: memref<2x17x9xf32>, %om0: memref<9x17x2xf32>)
        attributes {fuel.kernel_id = "cpu.generated.transpose_f32", fuel.op_kind = "transpose", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/transpose.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<2x17x9xf32> to tensor<2x17x9xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<9x17x2xf32> to tensor<9x17x2xf32>
        %r = linalg.transpose ins(%i0 : tensor<2x17x9xf32>) outs(%o0 : tensor<9x17x2xf32>) permutation = [2, 1, 0]
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<9x17x2xf32>, memref<9x17x2xf32>) -> ()
        return
      }
  }
}
