// RUN: %python %S/Inputs/onnx_models.py make convnet %t.onnx
// RUN: fuel-import-onnx %t.onnx -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: fuel-opt %t.mlir --fuel-form-nodes | FileCheck %s --check-prefix=NODES

// Tests the NN family on an opset-11 conv net (converted to opset 17):
// Conv with pads (a tensor.pad, then linalg.conv_2d_nchw_fchw and the bias
// as an elementwise generic), inference BatchNormalization folded into one
// scale-and-shift generic, MaxPool, a grouped Conv as one convolution per
// group concatenated, AveragePool with ceil_mode and both count_include_pad
// settings (a pooling sum divided by a per-position divisor), a
// GlobalAveragePool reduction, Flatten (a view) and Gemm.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x8x8xf32> {onnx.name = "x"})
// CHECK-SAME: -> (tensor<2x5xf32> {onnx.name = "y"}, tensor<2x6x4x2xf32> {onnx.name = "p3"}, tensor<2x6x2x1xf32> {onnx.name = "p4"})
// CHECK: tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-SAME: -> tensor<2x4x8x8xf32>
// CHECK: dense_resource<b1.reshaped> : tensor<4x1x1xf32>
// CHECK: dense_resource<s.scale> : tensor<4x1x1xf32>
// CHECK: dense_resource<bb.shift> : tensor<4x1x1xf32>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: -> tensor<2x4x4x4xf32>
// CHECK: tensor.extract_slice {{.*}}[0, 0, 0, 0] [2, 2, 6, 4] [1, 1, 1, 1]
// CHECK: dense_resource<w2.group0> : tensor<3x2x3x3xf32>
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: tensor.extract_slice {{.*}}[0, 2, 0, 0] [2, 2, 6, 4] [1, 1, 1, 1]
// CHECK: dense_resource<w2.group1> : tensor<3x2x3x3xf32>
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: tensor.concat dim(1)
// CHECK: tensor.pad {{.*}} low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK: linalg.pooling_nchw_sum {{.*}} strides = dense<2>
// CHECK-SAME: -> tensor<2x6x3x2xf32>
// CHECK: dense_resource<p2.divisor> : tensor<3x2xf32>
// CHECK: arith.divf
// count_include_pad=1 without ceil_mode: every divisor is 4, a scalar.
// CHECK: linalg.pooling_nchw_sum
// CHECK: arith.constant 4.000000e+00 : f32
// CHECK-NEXT: arith.divf
// CHECK: linalg.pooling_nchw_max
// CHECK-SAME: -> tensor<2x6x2x1xf32>
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: tensor.expand_shape {{.*}} into tensor<2x6x1x1xf32>
// CHECK: tensor.collapse_shape {{.*}} into tensor<2x6xf32>
// CHECK: linalg.matmul

// NODES-DAG: conv2d
// NODES-DAG: pool
// NODES-DAG: reduce
// NODES-DAG: matmul
// NODES-DAG: elementwise
// NODES-NOT: generic (
