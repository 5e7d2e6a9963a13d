// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-place --fuel-insert-residency-copies | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-place --fuel-insert-residency-copies -o %t.once
// RUN: fuel-opt %t.once --split-input-file --fuel-place --fuel-insert-residency-copies -o %t.twice
// RUN: diff %t.once %t.twice

// Copy insertion (SEMANTICS §5, §8) on a host and two GPUs without a peer
// link, each linked to the host at 10 GB/s with 10 us latency. Nodes with
// candidates on one device only are fixed there, so each case's placement
// is known. Placing and copying again gives the same IR (the second and
// third RUN lines). In every case the pass checks that the copies cost what
// fuel-place charged (fuel.predicted_ns).

// Tests fan-out to one device: x lives on cpu and two nodes on cuda:0 read
// it; one copy serves both.
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
func.func @fanout_one(%x: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %b = fuel.node 1 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a, %b : tensor<1000xf32>, tensor<1000xf32>
}

// CHECK-LABEL: func.func @fanout_one(%arg0
// CHECK-NEXT: %[[X:.+]] = fuel.copy %arg0 : tensor<1000xf32> from cpu to cuda:0
// CHECK-NOT: fuel.copy %arg0
// CHECK: fuel.node 0 elementwise (%[[X]])
// CHECK: fuel.node 1 elementwise (%[[X]])

// -----

// Tests fan-out to two devices: a value on cpu read on cuda:0 and cuda:1
// gets one direct copy per device, in device order.
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
func.func @fanout_two(%x: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %b = fuel.node 1 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g1 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a, %b : tensor<1000xf32>, tensor<1000xf32>
}

// CHECK-LABEL: func.func @fanout_two(%arg0
// CHECK-NEXT: %[[X0:.+]] = fuel.copy %arg0 : tensor<1000xf32> from cpu to cuda:0
// CHECK-NEXT: %[[X1:.+]] = fuel.copy %arg0 : tensor<1000xf32> from cpu to cuda:1
// CHECK: fuel.node 0 elementwise (%[[X0]])
// CHECK: fuel.node 1 elementwise (%[[X1]])

// -----

// Tests staging with a shared host hop: A's result on cuda:0 is read on
// cuda:1 (no peer link) and by a node on cpu. The hop to the host is made
// once and serves both the cpu reader and the hop on to cuda:1.
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
#c = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>]>
func.func @staged(%x: tensor<1000xf32> {fuel.residency = #fuel.device<cuda:0>})
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cuda:1>}, tensor<1000xf32>) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %b = fuel.node 1 elementwise (%a) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g1 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %c = fuel.node 2 elementwise (%a) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #c {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %b, %c : tensor<1000xf32>, tensor<1000xf32>
}

// CHECK-LABEL: func.func @staged
// CHECK: %[[A:.+]] = fuel.node 0
// CHECK: %[[H:.+]] = fuel.copy %[[A]] : tensor<1000xf32> from cuda:0 to cpu
// CHECK-NEXT: %[[D:.+]] = fuel.copy %[[H]] : tensor<1000xf32> from cpu to cuda:1
// CHECK-NOT: fuel.copy %[[A]]
// CHECK: fuel.node 1 elementwise (%[[D]])
// CHECK: fuel.node 2 elementwise (%[[H]])

// -----

// Tests a host consumer of a staged value: a func.call (a host op) and a
// node on cuda:1 read A's result from cuda:0; both use the one hop to the
// host.
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
func.func private @host(tensor<1000xf32>) -> tensor<1000xf32>
func.func @host_reader(%x: tensor<1000xf32> {fuel.residency = #fuel.device<cuda:0>})
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cuda:1>}, tensor<1000xf32>) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %h = func.call @host(%a) : (tensor<1000xf32>) -> tensor<1000xf32>
  %b = fuel.node 1 elementwise (%a) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g1 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %b, %h : tensor<1000xf32>, tensor<1000xf32>
}

// CHECK-LABEL: func.func @host_reader
// CHECK: %[[A:.+]] = fuel.node 0
// CHECK: %[[H:.+]] = fuel.copy %[[A]] : tensor<1000xf32> from cuda:0 to cpu
// CHECK-NEXT: %[[D:.+]] = fuel.copy %[[H]] : tensor<1000xf32> from cpu to cuda:1
// CHECK: call @host(%[[H]])
// CHECK: fuel.node 1 elementwise (%[[D]])

// -----

// Tests a returned value: A runs on cuda:0 and its result must end on the
// result's residency, cpu.
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
func.func @returned(%x: tensor<1000xf32>)
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cpu>}) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a : tensor<1000xf32>
}

// CHECK-LABEL: func.func @returned
// CHECK: %[[A:.+]] = fuel.node 0
// CHECK: %[[R:.+]] = fuel.copy %[[A]] : tensor<1000xf32> from cuda:0 to cpu
// CHECK-NEXT: return %[[R]]

// -----

// Tests a view of a moved value: the copy moves x, the root, and the
// strided slice is re-made on cuda:0; the original slice, now unread, is
// gone. A cpu reader of the same slice keeps the original.
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
#c = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>]>
func.func @view(%x: tensor<2000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>) {
  %s = tensor.extract_slice %x[0] [1000] [2] : tensor<2000xf32> to tensor<1000xf32>
  %a = fuel.node 0 elementwise (%s) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %b = fuel.node 1 elementwise (%s) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #c {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a, %b : tensor<1000xf32>, tensor<1000xf32>
}

// CHECK-LABEL: func.func @view(%arg0
// CHECK-NEXT: %[[X:.+]] = fuel.copy %arg0 : tensor<2000xf32> from cpu to cuda:0
// CHECK-NEXT: %[[S:.+]] = tensor.extract_slice %arg0[0] [1000] [2]
// CHECK-NEXT: %[[SX:.+]] = tensor.extract_slice %[[X]][0] [1000] [2]
// CHECK-NEXT: fuel.node 0 elementwise (%[[SX]])
// CHECK: fuel.node 1 elementwise (%[[S]])
