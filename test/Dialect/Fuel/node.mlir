// RUN: fuel-opt %s | fuel-opt | FileCheck %s
// RUN: fuel-opt %s --mlir-print-op-generic | fuel-opt | FileCheck %s

// Tests that nodes round-trip with and without each optional part.

// CHECK-LABEL: func.func @plain
func.func @plain(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>) -> tensor<64x512xf32> {
  // CHECK: %[[Y:.+]] = fuel.node 0 matmul (%{{.*}}, %{{.*}}) : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<64x256xf32>, %[[B:.+]]: tensor<256x512xf32>):
  // CHECK: linalg.matmul ins(%[[A]], %[[B]]
  // CHECK: fuel.yield %{{.*}} : tensor<64x512xf32>
  %y = fuel.node 0 matmul (%x, %w) : (tensor<64x256xf32>, tensor<256x512xf32>)
      -> tensor<64x512xf32> {
  ^bb0(%a: tensor<64x256xf32>, %b: tensor<256x512xf32>):
    %e = tensor.empty() : tensor<64x512xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
    %m = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x512xf32>)
                       outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
    fuel.yield %m : tensor<64x512xf32>
  }
  // CHECK: return %[[Y]]
  return %y : tensor<64x512xf32>
}

// CHECK-LABEL: func.func @planned
func.func @planned(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: fuel.node 1 elementwise (%{{.*}}) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) pin cpu kernel "cpu.generated.elementwise_f32" on cpu destructive coupling [#fuel.coupling<on = cpu, node = 2, backend = cuda, delta_ns = -7>] alternatives #alts attributes {note = "kept"} {
  %r:2 = fuel.node 1 elementwise (%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x02, device = cpu>,
        [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
           precision = deterministic, cost = <flops = 4, bytes = 32, overhead_ns = 0>,
           time_ns = 1008 static, host_bytes = 48, device_bytes = 0>]>
      on cpu pin cpu destructive kernel "cpu.generated.elementwise_f32"
      coupling [#fuel.coupling<on = cpu, node = 2, backend = cuda, delta_ns = -7>]
      attributes {note = "kept"} {
  ^bb0(%a: tensor<4xf32>):
    %n = arith.negf %a : tensor<4xf32>
    fuel.yield %n, %a : tensor<4xf32>, tensor<4xf32>
  }
  // CHECK: fuel.node 2 generic () : () -> tensor<4xf32> on cuda:0 {
  // CHECK-NEXT: arith.constant
  %c = fuel.node 2 generic () : () -> tensor<4xf32> on cuda:0 {
    %k = arith.constant dense<1.0> : tensor<4xf32>
    fuel.yield %k : tensor<4xf32>
  }
  %d = fuel.copy %c : tensor<4xf32> from cuda:0 to cpu
  return %r#0, %d : tensor<4xf32>, tensor<4xf32>
}

// Node ids are unique per function: another function may reuse them.
// CHECK-LABEL: func.func @reuse
// CHECK: fuel.node 0 transpose
func.func @reuse(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %t = fuel.node 0 transpose (%x) : (tensor<2x3xf32>) -> tensor<3x2xf32> {
  ^bb0(%a: tensor<2x3xf32>):
    %e = tensor.empty() : tensor<3x2xf32>
    %r = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
    fuel.yield %r : tensor<3x2xf32>
  }
  return %t : tensor<3x2xf32>
}
