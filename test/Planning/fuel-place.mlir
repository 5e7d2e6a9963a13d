// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place="placement-algorithm=brute-force" | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place --fuel-place | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place | fuel-opt --split-input-file | FileCheck %s

// Small graphs whose optimum is checked by hand (SEMANTICS §5). The topology
// has one GPU linked to the host at 10 GB/s with 10 us latency each way, so
// a hop of b bytes costs 10,000 + ceil(b / 10) ns. Candidates are written
// out so each node's time per device is exact. Auto and brute force agree
// on every case, and placing placed IR again changes nothing.

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
  %a = fuel.node 0 elementwise (%x) : (tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
      alternatives #ab {
  ^bb0(%i0: tensor<1000x1000xf32>):
    fuel.yield %i0 : tensor<1000x1000xf32>
  }
  %b = fuel.node 1 elementwise (%a) : (tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
      alternatives #ab {
  ^bb0(%i0: tensor<1000x1000xf32>):
    fuel.yield %i0 : tensor<1000x1000xf32>
  }
  return %b : tensor<1000x1000xf32>
}

// CHECK-LABEL: func.func @worked
// CHECK-SAME: fuel.predicted_ns = #fuel.predicted<total = 1020000, nodes = 200000, copies = 820000, coupling = 0>
// CHECK: fuel.node 0 elementwise {{.*}} on cuda:0 next_best cpu (+900000 ns)
// CHECK: fuel.node 1 elementwise {{.*}} on cuda:0 next_best cpu (+900000 ns)

// -----

// Tests a chain that goes CPU -> GPU -> CPU: only B is cheaper on the GPU,
// and its 4,000-byte operand and result cost 10,000 + 400 = 10,400 ns per
// hop. Total: 1,000 + 1,000 + 1,000 + 2 x 10,400 = 23,800.
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
func.func @chain(%x: tensor<1000xf32>) -> tensor<1000xf32> {
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
  %c = fuel.node 2 elementwise (%b) : (tensor<1000xf32>) -> tensor<1000xf32>
      alternatives #cheapcpu {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %c : tensor<1000xf32>
}

// CHECK: #fuel.candidate<"cuda.generated.elementwise_f32", {{.*}}device = cuda:0{{.*}}time_ns = 1000 static{{.*}}transfer_ns = 10400>
// CHECK-LABEL: func.func @chain
// CHECK-SAME: #fuel.predicted<total = 23800, nodes = 3000, copies = 20800, coupling = 0>
// CHECK: fuel.node 0 {{.*}} on cpu
// CHECK: fuel.node 1 {{.*}} on cuda:0
// CHECK: fuel.node 2 {{.*}} on cpu

// -----

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
// CHECK: fuel.node 0 {{.*}} on cpu
// CHECK: fuel.node 1 {{.*}} on cuda:0
// CHECK: fuel.node 2 {{.*}} on cuda:0
// CHECK: fuel.node 3 {{.*}} on cpu

// -----

// Tests fan-out: x (4,000,000 bytes, on cpu) is read by B and C, each
// 300,000 ns cheaper on cuda:0. Copying x there once (410,000) serves both,
// so both move: 200,000 + 410,000 + 2 x 10,004 (40-byte results back) =
// 630,008 < 800,000 on cpu. Paying per edge (820,000) would keep them on cpu.
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
// CHECK-SAME: #fuel.predicted<total = 630008, nodes = 200000, copies = 430008, coupling = 0>
// CHECK: fuel.node 0 {{.*}} on cuda:0
// CHECK: fuel.node 1 {{.*}} on cuda:0

// -----

// Tests a returned value with a residency: the result must end on cuda:0,
// so the node, 1,000 ns cheaper on cpu, still runs on cuda:0 (copying the
// 4,000-byte result would cost 10,400).
#near = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 2000 static,
     host_bytes = 0, device_bytes = 0>]>
func.func @residency(%x: tensor<1000xf32> {fuel.residency = #fuel.device<cuda:0>})
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cuda:0>}) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #near {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a : tensor<1000xf32>
}

// CHECK-LABEL: func.func @residency
// CHECK-SAME: #fuel.predicted<total = 2000, nodes = 2000, copies = 0, coupling = 0>
// CHECK: fuel.node 0 {{.*}} on cuda:0 next_best cpu (+19800 ns)

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
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> pin cpu
      alternatives #pinned {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %b = fuel.node 1 elementwise (%a) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #free {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %c = fuel.node 2 elementwise (%b) : (tensor<1000xf32>) -> tensor<1000xf32> destructive
      alternatives #pinned {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %c : tensor<1000xf32>
}

// CHECK-LABEL: func.func @fixed
// CHECK: fuel.node 0 {{.*}} pin cpu on cpu alternatives
// CHECK: fuel.node 1 {{.*}} on cuda:0 next_best cpu
// CHECK: fuel.node 2 {{.*}} on cpu destructive alternatives

// -----

// Tests a coupling adjustment that flips a choice: B alone prefers cpu
// (1,000 vs 30,000 ns, and its 40-byte operand and result hops), but its
// cuda:0 candidate saves 50,000 ns when A is on cuda:0 too, where A already
// runs. Brute force and auto honour the term: B moves to cuda:0.
#a = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
#b = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu,
     precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
     time_ns = 1000 static, host_bytes = 0, device_bytes = 0>,
   #fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 30000 static,
     host_bytes = 0, device_bytes = 0,
     coupling = [#fuel.coupling<node = 0, device = cuda:0, delta_ns = -50000>]>]>
func.func @coupling(%x: tensor<10xf32>) -> tensor<10xf32> {
  %a = fuel.node 0 elementwise (%x) : (tensor<10xf32>) -> tensor<10xf32> alternatives #a {
  ^bb0(%i0: tensor<10xf32>):
    fuel.yield %i0 : tensor<10xf32>
  }
  %b = fuel.node 1 elementwise (%a) : (tensor<10xf32>) -> tensor<10xf32> alternatives #b {
  ^bb0(%i0: tensor<10xf32>):
    fuel.yield %i0 : tensor<10xf32>
  }
  return %b : tensor<10xf32>
}

// CHECK-LABEL: func.func @coupling
// CHECK-SAME: #fuel.predicted<total = 1008, nodes = 31000, copies = 20008, coupling = -50000>
// CHECK: fuel.node 0 {{.*}} on cuda:0
// CHECK: fuel.node 1 {{.*}} on cuda:0
