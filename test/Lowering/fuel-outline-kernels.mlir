// RUN: fuel-opt %s --split-input-file --fuel-outline-kernels | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-outline-kernels | fuel-opt --split-input-file | FileCheck %s

// Tests that a generated matmul becomes a kernel function in the CPU kernel form
// (memref signature, tensor body, the fill on the output) and its node a
// dispatch carrying the node id and predicted time.

#gm = #fuel.candidate<"cpu.generated.matmul_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x1234, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>
#am = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#gm]>

// CHECK-LABEL: fuel.executable @cpu on cpu {
// CHECK:       builtin.module {
// CHECK:       func.func @matmul_0(%[[A:.+]]: memref<8x16xf32>, %[[B:.+]]: memref<16x32xf32>, %[[C:.+]]: memref<8x32xf32>)
// CHECK-SAME:    fuel.kernel_id = "cpu.generated.matmul_f32"
// CHECK-SAME:    fuel.op_kind = "matmul"
// CHECK-SAME:    fuel.revision = 4660 : i64
// CHECK-SAME:    fuel.schedule = "kernels/schedules/cpu/matmul.mlir"
// CHECK:         %[[AT:.+]] = bufferization.to_tensor %[[A]] restrict : memref<8x16xf32>
// CHECK:         %[[BT:.+]] = bufferization.to_tensor %[[B]] restrict : memref<16x32xf32>
// CHECK:         %[[CT:.+]] = bufferization.to_tensor %[[C]] restrict writable : memref<8x32xf32>
// CHECK-NOT:     tensor.empty
// CHECK:         %[[ZERO:.+]] = arith.constant 0.0
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[CT]] : tensor<8x32xf32>)
// CHECK:         %[[R:.+]] = linalg.matmul ins(%[[AT]], %[[BT]] : {{.*}}) outs(%[[FILL]] : tensor<8x32xf32>)
// CHECK:         bufferization.materialize_in_destination %[[R]] in restrict writable %[[C]]
// CHECK:         return
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[X:.+]]: tensor<8x16xf32>, %[[W:.+]]: tensor<16x32xf32>
// CHECK:         %[[Y:.+]] = fuel.dispatch @cpu::@matmul_0 (%[[X]], %[[W]]) {node = 0 : i64, predicted_ns = 1000 : i64}
// CHECK-SAME:      : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// CHECK-NOT:     fuel.node
// CHECK:         return %[[Y]]
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %y = fuel.node 0 matmul (%x, %w) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> on cpu alternatives #am {
  ^bb0(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x32xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
    fuel.yield %m : tensor<8x32xf32>
  }
  return %y : tensor<8x32xf32>
}

// -----

// Tests that nodes with the same payload, types and winner share one kernel
// (node ids and locations do not take part), that other shapes get their
// own, numbered in first-use order, and that views between kernels stay.

#gm = #fuel.candidate<"cpu.generated.matmul_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x1234, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>
#am = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#gm]>

