// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy

// Tests that a generic kernel (a broadcast multiply with tanh) and one with
// an outer reduction loop (a column sum) become vector code.

// CHECK-LABEL: func.func @generic_0
// CHECK-SAME: fuel.workgroups = array<i64: 37, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (37)
// AVX2: math.tanh %{{.*}} : vector<8xf32>
// AVX2: math.tanh %{{.*}} : vector<5xf32>
// AVX512: math.tanh %{{.*}} : vector<16xf32>
// AVX512: math.tanh %{{.*}} : vector<13xf32>
// CHECK-LABEL: func.func @generic_1
// CHECK-SAME: fuel.workgroups = array<i64: 1, 1, 1>
// CHECK-NOT: scf.forall
// AVX2: arith.addf %{{.*}} : vector<8xf32>
// AVX512: arith.addf %{{.*}} : vector<16xf32>

// BUF-LABEL: func.func @generic_0
// BUF-NOT: math.tanh
// BUF-LABEL: func.func @generic_1

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @generic_0(%im0: memref<37x61xf32>, %im1: memref<61xf32>, %om0: memref<37x61xf32>)
        attributes {fuel.kernel_id = "cpu.generated.generic_f32", fuel.op_kind = "generic", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/generic.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x61xf32> to tensor<37x61xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<61xf32> to tensor<61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<37x61xf32> to tensor<37x61xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(j)>, affine_map<(i,j)->(i,j)>], iterator_types=["parallel","parallel"]}
            ins(%i0, %i1 : tensor<37x61xf32>, tensor<61xf32>) outs(%o0 : tensor<37x61xf32>) {
          ^bb0(%a: f32, %b: f32, %c: f32):
            %m = arith.mulf %a, %b : f32
            %t = math.tanh %a : f32
            %s = arith.addf %m, %t : f32
            linalg.yield %s : f32 } -> tensor<37x61xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<37x61xf32>, memref<37x61xf32>) -> ()
        return
      }

    func.func @generic_1(%im0: memref<37x61xf32>, %om0: memref<61xf32>)
        attributes {fuel.kernel_id = "cpu.generated.generic_f32", fuel.op_kind = "generic", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/generic.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x61xf32> to tensor<37x61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<61xf32> to tensor<61xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%o0 : tensor<61xf32>) -> tensor<61xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i,j)->(i,j)>, affine_map<(i,j)->(j)>], iterator_types=["reduction","parallel"]}
            ins(%i0 : tensor<37x61xf32>) outs(%f : tensor<61xf32>) {
          ^bb0(%a: f32, %c: f32):
            %s = arith.addf %a, %c : f32
            linalg.yield %s : f32 } -> tensor<61xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<61xf32>, memref<61xf32>) -> ()
        return
      }
  }
}
