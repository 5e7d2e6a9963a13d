// RUN: fuel-opt %s --split-input-file --fuel-plan-buffers | FileCheck %s

// Tests that an input takes its argument's `onnx.name` over its location's
// name, and an output its result's `onnx.name`; an empty `onnx.name` counts
// as none.

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @add_0(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 1 : i64} {
      return
    }
  }
}

// CHECK-LABEL: fuel.program @onnx_names {
// CHECK-NEXT: fuel.arena cpu size 0 align 64
// CHECK-NEXT: fuel.buffer input 0 "input.1" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer input 1 "b_loc" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer output 0 "logits" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer output 1 "result1" : tensor<4xf32> on cpu
func.func @onnx_names(%a: tensor<4xf32> {onnx.name = "input.1"} loc("a_loc"),
                      %b: tensor<4xf32> {onnx.name = ""} loc("b_loc"))
    -> (tensor<4xf32> {onnx.name = "logits"}, tensor<4xf32> {onnx.name = ""}) {
  %0 = fuel.dispatch @cpu::@add_0 (%a, %b) {node = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = fuel.dispatch @cpu::@add_0 (%0, %b) {node = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests that without `onnx.name` an input takes the first name of its
// location: a name (not its child's), the first name in a fused location,
// a call site's callee before its caller; a location without a name, or an
// empty name, leaves `arg<i>`, and a result without `onnx.name` is
// `result<i>`.

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @sum_0(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>,
                     %d: memref<4xf32>, %e: memref<4xf32>, %f: memref<4xf32>,
                     %g: memref<4xf32>, %o: memref<4xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32",
                    fuel.op_kind = "elementwise", fuel.revision = 1 : i64} {
      return
    }
  }
}

// CHECK-LABEL: fuel.program @location_names {
// CHECK-NEXT: fuel.arena cpu size 0 align 64
// CHECK-NEXT: fuel.buffer input 0 "x" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer input 1 "outer" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer input 2 "fused_y" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer input 3 "callee_z" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer input 4 "caller_w" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer input 5 "arg5" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer input 6 "arg6" : tensor<4xf32> on cpu
// CHECK-NEXT: fuel.buffer output 0 "result0" : tensor<4xf32> on cpu
func.func @location_names(
    %x: tensor<4xf32> loc("x"),
    %n: tensor<4xf32> loc("outer"("inner")),
    %y: tensor<4xf32> loc(fused["model.py":1:2, "fused_y", "second"]),
    %z: tensor<4xf32> loc(callsite("callee_z" at "caller.py":3:4)),
    %w: tensor<4xf32> loc(callsite("callee.py":5:6 at fused["caller_w"])),
    %u: tensor<4xf32> loc("model.py":7:8),
    %v: tensor<4xf32> loc(""))
    -> tensor<4xf32> {
  %0 = fuel.dispatch @cpu::@sum_0 (%x, %n, %y, %z, %w, %u, %v) {node = 0 : i64}
      : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
         tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
