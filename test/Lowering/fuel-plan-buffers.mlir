// RUN: fuel-opt %s --split-input-file --fuel-plan-buffers | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-plan-buffers | fuel-opt | FileCheck %s

// Tests that a chain A -> B -> C of intermediates reuses A's slot for C, that
// the last result is written straight into the output, and that each
// command waits for the producer of what it reads (C overwriting A's bytes
// after A's reader also waits for command 0, implied through command 1).

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @relu_0(%a: memref<64xf32>, %b: memref<64xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 77 : i64,
                    fuel.workgroups = array<i64: 2, 1, 1>,
                    fuel.workspace_bytes = 128 : i64} {
      return
    }
  }
}

// CHECK-LABEL: fuel.program @chain {
// CHECK-NEXT: fuel.arena cpu size 512 align 64
// CHECK-NEXT: %[[X:.+]] = fuel.buffer input 0 "arg0" : tensor<64xf32> on cpu
// CHECK-NEXT: %[[Y:.+]] = fuel.buffer output 0 "result0" : tensor<64xf32> on cpu
// CHECK-NEXT: %[[A:.+]] = fuel.buffer arena offset 0 : tensor<64xf32> on cpu
// CHECK-NEXT: %[[B:.+]] = fuel.buffer arena offset 256 : tensor<64xf32> on cpu
// CHECK-NEXT: %[[C:.+]] = fuel.buffer arena offset 0 : tensor<64xf32> on cpu
// CHECK-NEXT: fuel.launch @cpu::@relu_0(%[[X]]) -> (%[[A]]) grid [2, 1, 1] {kernel_id = "cpu.generated.elementwise_f32", node = 0 : i64, op_kind = "elementwise", predicted_ns = 10 : i64, revision = 77 : i64, source = "generated", workspace_bytes = 128 : i64}
// CHECK-NEXT: fuel.launch @cpu::@relu_0(%[[A]]) -> (%[[B]]) grid [2, 1, 1] after [0]
// CHECK-NEXT: fuel.launch @cpu::@relu_0(%[[B]]) -> (%[[C]]) grid [2, 1, 1] after [1]
// CHECK-NEXT: fuel.launch @cpu::@relu_0(%[[C]]) -> (%[[Y]]) grid [2, 1, 1] after [2]
// CHECK-NEXT: {{^ +\}$}}
// CHECK-NOT: func.func @chain
func.func @chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = fuel.dispatch @cpu::@relu_0 (%x) {node = 0 : i64, predicted_ns = 10 : i64} : (tensor<64xf32>) -> tensor<64xf32>
  %b = fuel.dispatch @cpu::@relu_0 (%a) {node = 1 : i64} : (tensor<64xf32>) -> tensor<64xf32>
  %c = fuel.dispatch @cpu::@relu_0 (%b) {node = 2 : i64} : (tensor<64xf32>) -> tensor<64xf32>
  %d = fuel.dispatch @cpu::@relu_0 (%c) {node = 3 : i64} : (tensor<64xf32>) -> tensor<64xf32>
  return %d : tensor<64xf32>
}

// -----

// Tests that a kernel that allows it overwrites its operand in place: the
// whole chain shares one slot.

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @relu_0(%a: memref<64xf32>, %b: memref<64xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 77 : i64,
                    fuel.in_place = array<i64: 0>} {
      return
    }
  }
}

// CHECK-LABEL: fuel.program @in_place {
// CHECK-NEXT: fuel.arena cpu size 256 align 64
// CHECK: %[[A:.+]] = fuel.buffer arena offset 0 : tensor<64xf32> on cpu
// CHECK-NEXT: %[[B:.+]] = fuel.buffer arena offset 0 : tensor<64xf32> on cpu
// CHECK-NEXT: %[[C:.+]] = fuel.buffer arena offset 0 : tensor<64xf32> on cpu
// CHECK-NEXT: fuel.launch @cpu::@relu_0({{.*}}) -> (%[[A]]) grid [1, 1, 1] {
// CHECK-NEXT: fuel.launch @cpu::@relu_0(%[[A]]) -> (%[[B]]) grid [1, 1, 1] after [0]
// CHECK-NEXT: fuel.launch @cpu::@relu_0(%[[B]]) -> (%[[C]]) grid [1, 1, 1] after [1]
func.func @in_place(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = fuel.dispatch @cpu::@relu_0 (%x) : (tensor<64xf32>) -> tensor<64xf32>
  %b = fuel.dispatch @cpu::@relu_0 (%a) : (tensor<64xf32>) -> tensor<64xf32>
  %c = fuel.dispatch @cpu::@relu_0 (%b) : (tensor<64xf32>) -> tensor<64xf32>
  %d = fuel.dispatch @cpu::@relu_0 (%c) : (tensor<64xf32>) -> tensor<64xf32>
  return %d : tensor<64xf32>
}

