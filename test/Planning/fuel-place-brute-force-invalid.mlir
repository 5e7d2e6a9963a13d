// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place="placement-algorithm=brute-force" -verify-diagnostics

// Tests that brute force refuses more than 14 free nodes, naming the limit
// and the count.
#a = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 500 static,
     host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>]>
// expected-error @+1 {{cannot place function 'fifteen': placement algorithm 'brute-force' handles at most 14 free nodes; this function has 15}}
func.func @fifteen(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n0 = fuel.node 0 elementwise (%x) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n1 = fuel.node 1 elementwise (%n0) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n2 = fuel.node 2 elementwise (%n1) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n3 = fuel.node 3 elementwise (%n2) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n4 = fuel.node 4 elementwise (%n3) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n5 = fuel.node 5 elementwise (%n4) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n6 = fuel.node 6 elementwise (%n5) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n7 = fuel.node 7 elementwise (%n6) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n8 = fuel.node 8 elementwise (%n7) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n9 = fuel.node 9 elementwise (%n8) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n10 = fuel.node 10 elementwise (%n9) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n11 = fuel.node 11 elementwise (%n10) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n12 = fuel.node 12 elementwise (%n11) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n13 = fuel.node 13 elementwise (%n12) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  %n14 = fuel.node 14 elementwise (%n13) : (tensor<4xf32>) -> tensor<4xf32> alternatives #a {
  ^bb0(%i: tensor<4xf32>):
    fuel.yield %i : tensor<4xf32>
  }
  return %n14 : tensor<4xf32>
}