// CHECK-LABEL: fuel.executable @cpu on cpu {
// CHECK-COUNT-2: func.func @matmul_
// CHECK-NOT:     func.func @matmul_
// CHECK-LABEL: func.func @shared(
// CHECK:         %[[A:.+]] = fuel.dispatch @cpu::@matmul_0 (%arg0, %arg1) {node = 0 : i64
// CHECK:         %[[B:.+]] = fuel.dispatch @cpu::@matmul_0 (%[[A]], %arg1) {node = 1 : i64
// CHECK:         %[[V:.+]] = tensor.collapse_shape %[[B]]
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[V]]
// CHECK:         fuel.dispatch @cpu::@matmul_1 (%[[E]], %arg2) {node = 2 : i64
func.func @shared(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %v: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %a = fuel.node 0 matmul (%x, %w) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> on cpu alternatives #am {
  ^bb0(%p: tensor<4x4xf32>, %q: tensor<4x4xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%p, %q : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %m : tensor<4x4xf32>
  } loc("first")
  %b = fuel.node 1 matmul (%a, %w) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> on cpu alternatives #am {
  ^bb0(%p: tensor<4x4xf32>, %q: tensor<4x4xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%p, %q : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %m : tensor<4x4xf32>
  } loc("second")
  %flat = tensor.collapse_shape %b [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  %tall = tensor.expand_shape %flat [[0, 1]] output_shape [8, 2] : tensor<16xf32> into tensor<8x2xf32>
  %c = fuel.node 2 matmul (%tall, %v) : (tensor<8x2xf32>, tensor<2x4xf32>) -> tensor<8x4xf32> on cpu alternatives #am {
  ^bb0(%p: tensor<8x2xf32>, %q: tensor<2x4xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    %m = linalg.matmul ins(%p, %q : tensor<8x2xf32>, tensor<2x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
    fuel.yield %m : tensor<8x4xf32>
  }
  return %c : tensor<8x4xf32>
}

// -----

// Tests that an elementwise generic writes its tensor.empty destination in
// place (the output), that a destination read from an operand is copied
// into the output first, and that tensor constants stay in the function.

#ge = #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x1, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 10 static, host_bytes = 0, device_bytes = 0>
#ae = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [#ge]>
#gm = #fuel.candidate<"cpu.generated.matmul_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x2, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 10 static, host_bytes = 0, device_bytes = 0>
#am = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#gm]>
#id = affine_map<(i, j) -> (i, j)>

// CHECK-LABEL: func.func @elementwise_0(
// CHECK-SAME:    %[[I:.+]]: memref<4x8xf32>, %[[K:.+]]: memref<4x8xf32>, %[[O:.+]]: memref<4x8xf32>
// CHECK:         %[[IT:.+]] = bufferization.to_tensor %[[I]] restrict
// CHECK:         %[[KT:.+]] = bufferization.to_tensor %[[K]] restrict
// CHECK:         %[[OT:.+]] = bufferization.to_tensor %[[O]] restrict writable
// CHECK:         linalg.generic {{.*}} ins(%[[IT]], %[[KT]] : {{.*}}) outs(%[[OT]] : tensor<4x8xf32>)
// CHECK-LABEL: func.func @matmul_1(
// CHECK-SAME:    %[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<8x8xf32>, %[[ACC:.+]]: memref<4x8xf32>, %[[OUT:.+]]: memref<4x8xf32>
// CHECK:         %[[ACCT:.+]] = bufferization.to_tensor %[[ACC]] restrict :
// CHECK:         %[[OUTT:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK:         %[[INIT:.+]] = linalg.copy ins(%[[ACCT]] : tensor<4x8xf32>) outs(%[[OUTT]] : tensor<4x8xf32>)
// CHECK:         linalg.matmul {{.*}} outs(%[[INIT]] : tensor<4x8xf32>)
// CHECK-LABEL: func.func @consts(
// CHECK:         %[[K:.+]] = arith.constant dense<{{.*}}> : tensor<4x8xf32>
// CHECK:         %[[S:.+]] = fuel.dispatch @cpu::@elementwise_0 (%arg0, %[[K]])
// CHECK:         fuel.dispatch @cpu::@matmul_1 (%[[S]], %arg1, %[[S]])
func.func @consts(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %k = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<4x8xf32>
  %s = fuel.node 0 elementwise (%x, %k) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> on cpu alternatives #ae {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    %e = tensor.empty() : tensor<4x8xf32>
    %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %r = arith.addf %u, %v : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    fuel.yield %g : tensor<4x8xf32>
  }
  %m = fuel.node 1 matmul (%s, %w, %s) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> on cpu alternatives #am {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>, %c: tensor<4x8xf32>):
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
    fuel.yield %r : tensor<4x8xf32>
  }
  return %m : tensor<4x8xf32>
}

// -----

// Tests the library params of a row-blocked sgemm: leading dimensions,
// row blocks of max(16, ceil(M/8) rounded up to 8) rows (16 for M = 64,
// 128 for M = 1000, M itself below 16), a transposed B, the record's
// workspace, and that equal library kernels are one op.