// -----

// Tests that views are the same bytes: a reshape is a view at offset 0, a
// contiguous slice a view at its byte offset, and a view returned whole
// writes its producer straight into the output.

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<4x16xf32>, %b: memref<4x16xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 1 : i64} {
      return
    }
    func.func @s(%a: memref<16xf32>, %b: memref<16xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 1 : i64} {
      return
    }
  }
}

// CHECK-LABEL: fuel.program @views {
// CHECK-NEXT: fuel.arena cpu size 0 align 64
// CHECK-NEXT: %[[X:.+]] = fuel.buffer input 0 "arg0" : tensor<64xf32> on cpu
// CHECK-NEXT: %[[O0:.+]] = fuel.buffer output 0 "result0" : tensor<64xf32> on cpu
// CHECK-NEXT: %[[O1:.+]] = fuel.buffer output 1 "result1" : tensor<16xf32> on cpu
// CHECK-NEXT: %[[XV:.+]] = fuel.buffer_view %[[X]] offset 0 : tensor<64xf32> to tensor<4x16xf32>
// CHECK-NEXT: %[[A:.+]] = fuel.buffer_view %[[O0]] offset 0 : tensor<64xf32> to tensor<4x16xf32>
// CHECK-NEXT: fuel.launch @cpu::@k(%[[XV]]) -> (%[[A]])
// CHECK-NEXT: %[[ROW:.+]] = fuel.buffer_view %[[O0]] offset 128 : tensor<64xf32> to tensor<16xf32>
// CHECK-NEXT: fuel.launch @cpu::@s(%[[ROW]]) -> (%[[O1]]) grid [1, 1, 1] after [0]
func.func @views(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<16xf32>) {
  %xe = tensor.expand_shape %x [[0, 1]] output_shape [4, 16] : tensor<64xf32> into tensor<4x16xf32>
  %a = fuel.dispatch @cpu::@k (%xe) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %row = tensor.extract_slice %a[2, 0] [1, 16] [1, 1] : tensor<4x16xf32> to tensor<16xf32>
  %s = fuel.dispatch @cpu::@s (%row) : (tensor<16xf32>) -> tensor<16xf32>
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  return %flat, %s : tensor<64xf32>, tensor<16xf32>
}

// -----

// Tests the outputs that must be copies: an input returned unchanged, a value
// returned twice (one copy, from the first output), and a constant returned;
// and that a constant read by a kernel becomes one constant segment.

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @add(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 1 : i64} {
      return
    }
  }
}

// CHECK: fuel.constant_data @cst_0 dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NOT: fuel.constant_data
// CHECK-LABEL: fuel.program @copies {
// CHECK-NEXT: fuel.arena cpu size 0 align 64
// CHECK-NEXT: %[[X:.+]] = fuel.buffer input 0 "arg0" : tensor<4xf32> on cpu
// CHECK-NEXT: %[[O0:.+]] = fuel.buffer output 0 "result0" : tensor<4xf32> on cpu
// CHECK-NEXT: %[[O1:.+]] = fuel.buffer output 1 "result1" : tensor<4xf32> on cpu
// CHECK-NEXT: %[[O2:.+]] = fuel.buffer output 2 "result2" : tensor<4xf32> on cpu
// CHECK-NEXT: %[[O3:.+]] = fuel.buffer output 3 "result3" : tensor<4xf32> on cpu
// CHECK-NEXT: %[[C:.+]] = fuel.buffer constant @cst_0 : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.launch @cpu::@add(%[[X]], %[[C]]) -> (%[[O0]]) grid [1, 1, 1] {
// CHECK-NEXT: fuel.transfer %[[O0]] to %[[O1]] after [0] : tensor<4xf32> to tensor<4xf32>
// CHECK-NEXT: fuel.transfer %[[X]] to %[[O2]] : tensor<4xf32> to tensor<4xf32>
// CHECK-NEXT: fuel.transfer %[[C]] to %[[O3]] : tensor<4xf32> to tensor<4xf32>
// CHECK-NEXT: {{^ +\}$}}
func.func @copies(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = fuel.dispatch @cpu::@add (%x, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y, %y, %x, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests fan-out: two readers of one intermediate both depend on its producer
// only, the intermediate lives until the later one, and the kernel that
// overwrites its bytes waits for both readers (write after read).

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<64xf32>, %b: memref<64xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 1 : i64} {
      return
    }
    func.func @add(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<64xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 1 : i64} {
      return
    }
  }
}

