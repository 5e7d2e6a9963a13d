// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json},func.func(fuel-form-nodes,fuel-annotate-costs))' \
// RUN:   -o /dev/null

// Tests that pricing a node that was never enumerated is an error naming
// the missing pass.

func.func @not_enumerated(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  // expected-error @+1 {{node 0 (elementwise) has no alternatives; run fuel-enumerate-candidates (or fuel-plan) first}}
  %0 = linalg.exp ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  return %0 : tensor<1024xf32>
}

// -----

// Tests that a candidate whose kernel id the registry lacks is an error
// naming it.

func.func @unknown_kernel(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{node 0 (elementwise): candidate 'cpu.generated.elementwise_f16' names no kernel of the registry; re-run fuel-enumerate-candidates}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.elementwise_f16", source = "generated", device = cpu,
           precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 0 static>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that a candidate on a device the topology lacks is an error.

func.func @unknown_device(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{node 0 (elementwise): candidate 'vulkan.generated.elementwise_f32' is on device 'vulkan:0', which the topology does not have}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"vulkan.generated.elementwise_f32", source = "generated",
           device = vulkan:0, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 0 static>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that a node whose kind does not fit its root is an error, not a
// crash: pricing trusts the node's kind and finds no matmul dimensions.

func.func @wrong_kind(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0 (matmul): its root 'linalg.exp' is not a static kernel-bearing op of that kind}}
  %0 = fuel.node 0 matmul (%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      alternatives #fuel.alternatives<
        decision = <op = matmul, dtype = f32, size_class = 0x0, device = cpu>,
        [#fuel.candidate<"cpu.generated.matmul_f32", source = "generated", device = cpu,
           precision = deterministic,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 0 static>]> {
  ^bb0(%x: tensor<4x4xf32>):
    %e = tensor.empty() : tensor<4x4xf32>
    %r = linalg.exp ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuel.yield %r : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}
