// RUN: fuel-opt %s | fuel-opt | FileCheck %s
// RUN: fuel-opt %s --mlir-print-op-generic | fuel-opt | FileCheck %s

// Tests that decision contexts and coupling adjustments round-trip, fields in
// any order, printed in one canonical order.

// CHECK-LABEL: func.func @decision
// CHECK-SAME: a = #fuel.decision<op = matmul, dtype = f32, size_class = 0x0f0608, device = cpu>
// CHECK-SAME: b = #fuel.decision<op = batch_matmul, dtype = f16, size_class = 0x000000, device = vulkan:1>
func.func @decision() attributes {
    a = #fuel.decision<op = matmul, dtype = f32, size_class = 0x0f0608, device = cpu>,
    b = #fuel.decision<device = vulkan:1, size_class = 0, dtype = f16, op = batch_matmul>} {
  return
}

// CHECK-LABEL: func.func @couplings
// CHECK-SAME: a = #fuel.coupling<node = 3, device = cuda:0, delta_ns = -500>
// CHECK-SAME: b = #fuel.coupling<on = cpu, node = 7, backend = vulkan, delta_ns = 2000>
func.func @couplings() attributes {
    a = #fuel.coupling<node = 3, device = cuda:0, delta_ns = -500>,
    b = #fuel.coupling<delta_ns = 2000, backend = vulkan, node = 7, on = cpu>} {
  return
}

// CHECK-LABEL: func.func @annotations
func.func @annotations(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: fuel.coupling = [#fuel.coupling<on = cuda:0, node = 1, backend = cpu, delta_ns = 100>]
  // CHECK-SAME: fuel.destructive
  %0 = arith.negf %a {fuel.destructive,
      fuel.coupling = [#fuel.coupling<on = cuda:0, node = 1, backend = cpu, delta_ns = 100>]}
      : tensor<4xf32>
  return %0 : tensor<4xf32>
}