#ob = #fuel.candidate<"cpu.openblas.matmul_f32", source = "openblas", backend = cpu, device = cpu, revision = 0x99, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 500 static, host_bytes = 0, device_bytes = 0>
#bl = #fuel.candidate<"cpu.blis.matmul_f32", source = "blis", backend = cpu, device = cpu, revision = 0x98, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 500 static, host_bytes = 0, device_bytes = 0>
#ao = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#ob]>
#ab = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#bl]>
#ma = affine_map<(m, n, k) -> (m, k)>
#mbt = affine_map<(m, n, k) -> (n, k)>
#mc = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: fuel.executable @cpu on cpu {
// CHECK:       fuel.library_kernel @openblas_matmul_0 "cpu.openblas.matmul_f32" shim "openblas" entry "fuel_shim_openblas_sgemm" grid [4, 1, 1] params [64, 1024, 784, 784, 1024, 1024, 0, 0, 16] workspace 0 revision 153
// CHECK:       fuel.library_kernel @openblas_matmul_1 "cpu.openblas.matmul_f32" shim "openblas" entry "fuel_shim_openblas_sgemm" grid [8, 1, 1] params [1000, 8, 16, 16, 16, 8, 0, 1, 128] workspace 0 revision 153
// CHECK:       fuel.library_kernel @blis_matmul_2 "cpu.blis.matmul_f32" shim "blis" entry "fuel_shim_blis_sgemm" grid [1, 1, 1] params [5, 3, 7, 7, 3, 3, 0, 0, 5] workspace 4194304 revision 152
// CHECK-NOT:   fuel.library_kernel
// CHECK-LABEL: func.func @gemm(
// CHECK:         %[[Y:.+]] = fuel.dispatch @cpu::@openblas_matmul_0 (%arg0, %arg1) {node = 0 : i64, predicted_ns = 500 : i64}
// CHECK:         fuel.dispatch @cpu::@openblas_matmul_0 (%arg0, %arg1) {node = 1 : i64
// CHECK:         fuel.dispatch @cpu::@openblas_matmul_1 (%arg2, %arg3) {node = 2 : i64
// CHECK:         fuel.dispatch @cpu::@blis_matmul_2 (%arg4, %arg5) {node = 3 : i64
func.func @gemm(%x: tensor<64x784xf32>, %w: tensor<784x1024xf32>, %p: tensor<1000x16xf32>, %q: tensor<8x16xf32>, %s: tensor<5x7xf32>, %t: tensor<7x3xf32>) -> (tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<1000x8xf32>, tensor<5x3xf32>) {
  %y0 = fuel.node 0 matmul (%x, %w) : (tensor<64x784xf32>, tensor<784x1024xf32>) -> tensor<64x1024xf32> on cpu alternatives #ao {
  ^bb0(%a: tensor<64x784xf32>, %b: tensor<784x1024xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x1024xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %m = linalg.matmul ins(%a, %b : tensor<64x784xf32>, tensor<784x1024xf32>) outs(%f : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    fuel.yield %m : tensor<64x1024xf32>
  }
  %y1 = fuel.node 1 matmul (%x, %w) : (tensor<64x784xf32>, tensor<784x1024xf32>) -> tensor<64x1024xf32> on cpu alternatives #ao {
  ^bb0(%a: tensor<64x784xf32>, %b: tensor<784x1024xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x1024xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %m = linalg.matmul ins(%a, %b : tensor<64x784xf32>, tensor<784x1024xf32>) outs(%f : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    fuel.yield %m : tensor<64x1024xf32>
  }
  %y2 = fuel.node 2 matmul (%p, %q) : (tensor<1000x16xf32>, tensor<8x16xf32>) -> tensor<1000x8xf32> on cpu alternatives #ao {
  ^bb0(%a: tensor<1000x16xf32>, %b: tensor<8x16xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1000x8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1000x8xf32>) -> tensor<1000x8xf32>
    %m = linalg.matmul indexing_maps = [#ma, #mbt, #mc] ins(%a, %b : tensor<1000x16xf32>, tensor<8x16xf32>) outs(%f : tensor<1000x8xf32>) -> tensor<1000x8xf32>
    fuel.yield %m : tensor<1000x8xf32>
  }
  %y3 = fuel.node 3 matmul (%s, %t) : (tensor<5x7xf32>, tensor<7x3xf32>) -> tensor<5x3xf32> on cpu alternatives #ab {
  ^bb0(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<5x3xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
    %m = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%f : tensor<5x3xf32>) -> tensor<5x3xf32>
    fuel.yield %m : tensor<5x3xf32>
  }
  return %y0, %y1, %y2, %y3 : tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<1000x8xf32>, tensor<5x3xf32>
}

// -----

// Tests the params of a batched sgemm: strides per batch entry, a
// transposed A (a contraction generic), one workgroup per batch entry.

#ob = #fuel.candidate<"cpu.openblas.batch_matmul_f32", source = "openblas", backend = cpu, device = cpu, revision = 0x7, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 500 static, host_bytes = 0, device_bytes = 0>
#ao = #fuel.alternatives<decision = <op = batch_matmul, dtype = f32, size_class = 0x0, device = cpu>, [#ob]>
#bl = #fuel.candidate<"cpu.blis.batch_matmul_f32", source = "blis", backend = cpu, device = cpu, revision = 0x8, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 500 static, host_bytes = 0, device_bytes = 0>
#ab = #fuel.alternatives<decision = <op = batch_matmul, dtype = f32, size_class = 0x0, device = cpu>, [#bl]>
#ta = affine_map<(b, m, n, k) -> (b, k, m)>
#tb = affine_map<(b, m, n, k) -> (b, k, n)>
#tc = affine_map<(b, m, n, k) -> (b, m, n)>

// CHECK-LABEL: fuel.executable @cpu on cpu {
// CHECK:       fuel.library_kernel @openblas_batch_matmul_0 "cpu.openblas.batch_matmul_f32" shim "openblas" entry "fuel_shim_openblas_sgemm_batched" grid [4, 1, 1] params [4, 8, 16, 32, 32, 16, 16, 256, 512, 128, 0, 0] workspace 0 revision 7
// CHECK:       fuel.library_kernel @blis_batch_matmul_1 "cpu.blis.batch_matmul_f32" shim "blis" entry "fuel_shim_blis_sgemm_batched" grid [3, 1, 1] params [3, 5, 6, 4, 5, 6, 6, 20, 24, 30, 1, 0] workspace 4194304 revision 8
func.func @batched(%a: tensor<4x8x32xf32>, %b: tensor<4x32x16xf32>, %c: tensor<3x4x5xf32>, %d: tensor<3x4x6xf32>) -> (tensor<4x8x16xf32>, tensor<3x5x6xf32>) {
  %y = fuel.node 0 batch_matmul (%a, %b) : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32> on cpu alternatives #ao {
  ^bb0(%p: tensor<4x8x32xf32>, %q: tensor<4x32x16xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x8x16xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %m = linalg.batch_matmul ins(%p, %q : tensor<4x8x32xf32>, tensor<4x32x16xf32>) outs(%f : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    fuel.yield %m : tensor<4x8x16xf32>
  }
  %t = fuel.node 1 batch_matmul (%c, %d) : (tensor<3x4x5xf32>, tensor<3x4x6xf32>) -> tensor<3x5x6xf32> on cpu alternatives #ab {
  ^bb0(%p: tensor<3x4x5xf32>, %q: tensor<3x4x6xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<3x5x6xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x5x6xf32>) -> tensor<3x5x6xf32>
    %m = linalg.generic {indexing_maps = [#ta, #tb, #tc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %q : tensor<3x4x5xf32>, tensor<3x4x6xf32>) outs(%f : tensor<3x5x6xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %mul = arith.mulf %u, %v : f32
      %add = arith.addf %o, %mul : f32
      linalg.yield %add : f32
    } -> tensor<3x5x6xf32>
    fuel.yield %m : tensor<3x5x6xf32>
  }
  return %y, %t : tensor<4x8x16xf32>, tensor<3x5x6xf32>
}

// -----

// Tests that a strided slice read by a generated kernel with the
// strided_input cap is folded into it (the kernel binds the slice's source
// and slices inside), and that one read by a library kernel is
// materialised by a host kernel first; a contiguous slice stays a view.

#ge = #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x1, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 10 static, host_bytes = 0, device_bytes = 0>
#ae = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [#ge]>
#ob = #fuel.candidate<"cpu.openblas.matmul_f32", source = "openblas", backend = cpu, device = cpu, revision = 0x99, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 500 static, host_bytes = 0, device_bytes = 0>
#ao = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#ob]>
#id = affine_map<(i, j) -> (i, j)>

// CHECK-LABEL: fuel.executable @cpu on cpu {
// CHECK:       func.func @elementwise_0(%[[SRC:.+]]: memref<8x8xf32>, %[[OUT:.+]]: memref<8x4xf32>)
// CHECK:         %[[T:.+]] = bufferization.to_tensor %[[SRC]] restrict
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[T]][0, 0] [8, 4] [1, 2]
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<8x4xf32>)
// CHECK:       func.func @host_extract_slice_1(%[[SRC2:.+]]: memref<8x8xf32>, %[[OUT2:.+]]: memref<8x4xf32>)
// CHECK-SAME:    fuel.kernel_id = "cpu.generated.host_extract_slice"
// CHECK-SAME:    fuel.op_kind = "host"
// CHECK-SAME:    fuel.schedule = "kernels/schedules/cpu/host.mlir"
// CHECK:         %[[T2:.+]] = bufferization.to_tensor %[[SRC2]] restrict
// CHECK:         %[[S2:.+]] = tensor.extract_slice %[[T2]][0, 0] [8, 4] [1, 2]
// CHECK:         bufferization.materialize_in_destination %[[S2]] in restrict writable %[[OUT2]]
// CHECK:       fuel.library_kernel @openblas_matmul_2
// CHECK-LABEL: func.func @slices(
// CHECK-NOT:     tensor.extract_slice %arg0[0, 0] [8, 4] [1, 2]
// CHECK:         %[[M:.+]] = fuel.dispatch @cpu::@host_extract_slice_1 (%arg0) : (tensor<8x8xf32>) -> tensor<8x4xf32>
// CHECK:         fuel.dispatch @cpu::@elementwise_0 (%arg0) {node = 0 : i64
// CHECK:         %[[C:.+]] = tensor.extract_slice %arg1[0, 0] [4, 8] [1, 1]
// CHECK:         fuel.dispatch @cpu::@openblas_matmul_2 (%[[M]], %[[C]]) {node = 1 : i64
func.func @slices(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %s = tensor.extract_slice %x[0, 0] [8, 4] [1, 2] : tensor<8x8xf32> to tensor<8x4xf32>
  %r = fuel.node 0 elementwise (%s) : (tensor<8x4xf32>) -> tensor<8x4xf32> on cpu alternatives #ae {
  ^bb0(%a: tensor<8x4xf32>):
    %e = tensor.empty() : tensor<8x4xf32>
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
    ^bb0(%u: f32, %o: f32):
      %n = arith.negf %u : f32
      linalg.yield %n : f32
    } -> tensor<8x4xf32>
    fuel.yield %g : tensor<8x4xf32>
  }
  %top = tensor.extract_slice %w[0, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  %m = fuel.node 1 matmul (%s, %top) : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32> on cpu alternatives #ao {
  ^bb0(%a: tensor<8x4xf32>, %b: tensor<4x8xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
    fuel.yield %mm : tensor<8x8xf32>
  }
  return %r, %m : tensor<8x4xf32>, tensor<8x8xf32>
}

