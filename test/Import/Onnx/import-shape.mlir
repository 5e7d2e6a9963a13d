// RUN: %python %S/Inputs/onnx_models.py make shape %t.onnx
// RUN: fuel-import-onnx %t.onnx -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %python %S/Inputs/onnx_models.py make matmul-batched %t.bmm.onnx
// RUN: fuel-import-onnx %t.bmm.onnx | FileCheck %s --check-prefix=BMM

// Tests the shape family and the reductions: Slice with negative and
// oversized bounds and a step (a strided extract_slice), Split into
// slices, Concat (tensor.concat), Gather with constant 2-D indices (one
// slice per index, concatenated, viewed), Unsqueeze/Squeeze as views,
// Transpose, Expand of a constant folded at import time, ReduceSum with
// axes as an input, ReduceMean and ReduceMax with keepdims, LogSoftmax on
// axis 0, and Cast, Constant and Identity folded.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32> {onnx.name = "x"})
// CHECK: tensor.extract_slice %[[X]][0, 0, 1] [2, 3, 2] [1, 1, 2]
// CHECK: tensor.extract_slice %[[X]][0, 0, 0] [2, 3, 1] [1, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 1] [2, 3, 3] [1, 1, 1]
// CHECK: tensor.concat dim(2)
// CHECK: tensor.extract_slice %[[X]][0, 2, 0] [2, 1, 4] [1, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 0] [2, 1, 4] [1, 1, 1]
// CHECK: tensor.concat dim(1) {{.*}} -> tensor<2x4x4xf32>
// CHECK: tensor.expand_shape {{.*}} into tensor<2x2x2x4xf32>
// CHECK: linalg.transpose {{.*}} permutation = [2, 0, 1]
// CHECK: dense_resource<ex> : tensor<2x3x4xf32>
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: tensor.expand_shape {{.*}} into tensor<1x3x1xf32>
// CHECK: arith.maximumf
// CHECK: math.log
// CHECK: dense_resource<k>
// CHECK: return

// BMM-LABEL: func.func @main
// BMM: linalg.batch_matmul {{.*}} -> tensor<6x3x5xf32>
// BMM: tensor.expand_shape {{.*}} into tensor<2x3x3x5xf32>
// BMM: linalg.batch_matmul {{.*}} -> tensor<3x1x5xf32>
