// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-place | FileCheck %s

// Tests two GPUs without a peer link: A runs on cuda:0, B on cuda:1, and A's
// result is staged through the host: 2 hops of 10,000 + 400 = 20,800 ns.
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
#g1 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:1,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
func.func @staged(%x: tensor<1000xf32> {fuel.residency = #fuel.device<cuda:0>})
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cuda:1>}) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %b = fuel.node 1 elementwise (%a) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g1 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %b : tensor<1000xf32>
}

// CHECK: #fuel.candidate<"cuda.generated.elementwise_f32", {{.*}}device = cuda:1{{.*}}transfer_ns = 20800>
// CHECK-LABEL: func.func @staged
// CHECK-SAME: #fuel.predicted<total = 22800, nodes = 2000, copies = 20800, coupling = 0>
// CHECK: fuel.node 0 {{.*}} on cuda:0
// CHECK: fuel.node 1 {{.*}} on cuda:1
