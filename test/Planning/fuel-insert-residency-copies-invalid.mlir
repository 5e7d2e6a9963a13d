// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-insert-residency-copies -verify-diagnostics

// Tests that a node without a placement is reported.
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
func.func @unplaced(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  // expected-error @+1 {{node 0 (elementwise) has no placement; run fuel-place first}}
%a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a : tensor<1000xf32>
}

// -----

// Tests that copies whose cost differs from what the placement charged are
// reported: here the function's fuel.predicted_ns was edited by hand.
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
// expected-error @+1 {{the inserted copies cost 20800 ns but the placement charged 5 ns; the function was changed after fuel-place}}
func.func @edited(%x: tensor<1000xf32>) -> tensor<1000xf32>
    attributes {fuel.predicted_ns = #fuel.predicted<total = 1005, nodes = 1000, copies = 5,
      coupling = 0>} {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> on cuda:0
      alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a : tensor<1000xf32>
}

// -----

// Tests that a residency on a device the topology lacks is reported.
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
// expected-error @+1 {{residency of argument #0 is vulkan:0, which is not a device of the topology}}
func.func @bad_residency(%x: tensor<1000xf32> {fuel.residency = #fuel.device<vulkan:0>})
    -> tensor<1000xf32> {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> on cuda:0
      alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a : tensor<1000xf32>
}