// -----

// Tests that a strided slice returned from the function is materialised on
// the host.

// CHECK-LABEL: func.func @host_extract_slice_0(
// CHECK-LABEL: func.func @returned(
// CHECK:         %[[M:.+]] = fuel.dispatch @cpu::@host_extract_slice_0 (%arg0)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return %[[M]]
func.func @returned(%x: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %s = tensor.extract_slice %x[0, 0] [4, 8] [2, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Tests that nodes on two devices outline into one executable per device,
// in device order, and that copies stay.

#gc = #fuel.candidate<"cpu.generated.transpose_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x1, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 10 static, host_bytes = 0, device_bytes = 0>
#ac = #fuel.alternatives<decision = <op = transpose, dtype = f32, size_class = 0x0, device = cpu>, [#gc]>
#gg = #fuel.candidate<"cuda.generated.transpose_f32", source = "generated", backend = cuda, device = cuda:0, caps = [strided_input], revision = 0x2, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 10 static, host_bytes = 0, device_bytes = 0>
#ag = #fuel.alternatives<decision = <op = transpose, dtype = f32, size_class = 0x0, device = cpu>, [#gg]>

// CHECK:       fuel.executable @cpu on cpu {
// CHECK:         func.func @transpose_0(
// CHECK-SAME:      fuel.schedule = "kernels/schedules/cpu/transpose.mlir"
// CHECK:       fuel.executable @cuda_0 on cuda:0 {
// CHECK:         func.func @transpose_0(
// CHECK-SAME:      fuel.kernel_id = "cuda.generated.transpose_f32"
// CHECK-SAME:      fuel.schedule = "kernels/schedules/gpu/per_element.mlir"
// CHECK-LABEL: func.func @devices(
// CHECK:         %[[C:.+]] = fuel.copy %arg0 : tensor<4x8xf32> from cpu to cuda:0
// CHECK:         %[[G:.+]] = fuel.dispatch @cuda_0::@transpose_0 (%[[C]])
// CHECK:         %[[B:.+]] = fuel.copy %[[G]] : tensor<8x4xf32> from cuda:0 to cpu
// CHECK:         fuel.dispatch @cpu::@transpose_0 (%[[B]])
func.func @devices(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = fuel.copy %x : tensor<4x8xf32> from cpu to cuda:0
  %g = fuel.node 0 transpose (%c) : (tensor<4x8xf32>) -> tensor<8x4xf32> on cuda:0 alternatives #ag {
  ^bb0(%a: tensor<4x8xf32>):
    %e = tensor.empty() : tensor<8x4xf32>
    %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
    fuel.yield %t : tensor<8x4xf32>
  }
  %b = fuel.copy %g : tensor<8x4xf32> from cuda:0 to cpu
  %h = fuel.node 1 transpose (%b) : (tensor<8x4xf32>) -> tensor<4x8xf32> on cpu alternatives #ac {
  ^bb0(%a: tensor<8x4xf32>):
    %e = tensor.empty() : tensor<4x8xf32>
    %t = linalg.transpose ins(%a : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) permutation = [1, 0]
    fuel.yield %t : tensor<4x8xf32>
  }
  return %h : tensor<4x8xf32>
}

