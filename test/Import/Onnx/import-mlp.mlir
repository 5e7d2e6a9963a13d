// RUN: %python %S/Inputs/onnx_models.py make mlp %t.onnx
// RUN: fuel-import-onnx %t.onnx -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: fuel-opt %t.mlir --fuel-form-nodes | FileCheck %s --check-prefix=NODES
// RUN: fuel-import-onnx %t.onnx | cmp - %t.mlir

// Tests that an opset-13 MLP (MatMul, Add, Relu, Gemm with transB, alpha
// and beta, Softmax) imports as one function over the graph's input, with
// its initializers as dense_resource blobs (a transB weight transposed at
// import time), the Gemm as a matmul plus one elementwise generic, and that
// fuel-form-nodes classifies every op as the right kind. The last RUN line
// checks that the output is deterministic.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<2x8xf32> {onnx.name = "x"}) -> (tensor<2x4xf32> {onnx.name = "y"})
// CHECK: %[[W1:.+]] = arith.constant dense_resource<w1> : tensor<8x16xf32>
// CHECK: %[[H:.+]] = linalg.matmul ins(%[[X]], %[[W1]] : tensor<2x8xf32>, tensor<8x16xf32>)
// CHECK: %[[B1:.+]] = arith.constant dense_resource<b1> : tensor<16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[H]], %[[B1]] : tensor<2x16xf32>, tensor<16xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: arith.constant dense_resource<w2.T> : tensor<16x4xf32>
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: arith.mulf
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.softmax dimension(1)
// CHECK: dialect_resources
// CHECK: w1: "0x04000000

// NODES: fuel.node 0 matmul
// NODES: fuel.node 1 elementwise
// NODES: fuel.node 2 elementwise
// NODES: fuel.node 3 matmul
// NODES: fuel.node 4 elementwise
// NODES: fuel.node 5 softmax
// NODES-NOT: fuel.node 6
