// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place -verify-diagnostics

// Tests that a residency naming a device the topology lacks is an error.
#a = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>]>
// expected-error @+1 {{residency of argument #0 is cuda:3, which is not a device of the topology}}
func.func @unknown_residency(%x: tensor<4xf32> {fuel.residency = #fuel.device<cuda:3>})
    -> tensor<4xf32> {
  %a = fuel.node 0 elementwise (%x) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// Tests that a result residency on an unknown device is an error too.
#a = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>]>
// expected-error @+1 {{residency of result #0 is vulkan:0, which is not a device of the topology}}
func.func @unknown_result_residency(%x: tensor<4xf32>)
    -> (tensor<4xf32> {fuel.residency = #fuel.device<vulkan:0>}) {
  %a = fuel.node 0 elementwise (%x) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// Tests that a node without alternatives cannot be placed.
func.func @no_alternatives(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node 0 (elementwise) has no alternatives; run fuel-enumerate-candidates (or fuel-plan) first}}
  %a = fuel.node 0 elementwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}