// -----

// Tests that a strided slice read on a GPU by a library kernel is
// materialised there (a host kernel of that device's executable), and that
// a tensor.empty a node reads is re-made inside the kernel, not bound.

#cb = #fuel.candidate<"cuda.cublas.matmul_f32", source = "cublas", backend = cuda, device = cuda:0, revision = 0x5, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 50 static, host_bytes = 0, device_bytes = 0>
#ac = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#cb]>
#ge = #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x1, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 10 static, host_bytes = 0, device_bytes = 0>
#ae = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [#ge]>
#id = affine_map<(i, j) -> (i, j)>

// CHECK:       fuel.executable @cpu on cpu {
// CHECK:         func.func @elementwise_0(%[[X:.+]]: memref<4x4xf32>, %[[O:.+]]: memref<4x4xf32>)
// CHECK:           %[[E:.+]] = tensor.empty() : tensor<4x4xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %[[E]] : tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK:       fuel.executable @cuda_0 on cuda:0 {
// CHECK:         func.func @host_extract_slice_0(
// CHECK-SAME:      fuel.kernel_id = "cuda.generated.host_extract_slice"
// CHECK-SAME:      fuel.schedule = "kernels/schedules/gpu/host.mlir"
// CHECK:         fuel.library_kernel @cublas_matmul_1 "cuda.cublas.matmul_f32" shim "cublas" entry "fuel_shim_cublas_sgemm" grid [1, 1, 1] params [4, 4, 4, 4, 4, 4, 0, 0, 4] workspace 4194304 revision 5
// CHECK:       func.func @gpu_slice(
// CHECK:         %[[C:.+]] = fuel.copy %arg0 : tensor<8x4xf32> from cpu to cuda:0
// CHECK:         %[[M:.+]] = fuel.dispatch @cuda_0::@host_extract_slice_0 (%[[C]]) : (tensor<8x4xf32>) -> tensor<4x4xf32>
// CHECK:         fuel.dispatch @cuda_0::@cublas_matmul_1 (%[[M]], %[[M]]) {node = 0 : i64
// CHECK:         fuel.dispatch @cpu::@elementwise_0 (%arg1) {node = 1 : i64
func.func @gpu_slice(%x: tensor<8x4xf32>, %y: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %c = fuel.copy %x : tensor<8x4xf32> from cpu to cuda:0
  %s = tensor.extract_slice %c[0, 0] [4, 4] [2, 1] : tensor<8x4xf32> to tensor<4x4xf32>
  %m = fuel.node 0 matmul (%s, %s) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> on cuda:0 alternatives #ac {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %r : tensor<4x4xf32>
  }
  %u = tensor.empty() : tensor<4x4xf32>
  %g = fuel.node 1 elementwise (%y, %u) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> on cpu alternatives #ae {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>):
    %e = tensor.empty() : tensor<4x4xf32>
    %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      linalg.yield %p : f32
    } -> tensor<4x4xf32>
    fuel.yield %r : tensor<4x4xf32>
  }
  return %m, %g : tensor<4x4xf32>, tensor<4x4xf32>
}
