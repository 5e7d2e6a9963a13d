// RUN: fuel-opt %s --split-input-file --fuel-outline-kernels | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-outline-kernels | fuel-opt --split-input-file | FileCheck %s

// Tests that tensor.pad becomes a host kernel of @cpu with its pad value
// (a scalar constant) cloned inside, dispatched without a node id, and
// written in place: a fill of the output, the source inserted into it.

// CHECK-LABEL: fuel.executable @cpu on cpu {
// CHECK:       func.func @host_pad_0(%[[S:.+]]: memref<2x3xf32>, %[[O:.+]]: memref<4x7xf32>)
// CHECK-SAME:    fuel.kernel_id = "cpu.generated.host_pad"
// CHECK-SAME:    fuel.op_kind = "host"
// CHECK-SAME:    fuel.revision = {{-?[0-9]+}} : i64
// CHECK-SAME:    fuel.schedule = "kernels/schedules/cpu/host.mlir"
// CHECK:         %[[T:.+]] = bufferization.to_tensor %[[S]] restrict
// CHECK:         %[[V:.+]] = arith.constant 5.0
// CHECK:         %[[OT:.+]] = bufferization.to_tensor %[[O]] restrict writable
// CHECK-NOT:     tensor.pad
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[V]] : f32) outs(%[[OT]] : tensor<4x7xf32>)
// CHECK:         %[[P:.+]] = tensor.insert_slice %[[T]] into %[[F]][1, 2] [2, 3] [1, 1]
// CHECK:         bufferization.materialize_in_destination %[[P]] in restrict writable %[[O]]
// CHECK-LABEL: func.func @pad(
// CHECK:         %[[R:.+]] = fuel.dispatch @cpu::@host_pad_0 (%arg0) : (tensor<2x3xf32>) -> tensor<4x7xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         return %[[R]]
func.func @pad(%x: tensor<2x3xf32>) -> tensor<4x7xf32> {
  %v = arith.constant 5.0 : f32
  %p = tensor.pad %x low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<4x7xf32>
  return %p : tensor<4x7xf32>
}

// -----

// Tests tensor.concat (its inputs inserted into the output at their
// offsets) and that two equal host ops share one kernel.

// CHECK-LABEL: fuel.executable @cpu on cpu {
// CHECK:       func.func @host_concat_0(%[[A:.+]]: memref<2x3xf32>, %[[B:.+]]: memref<4x3xf32>, %[[O:.+]]: memref<6x3xf32>)
// CHECK-SAME:    fuel.kernel_id = "cpu.generated.host_concat"
// CHECK:         %[[AT:.+]] = bufferization.to_tensor %[[A]] restrict
// CHECK:         %[[BT:.+]] = bufferization.to_tensor %[[B]] restrict
// CHECK:         %[[OT:.+]] = bufferization.to_tensor %[[O]] restrict writable
// CHECK:         %[[I:.+]] = tensor.insert_slice %[[AT]] into %[[OT]][0, 0] [2, 3] [1, 1]
// CHECK:         %[[J:.+]] = tensor.insert_slice %[[BT]] into %[[I]][2, 0] [4, 3] [1, 1]
// CHECK:         bufferization.materialize_in_destination %[[J]] in restrict writable %[[O]]
// CHECK-NOT:   func.func @host_concat
// CHECK-LABEL: func.func @concat(
// CHECK:         fuel.dispatch @cpu::@host_concat_0 (%arg0, %arg1)
// CHECK:         fuel.dispatch @cpu::@host_concat_0 (%arg0, %arg1)
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> (tensor<6x3xf32>, tensor<6x3xf32>) {
  %c = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %d = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  return %c, %d : tensor<6x3xf32>, tensor<6x3xf32>
}

// -----

// Tests tensor.insert_slice: into a tensor.empty the kernel writes its
// output in place (the empty is made inside the kernel, not bound); into a
// value, the destination is bound and copied into the output first.

