// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=x86-64 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,GENERIC --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy

// Tests that softmax kernels are decomposed and vectorized per row: the
// max, exp, sum and divide fused into one workgroup per row, in column
// tiles of T (64 on avx2 and avx512, 32 generic), the two row reductions
// accumulating T partial results in a loop-carried vector and reducing its
// lanes once per row, exp still a math op (polynomial at the bufferize
// stage), the exp row on the stack.

// CHECK-LABEL: func.func @softmax_0
// CHECK-SAME: fuel.workgroups = array<i64: 17, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (17)
// AVX2: scf.for %{{.*}} to %c128 step %c64 iter_args(%{{.*}}) -> (vector<1x64xf32>)
// AVX2: vector.reduction <maxnumf>, %{{.*}} : vector<64xf32> into f32
// AVX2: math.exp %{{.*}} : vector<64xf32>
// AVX2: math.exp %{{.*}} : vector<1xf32>
// AVX2: scf.for %{{.*}} to %c128 step %c64 iter_args(%{{.*}}) -> (vector<1x64xf32>)
// AVX2: vector.reduction <add>, %{{.*}} : vector<64xf32> into f32
// AVX512: vector.reduction <maxnumf>, %{{.*}} : vector<64xf32> into f32
// AVX512: math.exp %{{.*}} : vector<64xf32>
// GENERIC: scf.for %{{.*}} to %c128 step %c32 iter_args(%{{.*}}) -> (vector<1x32xf32>)
// GENERIC: vector.reduction <maxnumf>, %{{.*}} : vector<32xf32> into f32
// GENERIC: math.exp %{{.*}} : vector<32xf32>
// GENERIC: vector.reduction <add>, %{{.*}} : vector<32xf32> into f32
// CHECK: scf.forall.in_parallel
// CHECK-LABEL: func.func @softmax_1
// CHECK-SAME: fuel.workgroups = array<i64: 2, 1, 1>
// CHECK: scf.forall (%{{.*}}) in (2)

// The exp row is one stack buffer per workgroup; exp is a polynomial.
// BUF-LABEL: func.func @softmax_0
// BUF: scf.forall
// BUF: memref.alloca() {{.*}} : memref<1x129xf32>
// BUF-NOT: math.exp
// BUF-LABEL: func.func @softmax_1

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @softmax_0(%im0: memref<17x129xf32>, %om0: memref<17x129xf32>)
        attributes {fuel.kernel_id = "cpu.generated.softmax_f32", fuel.op_kind = "softmax", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/softmax.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<17x129xf32> to tensor<17x129xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<17x129xf32> to tensor<17x129xf32>
        %e = tensor.empty() : tensor<17x129xf32>
        %r = linalg.softmax dimension(1) ins(%i0 : tensor<17x129xf32>) outs(%e : tensor<17x129xf32>) -> tensor<17x129xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<17x129xf32>, memref<17x129xf32>) -> ()
        return
      }

    func.func @softmax_1(%im0: memref<2x3x61xf32>, %om0: memref<2x3x61xf32>)
        attributes {fuel.kernel_id = "cpu.generated.softmax_f32", fuel.op_kind = "softmax", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/softmax.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<2x3x61xf32> to tensor<2x3x61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<2x3x61xf32> to tensor<2x3x61xf32>
        %e = tensor.empty() : tensor<2x3x61xf32>
        %r = linalg.softmax dimension(2) ins(%i0 : tensor<2x3x61xf32>) outs(%e : tensor<2x3x61xf32>) -> tensor<2x3x61xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<2x3x61xf32>, memref<2x3x61xf32>) -> ()
        return
      }
  }
}
