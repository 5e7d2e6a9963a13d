// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   -o /dev/null

// Errors of fuel-enumerate-candidates (SEMANTICS §3 steps 1-4), at the node.

// Tests that an i8 matmul has no backend: the message names the op, its
// dtypes key, the devices present and the registered combinations.

func.func @i8_matmul(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>)
    -> tensor<4x4xi32> {
  // expected-error @+1 {{node 0 (matmul): no backend for op 'matmul' with dtypes (i8,i8->i32) on the admitted devices; devices present: cpu, cuda:0; registered (backend, op, dtypes): (cpu, matmul, f32), (cpu, batch_matmul, f32), (cpu, conv2d, f32), (cpu, pool, f32), (cpu, reduce, f32), (cpu, softmax, f32), (cpu, elementwise, f32), (cpu, transpose, f32), (cpu, generic, f32), (cuda, matmul, f32), (cuda, batch_matmul, f32), (cuda, conv2d, f32), (cuda, pool, f32), (cuda, reduce, f32), (cuda, softmax, f32), (cuda, elementwise, f32), (cuda, transpose, f32), (cuda, generic, f32), (vulkan, matmul, f32), (vulkan, batch_matmul, f32), (vulkan, conv2d, f32), (vulkan, pool, f32), (vulkan, reduce, f32), (vulkan, softmax, f32), (vulkan, elementwise, f32), (vulkan, transpose, f32), (vulkan, generic, f32)}}
  %m = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x4xi8>) outs(%c : tensor<4x4xi32>)
      -> tensor<4x4xi32>
  return %m : tensor<4x4xi32>
}

// -----

// Tests that an f16 matmul has no backend either, pinned or not, and that
// every failing node is reported.

func.func @f16_matmul(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf16>)
    -> (tensor<4x4xf16>, tensor<4x4xf16>) {
  // expected-error @+1 {{node 0 (matmul): no backend for op 'matmul' with dtypes (f16,f16->f16) on the admitted devices; devices present: cpu, cuda:0; registered (backend, op, dtypes): (cpu, matmul, f32)}}
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%c : tensor<4x4xf16>)
      -> tensor<4x4xf16>
  // expected-error @+1 {{node 1 (matmul): no backend for op 'matmul' with dtypes (f16,f16->f16)}}
  %n = linalg.matmul {fuel.pin = #fuel.device<cuda:0>}
      ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%c : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %m, %n : tensor<4x4xf16>, tensor<4x4xf16>
}

// -----

// Tests that a pin naming a device the topology lacks is an error naming
// the device and the devices present.

func.func @pin_not_in_topology(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>)
    -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0 (matmul): decision device 'vulkan:3' is not in the topology (devices: cpu, cuda:0)}}
  %m = linalg.matmul {fuel.pin = #fuel.device<vulkan:3>}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Tests that a node whose kind disagrees with its root op is rejected.

func.func @kind_mismatch(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{node 0 (matmul) is marked 'matmul' but its root 'linalg.exp' is of kind 'elementwise'}}
  %0 = fuel.node 0 matmul (%a) : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that a `fuel.kernel` naming no registered kernel is an error naming
// the node and the kernel, with the kernels registered for the node there.

func.func @kernel_unregistered(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>)
    -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0 (matmul): kernel 'cpu.openblas.matmul_f64' is not registered; the kernels registered for op 'matmul' with dtypes (f32,f32->f32) on the admitted devices (cpu, cuda:0): cpu.blis.matmul_f32, cpu.generated.matmul_f32, cpu.openblas.matmul_f32, cuda.cublas.matmul_f32, cuda.generated.matmul_f32}}
  %m = linalg.matmul {fuel.kernel = "cpu.openblas.matmul_f64"}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Tests that a kernel of another op kind is refused, naming what it is
// registered for.

func.func @kernel_other_op(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>)
    -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0 (matmul): kernel 'cpu.openblas.batch_matmul_f32' is registered for (cpu, batch_matmul, f32), not for op 'matmul' with dtypes (f32,f32->f32) on the admitted devices (cpu, cuda:0); the kernels registered for}}
  %m = linalg.matmul {fuel.kernel = "cpu.openblas.batch_matmul_f32"}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Tests that a kernel of a device the node may not use is refused: the node
// is pinned to cpu, the kernel runs on cuda.

func.func @kernel_not_admitted(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>)
    -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0 (matmul): kernel 'cuda.cublas.matmul_f32' is registered for (cuda, matmul, f32), not for op 'matmul' with dtypes (f32,f32->f32) on the admitted devices (cpu); the kernels registered for op 'matmul' with dtypes (f32,f32->f32) on the admitted devices (cpu): cpu.blis.matmul_f32, cpu.generated.matmul_f32, cpu.openblas.matmul_f32}}
  %m = linalg.matmul {fuel.kernel = "cuda.cublas.matmul_f32", fuel.pin = #fuel.device<cpu>}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Tests that a kernel on an op with no backend at all names the kernel in
// the NoBackendForOp message.

func.func @kernel_no_backend(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf16>)
    -> tensor<4x4xf16> {
  // expected-error @+1 {{node 0 (matmul) (kernel 'cpu.generated.matmul_f16'): no backend for op 'matmul' with dtypes (f16,f16->f16)}}
  %m = linalg.matmul {fuel.kernel = "cpu.generated.matmul_f16"}
      ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%c : tensor<4x4xf16>) -> tensor<4x4xf16>
  return %m : tensor<4x4xf16>
}