// CHECK-LABEL: fuel.program @fan_out {
// CHECK-NEXT: fuel.arena cpu size 768 align 64
// CHECK: %[[A:.+]] = fuel.buffer arena offset 0 : tensor<64xf32> on cpu
// CHECK-NEXT: %[[B:.+]] = fuel.buffer arena offset 256 : tensor<64xf32> on cpu
// CHECK-NEXT: %[[C:.+]] = fuel.buffer arena offset 512 : tensor<64xf32> on cpu
// CHECK-NEXT: %[[D:.+]] = fuel.buffer arena offset 0 : tensor<64xf32> on cpu
// CHECK-NEXT: fuel.launch @cpu::@k({{.*}}) -> (%[[A]]) grid [1, 1, 1] {
// CHECK-NEXT: fuel.launch @cpu::@k(%[[A]]) -> (%[[B]]) grid [1, 1, 1] after [0] {
// CHECK-NEXT: fuel.launch @cpu::@k(%[[A]]) -> (%[[C]]) grid [1, 1, 1] after [0] {
// CHECK-NEXT: fuel.launch @cpu::@add(%[[B]], %[[C]]) -> (%[[D]]) grid [1, 1, 1] after [1, 2] {
// CHECK-NEXT: fuel.launch @cpu::@k(%[[D]]) -> ({{.*}}) grid [1, 1, 1] after [3] {
func.func @fan_out(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = fuel.dispatch @cpu::@k (%x) : (tensor<64xf32>) -> tensor<64xf32>
  %b = fuel.dispatch @cpu::@k (%a) : (tensor<64xf32>) -> tensor<64xf32>
  %c = fuel.dispatch @cpu::@k (%a) : (tensor<64xf32>) -> tensor<64xf32>
  %d = fuel.dispatch @cpu::@add (%b, %c) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %e = fuel.dispatch @cpu::@k (%d) : (tensor<64xf32>) -> tensor<64xf32>
  return %e : tensor<64xf32>
}

// -----

// Tests library kernels (their grid), cross-device copies, and a constant
// read on two devices: one segment, one constant buffer per device.

fuel.executable @cpu on cpu {
  fuel.library_kernel @sgemm_0 "cpu.openblas.matmul_f32" shim "openblas"
      entry "fuel_shim_openblas_sgemm" grid [2, 1, 1]
      params [4, 4, 4, 4, 4, 4, 0, 0, 2] workspace 0 revision 9
}
fuel.executable @vk on vulkan:0 {
  builtin.module {
    func.func @k(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>)
        attributes {fuel.kernel_id = "vulkan.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 3 : i64} {
      return
    }
  }
}

// CHECK: fuel.constant_data @cst_0 dense<1.000000e+00> : tensor<4x4xf32>
// CHECK-LABEL: fuel.program @devices {
// CHECK-NEXT: fuel.arena cpu size 64 align 64
// CHECK-NEXT: fuel.arena vulkan:0 size 128 align 64
// CHECK-NEXT: %[[X:.+]] = fuel.buffer input 0 "arg0" : tensor<4x4xf32> on cpu
// CHECK-NEXT: %[[O:.+]] = fuel.buffer output 0 "result0" : tensor<4x4xf32> on cpu
// CHECK-NEXT: %[[CC:.+]] = fuel.buffer constant @cst_0 : tensor<4x4xf32> on cpu
// CHECK-NEXT: %[[CV:.+]] = fuel.buffer constant @cst_0 : tensor<4x4xf32> on vulkan:0
// CHECK-NEXT: %[[M:.+]] = fuel.buffer arena offset 0 : tensor<4x4xf32> on cpu
// CHECK-NEXT: %[[MV:.+]] = fuel.buffer arena offset 0 : tensor<4x4xf32> on vulkan:0
// CHECK-NEXT: %[[S:.+]] = fuel.buffer arena offset 64 : tensor<4x4xf32> on vulkan:0
// CHECK-NEXT: fuel.launch @cpu::@sgemm_0(%[[X]], %[[CC]]) -> (%[[M]]) grid [2, 1, 1] {kernel_id = "cpu.openblas.matmul_f32", node = 0 : i64, op_kind = "matmul", revision = 9 : i64, source = "openblas", workspace_bytes = 0 : i64}
// CHECK-NEXT: fuel.transfer %[[M]] to %[[MV]] after [0] {predicted_ns = 5 : i64}
// CHECK-NEXT: fuel.launch @vk::@k(%[[MV]], %[[CV]]) -> (%[[S]]) grid [1, 1, 1] after [1]
// CHECK-NEXT: fuel.transfer %[[S]] to %[[O]] after [2]
func.func @devices(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c = arith.constant dense<1.0> : tensor<4x4xf32>
  %m = fuel.dispatch @cpu::@sgemm_0 (%x, %c) {node = 0 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %mv = fuel.copy %m : tensor<4x4xf32> from cpu to vulkan:0 {predicted_ns = 5 : i64}
  %s = fuel.dispatch @vk::@k (%mv, %c) {node = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = fuel.copy %s : tensor<4x4xf32> from vulkan:0 to cpu
  return %r : tensor<4x4xf32>
}
