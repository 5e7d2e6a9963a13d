// RUN: fuel-opt %s --split-input-file --fuel-plan=topology=%topologies/worked-example.json | FileCheck %s

// Tests the constant rule through the whole pipeline (SEMANTICS §4, §5):
// node formation leaves a `dense_resource` blob outside the node as an
// operand, and placement and copy insertion treat it as load-time data.
// x lives on cuda:0 and the result must end there, so the add runs on
// cuda:0 (5,000 ns dispatch + 1 ns of work = 5,001 ns) and nothing is
// copied. With the weights as an argument on cpu instead, their 16 bytes
// cross the 10 GB/s, 10 us link: 10,000 + 2 = 10,002 ns, 15,003 in all.
func.func @blob(%x: tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}) -> (tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}) {
  %w = arith.constant dense_resource<weights> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// CHECK-LABEL: func.func @blob
// CHECK-SAME: #fuel.predicted<total = 5001, nodes = 5001, copies = 0, coupling = 0>
// CHECK-NOT: fuel.copy
// CHECK: %[[W:.+]] = arith.constant dense_resource<weights> : tensor<4xf32>
// CHECK-NOT: fuel.copy
// CHECK: fuel.node 0 elementwise (%{{.+}}, %[[W]]) {{.*}} on cuda:0
// CHECK-NOT: fuel.copy
// CHECK: return

// -----

func.func @argument(%x: tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}, %w: tensor<4xf32>) -> (tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @argument
// CHECK-SAME: #fuel.predicted<total = 15003, nodes = 5001, copies = 10002, coupling = 0>
// CHECK: %[[WC:.+]] = fuel.copy %{{.+}} : tensor<4xf32> from cpu to cuda:0
// CHECK: fuel.node 0 elementwise (%{{.+}}, %[[WC]]) {{.*}} on cuda:0
