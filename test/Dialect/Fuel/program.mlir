// RUN: fuel-opt %s | fuel-opt | FileCheck %s
// RUN: fuel-opt %s --mlir-print-op-generic | fuel-opt | FileCheck %s

// Tests that a host program round-trips: constant data, arenas, every buffer
// kind, views, launches with their reports and transfers with dependencies.

// CHECK: fuel.constant_data @cst_0 dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
fuel.constant_data @cst_0 dense<[1.0, 2.0]> : tensor<2xf32>

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<2xf32>, %b: memref<2xf32>, %c: memref<2xf32>) {
      return
    }
  }
}

// CHECK-LABEL: fuel.program @f {
// CHECK-NEXT: fuel.arena cpu size 128 align 64
// CHECK-NEXT: fuel.arena cuda:0 size 0 align 64
// CHECK-NEXT: %[[X:.+]] = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
// CHECK-NEXT: %[[Y:.+]] = fuel.buffer output 0 "result0" : tensor<2x1xf32> on cpu
// CHECK-NEXT: %[[Z:.+]] = fuel.buffer output 1 "result1" : tensor<2xf32> on cuda:0
// CHECK-NEXT: %[[C:.+]] = fuel.buffer constant @cst_0 : tensor<2xf32> on cpu
// CHECK-NEXT: %[[T:.+]] = fuel.buffer arena offset 64 : tensor<2xf32> on cpu
// CHECK-NEXT: %[[V:.+]] = fuel.buffer_view %[[T]] offset 0 : tensor<2xf32> to tensor<2x1xf32>
// CHECK-NEXT: %[[H:.+]] = fuel.buffer_view %[[T]] offset 4 : tensor<2xf32> to tensor<1xf32>
// CHECK-NEXT: fuel.launch @cpu::@k(%[[X]], %[[C]]) -> (%[[T]]) grid [1, 1, 1] {kernel_id = "cpu.generated.add_f32", node = 3 : i64, op_kind = "elementwise", predicted_ns = 100 : i64, revision = -5 : i64, source = "generated", workspace_bytes = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>)
// CHECK-NEXT: fuel.transfer %[[V]] to %[[Y]] after [0] : tensor<2x1xf32> to tensor<2x1xf32>
// CHECK-NEXT: fuel.transfer %[[T]] to %[[Z]] after [0] {predicted_ns = 7 : i64} : tensor<2xf32> to tensor<2xf32>
// CHECK-NEXT: }
fuel.program @f {
  fuel.arena cpu size 128 align 64
  fuel.arena cuda:0 size 0 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  %y = fuel.buffer output 0 "result0" : tensor<2x1xf32> on cpu
  %z = fuel.buffer output 1 "result1" : tensor<2xf32> on cuda:0
  %c = fuel.buffer constant @cst_0 : tensor<2xf32> on cpu
  %t = fuel.buffer arena offset 64 : tensor<2xf32> on cpu
  %v = fuel.buffer_view %t offset 0 : tensor<2xf32> to tensor<2x1xf32>
  %h = fuel.buffer_view %t offset 4 : tensor<2xf32> to tensor<1xf32>
  fuel.launch @cpu::@k (%x, %c) -> (%t) grid [1, 1, 1]
      {node = 3 : i64, op_kind = "elementwise", kernel_id = "cpu.generated.add_f32",
       source = "generated", revision = -5 : i64, workspace_bytes = 0 : i64,
       predicted_ns = 100 : i64}
      : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>)
  fuel.transfer %v to %y after [0] : tensor<2x1xf32> to tensor<2x1xf32>
  fuel.transfer %t to %z after [0] {predicted_ns = 7 : i64} : tensor<2xf32> to tensor<2xf32>
}
