// RUN: fuel-opt %S/../../examples/convnet.mlir \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json" | FileCheck %s

// Tests that examples/convnet.mlir forms the nodes its lowering expects:
// per stage a conv2d, its bias + ReLU as one elementwise node and a max
// pool; the flattening stays a view (collapse_shape) between the last pool
// and the dense head's matmul, whose bias is one more elementwise node. On
// a host-only machine every node is on the CPU and nothing is copied.

// CHECK-LABEL: func.func @convnet
// CHECK-NOT: fuel.copy
// CHECK: %[[C1:.+]] = fuel.node 0 conv2d (%arg0, %arg1) : (tensor<8x3x32x32xf32>, tensor<16x3x5x5xf32>) -> tensor<8x16x28x28xf32> on cpu
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: %[[R1:.+]] = fuel.node 1 elementwise (%[[C1]], %arg2) {{.*}} on cpu
// CHECK: %[[P1:.+]] = fuel.node 2 pool (%[[R1]]{{.*}}) -> tensor<8x16x14x14xf32> on cpu
// CHECK: linalg.pooling_nchw_max
// CHECK: %[[C2:.+]] = fuel.node 3 conv2d (%[[P1]], %arg3) {{.*}} -> tensor<8x32x12x12xf32> on cpu
// CHECK: %[[R2:.+]] = fuel.node 4 elementwise (%[[C2]], %arg4) {{.*}} on cpu
// CHECK: %[[P2:.+]] = fuel.node 5 pool (%[[R2]]{{.*}}) -> tensor<8x32x6x6xf32> on cpu
// CHECK: %[[F:.+]] = tensor.collapse_shape %[[P2]] {{\[}}[0], [1, 2, 3]] : tensor<8x32x6x6xf32> into tensor<8x1152xf32>
// CHECK: %[[D:.+]] = fuel.node 6 matmul (%[[F]], %arg5) {{.*}} -> tensor<8x10xf32> on cpu
// CHECK: %[[L:.+]] = fuel.node 7 elementwise (%[[D]], %arg6) {{.*}} on cpu
// CHECK-NOT: fuel.node
// CHECK: return %[[L]]
