// RUN: fuel-opt %S/../../../examples/layer.mlir | fuel-opt | FileCheck %s

// Tests that the README's example program parses, verifies and round-trips.

// CHECK: #[[ALTS:alts[0-9]*]] = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0f0608, device = cpu>
// CHECK-LABEL: func.func @layer
// CHECK: fuel.copy %{{.*}} : tensor<64x256xf32> from cpu to vulkan:0
// CHECK: fuel.node 0 matmul ({{.*}}) : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32> on vulkan:0 alternatives #[[ALTS]]
// CHECK: fuel.copy %{{.*}} : tensor<64x512xf32> from vulkan:0 to cpu
