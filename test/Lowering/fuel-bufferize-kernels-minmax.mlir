// RUN: fuel-opt %s --fuel-bufferize-kernels | FileCheck %s

// Tests that one-element arith.maximumf and arith.minimumf (f32 and
// vector<1xf32>, what element-by-element code is made of) become compares
// and selects (greater or less, equal zeros by their bits, NaN by an add),
// while wider vectors keep the op for LLVM's branch-free expansion.

// CHECK-LABEL: func.func @minmax
// CHECK-NOT: arith.maximumf %{{.*}} : vector<1xf32>
// CHECK: %[[GT:.+]] = arith.cmpf ogt, %[[A:.+]], %[[B:.+]] : vector<1xf32>
// CHECK: %[[R:.+]] = arith.select %[[GT]], %[[A]], %[[B]] : vector<1xi1>, vector<1xf32>
// CHECK: arith.andi %{{.*}} : vector<1xi32>
// CHECK: arith.cmpf oeq, %[[A]], %[[B]] : vector<1xf32>
// CHECK: arith.cmpf uno, %[[A]], %[[B]] : vector<1xf32>
// CHECK: arith.cmpf olt, %{{.*}} : f32
// CHECK: arith.ori %{{.*}} : i32
// CHECK: arith.maximumf %{{.*}} : vector<8xf32>
// CHECK-NOT: arith.minimumf

fuel.executable @cpu on cpu {
  builtin.module attributes {fuel.cpu_target = {cpu = "haswell", features = "", triple = "x86_64-unknown-linux-gnu"}} {
    func.func @minmax(%a: memref<1xf32>, %b: memref<1xf32>, %v: memref<8xf32>, %o: memref<1xf32>, %s: memref<f32>, %ov: memref<8xf32>)
        attributes {fuel.kernel_id = "cpu.generated.pool_f32", fuel.op_kind = "pool"} {
      %c0 = arith.constant 0 : index
      %p = arith.constant 0.0 : f32
      %x = vector.transfer_read %a[%c0], %p {in_bounds = [true]} : memref<1xf32>, vector<1xf32>
      %y = vector.transfer_read %b[%c0], %p {in_bounds = [true]} : memref<1xf32>, vector<1xf32>
      %m = arith.maximumf %x, %y : vector<1xf32>
      vector.transfer_write %m, %o[%c0] {in_bounds = [true]} : vector<1xf32>, memref<1xf32>
      %xs = memref.load %a[%c0] : memref<1xf32>
      %ys = memref.load %b[%c0] : memref<1xf32>
      %n = arith.minimumf %xs, %ys : f32
      memref.store %n, %s[] : memref<f32>
      %w = vector.transfer_read %v[%c0], %p {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
      %w2 = vector.transfer_read %ov[%c0], %p {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
      %wm = arith.maximumf %w, %w2 : vector<8xf32>
      vector.transfer_write %wm, %ov[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
      return
    }
  }
}