// CHECK:       func.func @host_insert_slice_0(%[[S:.+]]: memref<2x2xf32>, %[[O:.+]]: memref<4x4xf32>)
// CHECK:         %[[ST:.+]] = bufferization.to_tensor %[[S]] restrict
// CHECK:         %[[OT:.+]] = bufferization.to_tensor %[[O]] restrict writable
// CHECK:         %[[I:.+]] = tensor.insert_slice %[[ST]] into %[[OT]][1, 1] [2, 2] [1, 1]
// CHECK:         bufferization.materialize_in_destination %[[I]] in restrict writable %[[O]]
// CHECK:       func.func @host_insert_slice_1(%[[S2:.+]]: memref<2x2xf32>, %[[D2:.+]]: memref<4x4xf32>, %[[O2:.+]]: memref<4x4xf32>)
// CHECK:         %[[ST2:.+]] = bufferization.to_tensor %[[S2]] restrict
// CHECK:         %[[DT2:.+]] = bufferization.to_tensor %[[D2]] restrict :
// CHECK:         %[[OT2:.+]] = bufferization.to_tensor %[[O2]] restrict writable
// CHECK:         %[[C2:.+]] = linalg.copy ins(%[[DT2]] : tensor<4x4xf32>) outs(%[[OT2]] : tensor<4x4xf32>)
// CHECK:         tensor.insert_slice %[[ST2]] into %[[C2]][0, 0] [2, 2] [1, 1]
// CHECK-LABEL: func.func @insert(
// CHECK-NOT:     tensor.empty
// CHECK:         fuel.dispatch @cpu::@host_insert_slice_0 (%arg0) : (tensor<2x2xf32>) -> tensor<4x4xf32>
// CHECK:         fuel.dispatch @cpu::@host_insert_slice_1 (%arg0, %arg1) : (tensor<2x2xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @insert(%s: tensor<2x2xf32>, %d: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<4x4xf32>
  %a = tensor.insert_slice %s into %e[1, 1] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  %b = tensor.insert_slice %s into %d[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  return %a, %b : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests tensor.generate (a linalg.generic over the output's indices with
// the region's body, and the constants it captures cloned) and
// tensor.from_elements of constants (tensor.inserts into the output).

// CHECK:       func.func @host_generate_0(%[[O:.+]]: memref<3x4xf32>)
// CHECK:         %[[C:.+]] = arith.constant 2.5
// CHECK:         %[[OT:.+]] = bufferization.to_tensor %[[O]] restrict writable
// CHECK:         %[[G:.+]] = linalg.generic {{.*}} outs(%[[OT]] : tensor<3x4xf32>)
// CHECK:           linalg.index 0
// CHECK:           linalg.index 1
// CHECK:           linalg.yield %[[C]]
// CHECK:         bufferization.materialize_in_destination %[[G]] in restrict writable %[[O]]
// CHECK:       func.func @host_from_elements_1(%[[O2:.+]]: memref<2xf32>)
// CHECK:         %[[A:.+]] = arith.constant 1.0
// CHECK:         %[[B:.+]] = arith.addf
// CHECK:         %[[OT2:.+]] = bufferization.to_tensor %[[O2]] restrict writable
// CHECK:         %[[I0:.+]] = tensor.insert %[[A]] into %[[OT2]][%{{.+}}] : tensor<2xf32>
// CHECK:         %[[I1:.+]] = tensor.insert %[[B]] into %[[I0]][%{{.+}}] : tensor<2xf32>
// CHECK:         bufferization.materialize_in_destination %[[I1]] in restrict writable %[[O2]]
// CHECK-LABEL: func.func @make(
// CHECK:         fuel.dispatch @cpu::@host_generate_0 () : () -> tensor<3x4xf32>
// CHECK:         fuel.dispatch @cpu::@host_from_elements_1 () : () -> tensor<2xf32>
func.func @make() -> (tensor<3x4xf32>, tensor<2xf32>) {
  %c = arith.constant 2.5 : f32
  %g = tensor.generate {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<3x4xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.addf %one, %two : f32
  %f = tensor.from_elements %one, %three : tensor<2xf32>
  return %g, %f : tensor<3x4xf32>, tensor<2xf32>
}

// -----

// Tests that a linalg.fill no node cloned (here: returned) becomes a host
// kernel filling its output in place.

// CHECK:       func.func @host_fill_0(%[[O:.+]]: memref<8xf32>)
// CHECK:         %[[Z:.+]] = arith.constant 0.0
// CHECK:         %[[OT:.+]] = bufferization.to_tensor %[[O]] restrict writable
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[OT]] : tensor<8xf32>)
// CHECK:         bufferization.materialize_in_destination %[[F]] in restrict writable %[[O]]
// CHECK-LABEL: func.func @fill(
// CHECK:         %[[R:.+]] = fuel.dispatch @cpu::@host_fill_0 () : () -> tensor<8xf32>
// CHECK:         return %[[R]]
func.func @fill() -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}

// -----

// Tests that a tensor.pad whose value depends on the indices keeps its
// form (computed into a temporary, then materialised).

// CHECK:       func.func @host_pad_0(%[[S:.+]]: memref<2x3xf32>, %[[O:.+]]: memref<3x3xf32>)
// CHECK:         %[[P:.+]] = tensor.pad
// CHECK:           arith.index_cast
// CHECK:         bufferization.materialize_in_destination %[[P]] in restrict writable %[[O]]
func.func @pad_by_index(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %p = tensor.pad %x low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    tensor.yield %f : f32
  } : tensor<2x3xf32> to tensor<3x3xf32>
  return %p : tensor<3x3xf32>
}
