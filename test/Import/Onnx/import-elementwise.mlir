// RUN: %python %S/Inputs/onnx_models.py make elementwise %t.onnx
// RUN: fuel-import-onnx %t.onnx -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: fuel-opt %t.mlir --fuel-form-nodes | FileCheck %s --check-prefix=NODES

// Tests the elementwise family: every unary op, the binary ops with ONNX
// broadcasting (a row [4], a column [3, 1] read at index 0 of its unit
// dimension, a splat scalar cloned into the payload) and Where with a
// constant boolean condition; every one is an elementwise node.

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[COND:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32> {onnx.name = "x"}, %[[Y:.+]]: tensor<2x3x4xf32> {onnx.name = "y"})
// CHECK: math.absf
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.addf
// CHECK: arith.negf
// CHECK: math.absf
// CHECK: arith.maximumf
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: arith.divf
// CHECK: math.erf
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: math.log
// CHECK: arith.fptosi
// CHECK: arith.constant dense_resource<cond.mask> : tensor<3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[COND]], #[[ID]], #[[ID]], #[[ID]]]
// CHECK: arith.cmpf one
// CHECK: arith.select

// NODES-COUNT-19: fuel.node {{[0-9]+}} elementwise
// NODES-NOT: fuel.node 19
