// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place --fuel-insert-residency-copies | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place="placement-algorithm=brute-force" --fuel-insert-residency-copies | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place --fuel-insert-residency-copies | fuel-opt --split-input-file --fuel-place --fuel-insert-residency-copies | FileCheck %s

// The constant rule (SEMANTICS §5, §8): a tensor constant no node cloned is
// load-time data, on every device that reads it, so placement charges it no
// copy and copy insertion makes none. The topology has one GPU linked to
// the host at 10 GB/s with 10 us latency each way, so a hop of b bytes
// costs 10,000 + ceil(b / 10) ns; a tensor<4xf32> is 16 bytes, one hop
// 10,000 + 2 = 10,002 ns. Node 0 costs 1,000 ns on cuda:0 and 1,000,000 ns
// on cpu. Planning the output again gives the same figures.

// Tests that a constant read on cuda:0 costs nothing and gets no copy: x
// lives on cuda:0, the result must end there, and the weights are
// load-time data. All on cuda:0: 1,000 ns of node time, no copy. On cpu the
// node would pay 1,000,000 + 10,002 (x in) + 10,002 (result out).
#gpu = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [
  #fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0, precision = unaudited,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>,
  #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu, precision = deterministic,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
func.func @constant(%x: tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}) -> (tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}) {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %a = fuel.node 0 elementwise (%x, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> alternatives #gpu {
  ^bb0(%i0: tensor<4xf32>, %i1: tensor<4xf32>):
    fuel.yield %i0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// CHECK-NOT: transfer_ns
// CHECK-LABEL: func.func @constant
// CHECK-SAME: fuel.predicted_ns = #fuel.predicted<total = 1000, nodes = 1000, copies = 0, coupling = 0>
// CHECK-NOT: fuel.copy
// CHECK: %[[W:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NOT: fuel.copy
// CHECK: fuel.node 0 elementwise (%{{.+}}, %[[W]]) {{.*}} on cuda:0 next_best cpu (+1019004 ns)
// CHECK-NOT: fuel.copy
// CHECK: return

// -----

// Tests that the same program with the weights as an argument (on cpu, the
// default residency) pays their copy: 1,000 + 10,002 (w in) = 11,002 ns on
// cuda:0; on cpu the node would pay 1,000,000 + 10,002 (x in) + 10,002
// (result out) = 1,020,004, so moving it there adds 1,009,002.
#gpu = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [
  #fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0, precision = unaudited,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>,
  #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu, precision = deterministic,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
func.func @argument(%x: tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}, %w: tensor<4xf32>) -> (tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}) {
  %a = fuel.node 0 elementwise (%x, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> alternatives #gpu {
  ^bb0(%i0: tensor<4xf32>, %i1: tensor<4xf32>):
    fuel.yield %i0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// CHECK: #fuel.candidate<"cuda.generated.elementwise_f32", {{.*}}transfer_ns = 10002>
// CHECK-LABEL: func.func @argument
// CHECK-SAME: fuel.predicted_ns = #fuel.predicted<total = 11002, nodes = 1000, copies = 10002, coupling = 0>
// CHECK: %[[WC:.+]] = fuel.copy %{{.+}} : tensor<4xf32> from cpu to cuda:0
// CHECK: fuel.node 0 elementwise (%{{.+}}, %[[WC]]) {{.*}} on cuda:0 next_best cpu (+1009002 ns)

// -----

// Tests a constant read through a view on two devices: node 0 is fixed on
// cpu, node 1 runs on cuda:0 (1,000 ns there). Neither pays for the
// constant and the view stays on it; only node 0's result goes to cuda:0
// and node 1's back to cpu (2 x 10,002 ns): 1,000,000 + 1,000 + 20,004 =
// 1,021,004, against 2,000,000 with node 1 on cpu.
#cpu = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [
  #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu, precision = deterministic,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
#gpu = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [
  #fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0, precision = unaudited,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>,
  #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu, precision = deterministic,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
func.func @shared(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %v = tensor.extract_slice %w[1, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
  %a = fuel.node 0 elementwise (%x, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> alternatives #cpu {
  ^bb0(%i0: tensor<4xf32>, %i1: tensor<4xf32>):
    fuel.yield %i0 : tensor<4xf32>
  }
  %b = fuel.node 1 elementwise (%a, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> alternatives #gpu {
  ^bb0(%i0: tensor<4xf32>, %i1: tensor<4xf32>):
    fuel.yield %i0 : tensor<4xf32>
  }
  return %b : tensor<4xf32>
}

// CHECK-LABEL: func.func @shared
// CHECK-SAME: fuel.predicted_ns = #fuel.predicted<total = 1021004, nodes = 1001000, copies = 20004, coupling = 0>
// CHECK: %[[W2:.+]] = arith.constant
// CHECK-NOT: fuel.copy %[[W2]]
// CHECK: %[[V:.+]] = tensor.extract_slice %[[W2]]
// CHECK: %[[A:.+]] = fuel.node 0 elementwise (%{{.+}}, %[[V]]) {{.*}} on cpu
// CHECK: %[[AC:.+]] = fuel.copy %[[A]] : tensor<4xf32> from cpu to cuda:0
// CHECK: fuel.node 1 elementwise (%[[AC]], %[[V]]) {{.*}} on cuda:0 next_best cpu (+978996 ns)
