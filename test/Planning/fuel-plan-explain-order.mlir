// Tests that the explain remarks of a module of several functions come out
// in function order, the same on every run: the function stages run on each
// function in turn with `explain`, whatever the thread count. Each run's
// remarks are compared with the first's, then their order is checked.

// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json explain=true" -o /dev/null 2>&1 | grep remark: > %t.0
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json explain=true" -o /dev/null 2>&1 | grep remark: > %t.1
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json explain=true" -o /dev/null 2>&1 | grep remark: > %t.2
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json explain=true" -o /dev/null 2>&1 | grep remark: > %t.3
// RUN: diff %t.0 %t.1
// RUN: diff %t.0 %t.2
// RUN: diff %t.0 %t.3
// RUN: FileCheck %s < %t.0
// Threading off gives the same remarks in the same order.
// RUN: fuel-opt %s --mlir-disable-threading --fuel-plan="topology=%topologies/cpu-cuda.json explain=true" -o /dev/null 2>&1 | grep remark: | diff %t.0 -

// CHECK: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 0 (matmul): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 1 (elementwise): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 0 (matmul): placed
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 1 (elementwise): placed
func.func @f0(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %acc: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.exp ins(%m : tensor<64x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
// CHECK: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 0 (matmul): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 1 (elementwise): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 0 (matmul): placed
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 1 (elementwise): placed
func.func @f1(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %acc: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.exp ins(%m : tensor<64x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
// CHECK: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 0 (matmul): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 1 (elementwise): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 0 (matmul): placed
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 1 (elementwise): placed
func.func @f2(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %acc: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.exp ins(%m : tensor<64x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
// CHECK: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 0 (matmul): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 1 (elementwise): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 0 (matmul): placed
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 1 (elementwise): placed
func.func @f3(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %acc: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.exp ins(%m : tensor<64x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
// CHECK: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 0 (matmul): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 1 (elementwise): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 0 (matmul): placed
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 1 (elementwise): placed
func.func @f4(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %acc: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.exp ins(%m : tensor<64x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
// CHECK: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 0 (matmul): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+5]]:{{[0-9]+}}: remark: node 1 (elementwise): winner
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 0 (matmul): placed
// CHECK-NEXT: fuel-plan-explain-order.mlir:[[@LINE+3]]:{{[0-9]+}}: remark: node 1 (elementwise): placed
func.func @f5(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %acc: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.exp ins(%m : tensor<64x32xf32>) outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
