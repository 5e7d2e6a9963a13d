// RUN: fuel-opt %s --split-input-file --fuel-outline-kernels -verify-diagnostics

#gm = #fuel.candidate<"cpu.generated.matmul_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x1234, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>
#am = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#gm]>

// Tests that a node without a placement is refused.
func.func @unplanned(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0 is not placed (no 'on' clause): run fuel-plan before outlining}}
  %y = fuel.node 0 matmul (%x, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> alternatives #am {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %m : tensor<4x4xf32>
  }
  return %y : tensor<4x4xf32>
}

// -----

// Tests that a placed node without alternatives is refused.
func.func @no_alternatives(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0 has no alternatives: its kernel is unknown}}
  %y = fuel.node 0 matmul (%x, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> on cpu {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %m : tensor<4x4xf32>
  }
  return %y : tensor<4x4xf32>
}

// -----

#gx = #fuel.candidate<"cpu.generated.matmul_f99", source = "generated", backend = cpu, device = cpu, revision = 0x1, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>
#ax = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#gx]>

// Tests that a winner the kernel registry does not know is refused.
func.func @unknown_kernel(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0: the winner's kernel 'cpu.generated.matmul_f99' is not in the kernel registry}}
  %y = fuel.node 0 matmul (%x, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> on cpu alternatives #ax {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %m : tensor<4x4xf32>
  }
  return %y : tensor<4x4xf32>
}

// -----

// Tests that calls are refused at the call.
func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot be lowered: calls are not outlined (inline the callee first)}}
  %y = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Tests that an op fuel does not compile is refused at the op.
func.func @unknown() -> tensor<4xf32> {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{cannot be lowered: 'tensor.splat' is not a node, view, copy, constant or host op fuel compiles}}
  %y = tensor.splat %c : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

#ob = #fuel.candidate<"cpu.openblas.matmul_f32", source = "openblas", backend = cpu, device = cpu, revision = 0x99, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 500 static, host_bytes = 0, device_bytes = 0>
#ao = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#ob]>

// Tests that a library winner the shim cannot express (C += A·B) is refused,
// naming the kernel.
func.func @accumulate(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0: kernel 'cpu.openblas.matmul_f32' cannot express this node: the shim computes C = op(A)·op(B) with beta 0, and the destination is not a zero fill}}
  %y = fuel.node 0 matmul (%x, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> on cpu alternatives #ao {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>):
    %z = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %m : tensor<4x4xf32>
  }
  return %y : tensor<4x4xf32>
}

// -----

#gm = #fuel.candidate<"cpu.generated.matmul_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x1234, precision = unaudited, cost = <flops = 1, bytes = 1, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>
#am = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>, [#gm]>

// Tests that a payload reading an uninitialised (tensor.empty) destination
// is refused.
func.func @undefined_destination(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{result #0 is computed by 'linalg.matmul', whose payload reads its destination, a tensor.empty: the output would start undefined}}
  %y = fuel.node 0 matmul (%x, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> on cpu alternatives #am {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>):
    %e = tensor.empty() : tensor<4x4xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %m : tensor<4x4xf32>
  }
  return %y : tensor<4x4xf32>
}

// -----

// Tests that a non-constant scalar a kernel would read is refused.
func.func @scalar_argument(%x: tensor<2x3xf32>, %v: f32) -> tensor<4x7xf32> {
  // expected-error @+1 {{reads the scalar 'f32' of a function argument, which is not a constant: kernels take no scalar bindings}}
  %p = tensor.pad %x low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<4x7xf32>
  return %p : tensor<4x7xf32>
}

// -----

// Tests that a tensor.empty read outside a kernel (here: returned) is
// refused: it has no contents to return.
func.func @empty_returned() -> tensor<4xf32> {
  // expected-error @+1 {{cannot be lowered: a tensor.empty read outside a kernel (by 'func.return') has no contents}}
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}
