// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place="placement-algorithm=exact-tree" -verify-diagnostics | FileCheck %s

// Tests that exact-tree on a graph that is not an in-forest (a diamond: A's
// result has two readers) says its result is not known to be optimal, and
// still returns a valid placement (here the optimum).
// Tests a diamond A -> (B, C) -> D where B and C are cheap on the GPU and A
// and D on the host: A's result is copied to cuda:0 once for both readers
// (10,400), and B's and C's results come back (10,400 each). Total: 4 x
// 1,000 + 3 x 10,400 = 35,200; keeping B or C on cpu costs 1,000,000 more.
#cheapcpu = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 50000 static,
     host_bytes = 0, device_bytes = 0>]>
#cheapgpu = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
// expected-remark @+1 {{placement of 'diamond' is not known to be optimal: the graph is not an in-forest, so exact-tree priced each (value, consumer) edge separately}}
func.func @diamond(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32>
      alternatives #cheapcpu {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %b = fuel.node 1 elementwise (%a) : (tensor<1000xf32>) -> tensor<1000xf32>
      alternatives #cheapgpu {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %c = fuel.node 2 elementwise (%a) : (tensor<1000xf32>) -> tensor<1000xf32>
      alternatives #cheapgpu {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %d = fuel.node 3 elementwise (%b, %c) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
      alternatives #cheapcpu {
  ^bb0(%i0: tensor<1000xf32>, %i1: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %d : tensor<1000xf32>
}

// CHECK-LABEL: func.func @diamond
// CHECK-SAME: #fuel.predicted<total = 35200, nodes = 4000, copies = 31200, coupling = 0>
