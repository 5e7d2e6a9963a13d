// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place="explain=true" -verify-diagnostics -o /dev/null

// Tests the explanation remarks of fuel-place: per node, its device, kernel,
// time and inbound transfers, and what moving it alone would cost, or a
// remark for a node with only one admitted device.

// Tests SEMANTICS §5's worked example: A and B cost 1,000,000 ns on cpu and
// 100,000 ns on cuda:0; every hop of a 4,000,000-byte value costs 10,000 +
// 400,000 = 410,000 ns. All-cuda is optimal: 200,000 + 410,000 (x in) +
// 410,000 (result out) = 1,020,000; moving either node alone to cpu adds
// 900,000.
#ab = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100000 static,
     host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
func.func @worked(%x: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  // expected-remark @+1 {{node 0 (elementwise): placed on cuda:0 (cuda.generated.elementwise_f32, 100000 ns, inbound transfers 410000 ns); moving it alone to cpu would change the total by +900000 ns}}
  %a = fuel.node 0 elementwise (%x) : (tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
      alternatives #ab {
  ^bb0(%i0: tensor<1000x1000xf32>):
    fuel.yield %i0 : tensor<1000x1000xf32>
  }
  // expected-remark @+1 {{node 1 (elementwise): placed on cuda:0 (cuda.generated.elementwise_f32, 100000 ns, inbound transfers 0 ns); moving it alone to cpu would change the total by +900000 ns}}
  %b = fuel.node 1 elementwise (%a) : (tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
      alternatives #ab {
  ^bb0(%i0: tensor<1000x1000xf32>):
    fuel.yield %i0 : tensor<1000x1000xf32>
  }
  return %b : tensor<1000x1000xf32>
}

// -----

// Tests pinned and destructive nodes: phase A admits only their decision
// device, so they stay there even when the GPU would be faster, and have no
// next best device. The free node in between still moves.
#pinned = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
#free = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
func.func @fixed(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  // expected-remark @+1 {{node 0 (elementwise): placed on cpu (cpu.generated.elementwise_f32, 1000000 ns, inbound transfers 0 ns); it has no other admitted device}}
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> pin cpu
      alternatives #pinned {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  // expected-remark @+1 {{node 1 (elementwise): placed on cuda:0}}
  %b = fuel.node 1 elementwise (%a) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #free {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  // expected-remark @+1 {{node 2 (elementwise): placed on cpu}}
  %c = fuel.node 2 elementwise (%b) : (tensor<1000xf32>) -> tensor<1000xf32> destructive
      alternatives #pinned {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %c : tensor<1000xf32>
}

