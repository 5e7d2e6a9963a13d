// RUN: fuel-opt %S/../../examples/transformer.mlir \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json" | FileCheck %s

// Tests that examples/transformer.mlir forms the nodes its lowering
// expects: each layer norm as reduce, elementwise, reduce, elementwise; the
// Q, K and V projections as matmuls, split into heads by expand_shape views
// and transposes; the scores and the context as batch matmuls around the
// scaling (elementwise) and the softmax; the heads merged by a transpose and
// a collapse_shape view before the output projection; the residual adds,
// the feed-forward matmuls and the bias + gelu as elementwise nodes. All on
// the CPU of a host-only machine, nothing copied.

// CHECK-LABEL: func.func @transformer
// CHECK-NOT: fuel.copy
// CHECK: fuel.node 0 reduce (%arg0)
// CHECK: fuel.node 1 elementwise
// CHECK: fuel.node 2 reduce
// CHECK: %[[N1:.+]] = fuel.node 3 elementwise
// CHECK: %[[Q:.+]] = fuel.node 4 matmul (%[[N1]], %arg3)
// CHECK: %[[K:.+]] = fuel.node 5 matmul (%[[N1]], %arg4)
// CHECK: %[[V:.+]] = fuel.node 6 matmul (%[[N1]], %arg5)
// CHECK: %[[QS:.+]] = tensor.expand_shape %[[Q]] {{\[}}[0], [1, 2]] output_shape [128, 4, 64]
// CHECK: %[[QH:.+]] = fuel.node 7 transpose (%[[QS]]) {{.*}} -> tensor<4x128x64xf32> on cpu
// CHECK: %[[KT:.+]] = fuel.node 8 transpose {{.*}} -> tensor<4x64x128xf32> on cpu
// CHECK: %[[VH:.+]] = fuel.node 9 transpose {{.*}} -> tensor<4x128x64xf32> on cpu
// CHECK: %[[S:.+]] = fuel.node 10 batch_matmul (%[[QH]], %[[KT]]) {{.*}} -> tensor<4x128x128xf32> on cpu
// CHECK: %[[SC:.+]] = fuel.node 11 elementwise (%[[S]])
// CHECK: %[[P:.+]] = fuel.node 12 softmax (%[[SC]])
// CHECK: %[[C:.+]] = fuel.node 13 batch_matmul (%[[P]], %[[VH]]) {{.*}} -> tensor<4x128x64xf32> on cpu
// CHECK: %[[CT:.+]] = fuel.node 14 transpose (%[[C]]) {{.*}} -> tensor<128x4x64xf32> on cpu
// CHECK: %[[CF:.+]] = tensor.collapse_shape %[[CT]] {{\[}}[0], [1, 2]] : tensor<128x4x64xf32> into tensor<128x256xf32>
// CHECK: %[[O:.+]] = fuel.node 15 matmul (%[[CF]], %arg6)
// CHECK: %[[H:.+]] = fuel.node 16 elementwise (%arg0, %[[O]])
// CHECK: fuel.node 17 reduce (%[[H]])
// CHECK: fuel.node 18 elementwise
// CHECK: fuel.node 19 reduce
// CHECK: %[[N2:.+]] = fuel.node 20 elementwise
// CHECK: %[[F1:.+]] = fuel.node 21 matmul (%[[N2]], %arg9) {{.*}} -> tensor<128x1024xf32> on cpu
// CHECK: %[[G:.+]] = fuel.node 22 elementwise (%[[F1]], %arg10)
// CHECK: math.tanh
// CHECK: %[[F2:.+]] = fuel.node 23 matmul (%[[G]], %arg11) {{.*}} -> tensor<128x256xf32> on cpu
// CHECK: %[[Y:.+]] = fuel.node 24 elementwise (%[[F2]], %arg12, %[[H]])
// CHECK-NOT: fuel.node
// CHECK: return %[[Y]]
