// RUN: fuel-opt %S/../Codegen/Inputs/cpu-kernels.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu" --fuel-bufferize-kernels | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-bufferize-kernels | FileCheck %s --check-prefix=MATH

// Tests that the scheduled kernels bufferize in place: the tiles are written
// straight into the output bindings, no tensor and no heap buffer is left.

// CHECK-LABEL: func.func @matmul_0
// CHECK-SAME: (%{{.*}}: memref<37x53xf32>, %{{.*}}: memref<53x29xf32>, %[[C:.+]]: memref<37x29xf32>)
// CHECK-NOT: memref.alloc(
// CHECK-NOT: memref.alloc()
// CHECK-NOT: tensor<
// CHECK: vector.transfer_write %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] {{.*}} : vector<6x16xf32>, memref<37x29xf32>
// CHECK-NOT: bufferization.
// CHECK-LABEL: func.func @elementwise_1
// CHECK-NOT: memref.alloc(
// CHECK-NOT: memref.alloc()
// CHECK-NOT: tensor<
// CHECK: scf.forall (%{{.*}}) in (16) {
// CHECK: arith.maximumf {{.*}} : vector<1x64xf32>
// CHECK: vector.transfer_write {{.*}} memref<1x64xf32, strided<[1024, 1], offset: ?>>
// CHECK-NOT: memref.alloc

// -----

// Tests that vector math becomes a polynomial (no libm call), and that a
// small scratch tensor becomes a stack buffer.

// MATH-LABEL: func.func @exp_scratch
// MATH-NOT: math.exp
// MATH: memref.alloca() {{.*}} : memref<16xf32>
// MATH-NOT: math.exp
// MATH-NOT: memref.alloc(
module {
  fuel.executable @cpu on cpu {
    builtin.module {
      func.func @exp_scratch(%a: memref<16xf32>, %c: memref<16xf32>)
          attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
        %i0 = arith.constant 0 : index
        %p = ub.poison : f32
        %at = bufferization.to_tensor %a restrict : memref<16xf32> to tensor<16xf32>
        %v = vector.transfer_read %at[%i0], %p {in_bounds = [true]} : tensor<16xf32>, vector<16xf32>
        %e = math.exp %v : vector<16xf32>
        %s0 = bufferization.alloc_tensor() : tensor<16xf32>
        %s1 = vector.transfer_write %e, %s0[%i0] {in_bounds = [true]} : vector<16xf32>, tensor<16xf32>
        %s2 = tensor.extract %s1[%i0] : tensor<16xf32>
        %w = vector.broadcast %s2 : f32 to vector<16xf32>
        %r = arith.addf %w, %e : vector<16xf32>
        %ct = bufferization.to_tensor %c restrict writable : memref<16xf32> to tensor<16xf32>
        %o = vector.transfer_write %r, %ct[%i0] {in_bounds = [true]} : vector<16xf32>, tensor<16xf32>
        bufferization.materialize_in_destination %o in restrict writable %c : (tensor<16xf32>, memref<16xf32>) -> ()
        return
      }
    }
  }
}
