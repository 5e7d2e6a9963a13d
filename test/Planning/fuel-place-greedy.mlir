// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place="placement-algorithm=greedy" | FileCheck %s

// Tests that greedy, deciding B before it knows C will share the copy,
// keeps both on cpu (800,000): the fan-out case separates it from auto.
#fan = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100000 static,
     host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 400000 static, host_bytes = 0, device_bytes = 0>]>
func.func @fanout(%x: tensor<1000x1000xf32>) -> (tensor<10xf32>, tensor<10xf32>) {
  %b = fuel.node 0 elementwise (%x) : (tensor<1000x1000xf32>) -> tensor<10xf32> alternatives #fan {
  ^bb0(%i0: tensor<1000x1000xf32>):
    %e = tensor.empty() : tensor<10xf32>
    fuel.yield %e : tensor<10xf32>
  }
  %c = fuel.node 1 elementwise (%x) : (tensor<1000x1000xf32>) -> tensor<10xf32> alternatives #fan {
  ^bb0(%i0: tensor<1000x1000xf32>):
    %e = tensor.empty() : tensor<10xf32>
    fuel.yield %e : tensor<10xf32>
  }
  return %b, %c : tensor<10xf32>, tensor<10xf32>
}

// CHECK-LABEL: func.func @fanout
// CHECK-SAME: #fuel.predicted<total = 800000, nodes = 800000, copies = 0, coupling = 0>
// CHECK: fuel.node 0 {{.*}} on cpu
// CHECK: fuel.node 1 {{.*}} on cpu
