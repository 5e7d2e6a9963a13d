// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place="placement-algorithm=exact-tree" -verify-diagnostics
// RUN: not fuel-opt %s --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place="placement-algorithm=mincut" 2>&1 | FileCheck %s --check-prefix=MINCUT

// Tests that the exact solvers refuse a function with coupling terms.
// MINCUT: placement algorithm 'mincut' does not handle coupling terms (node 1 has one)
#a = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 500 static,
     host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>]>
#c = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 500 static,
     host_bytes = 0, device_bytes = 0,
     coupling = [#fuel.coupling<node = 0, backend = cuda, delta_ns = -100>]>,
   #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>]>
// expected-error @+1 {{placement algorithm 'exact-tree' does not handle coupling terms (node 1 has one); use 'auto' or 'brute-force'}}
func.func @coupled(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n0 = fuel.node 0 elementwise (%x) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n1 = fuel.node 1 elementwise (%n0) : (tensor<4xf32>) -> tensor<4xf32> alternatives #c {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  return %n1 : tensor<4xf32>
}
