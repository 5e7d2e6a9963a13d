// RUN: %python %S/Inputs/onnx_models.py make transformer %t.onnx
// RUN: fuel-import-onnx %t.onnx -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: fuel-opt %t.mlir --fuel-form-nodes | FileCheck %s --check-prefix=NODES

// Tests a transformer block: LayerNormalization as two row reductions and
// two elementwise generics, the head split through Shape -> Gather ->
// Unsqueeze -> Concat -> Reshape folded into views, Transpose, 3-D MatMul
// as linalg.batch_matmul, Softmax on the last axis, and the Erf-based GELU
// exporters write (Div, Erf, Add, Mul, Mul) recognised as one elementwise
// generic.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32> {onnx.name = "x"}) -> (tensor<4x8xf32> {onnx.name = "y"})
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x8xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<4x1xf32>
// CHECK: arith.divf
// CHECK: arith.subf
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: math.rsqrt
// CHECK: dense_resource<wq>
// CHECK: linalg.matmul
// CHECK-NOT: Shape
// CHECK: tensor.expand_shape {{.*}} output_shape [4, 2, 4] : tensor<4x8xf32> into tensor<4x2x4xf32>
// CHECK: linalg.transpose {{.*}} permutation = [1, 0, 2]
// CHECK: linalg.transpose {{.*}} permutation = [1, 2, 0]
// CHECK: linalg.batch_matmul {{.*}} -> tensor<2x4x4xf32>
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: linalg.softmax dimension(2)
// CHECK: linalg.batch_matmul
// The GELU: one generic, no Div or separate Erf op.
// CHECK: arith.constant 0.707106769 : f32
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: math.erf
// CHECK-NEXT: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.constant 5.000000e-01 : f32
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: linalg.yield
// CHECK-NOT: math.erf

// NODES-DAG: batch_matmul
// NODES-DAG: softmax
// NODES-DAG: transpose
// NODES-DAG: reduce
// NODES-NOT: generic (
