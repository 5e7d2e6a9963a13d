// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope --pass-pipeline='builtin.module(func.func(fuel-rank-candidates))' | FileCheck %s
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope --pass-pipeline='builtin.module(func.func(fuel-rank-candidates,fuel-rank-candidates))' | FileCheck %s

// The winner order of SEMANTICS §6 on hand-written alternative sets (ranking
// reads nothing but the set, so no topology is needed): lower time; higher
// precision digits; higher accuracy class; lower total bytes; higher
// registry priority; the decision device; device order; kernel id. Each
// function isolates one key; ranking twice changes nothing.

// Tests that lower time comes first, whatever the input order.

// CHECK-LABEL: func.func @time
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: [#fuel.candidate<"cpu.a.k"{{[^#]*}}#fuel.candidate<"cpu.b.k"{{[^#]*}}#fuel.candidate<"cpu.c.k"{{[^#]*}}]> {
func.func @time(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.c.k", source = "generated", device = cpu, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 300 static, host_bytes = 8,
           device_bytes = 0>,
         #fuel.candidate<"cpu.a.k", source = "generated", device = cpu, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 8,
           device_bytes = 0>,
         #fuel.candidate<"cpu.b.k", source = "generated", device = cpu, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 200 static, host_bytes = 8,
           device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that at equal time more precision digits win (deterministic: 9),
// then the higher accuracy class (ulp = 2: 0 digits, class 3, beats
// unaudited: 0 digits, class 0).

// CHECK-LABEL: func.func @precision_accuracy
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: [#fuel.candidate<"cpu.b.k"{{[^#]*}}#fuel.candidate<"cpu.c.k"{{[^#]*}}#fuel.candidate<"cpu.a.k"{{[^#]*}}]> {
func.func @precision_accuracy(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.a.k", source = "generated", device = cpu, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 8,
           device_bytes = 0>,
         #fuel.candidate<"cpu.b.k", source = "generated", device = cpu, precision = deterministic,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 8,
           device_bytes = 0>,
         #fuel.candidate<"cpu.c.k", source = "generated", device = cpu, precision = <ulp = 2>,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 8,
           device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that at equal time and precision fewer total bytes (host + device,
// whatever the tier) come first.

// CHECK-LABEL: func.func @bytes
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: [#fuel.candidate<"cpu.c.k"{{[^#]*}}#fuel.candidate<"cuda.b.k"{{[^#]*}}#fuel.candidate<"cpu.a.k"{{[^#]*}}]> {
func.func @bytes(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.a.k", source = "generated", device = cpu, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 64,
           device_bytes = 0>,
         #fuel.candidate<"cuda.b.k", source = "generated", device = cuda:0, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 0,
           device_bytes = 32>,
         #fuel.candidate<"cpu.c.k", source = "generated", device = cpu, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 16,
           device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that, equal up to bytes, the higher registry priority comes first.

// CHECK-LABEL: func.func @priority
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: [#fuel.candidate<"cpu.b.k"{{[^#]*}}#fuel.candidate<"cpu.a.k"{{[^#]*}}#fuel.candidate<"cpu.c.k"{{[^#]*}}]> {
func.func @priority(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.a.k", source = "blis", device = cpu, priority = 10,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cpu.b.k", source = "openblas", device = cpu, priority = 20,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cpu.c.k", source = "generated", device = cpu, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 8,
           device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests that, equal up to priority, the decision device (cuda:1) comes
// first, then device order (cpu < cuda:0 < vulkan:0), then kernel id.

// CHECK-LABEL: func.func @devices
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: [#fuel.candidate<"cuda.y.k"{{[^#]*}}#fuel.candidate<"cpu.x.k"{{[^#]*}}#fuel.candidate<"cuda.b.k"{{[^#]*}}#fuel.candidate<"cuda.z.k"{{[^#]*}}#fuel.candidate<"vulkan.a.k"{{[^#]*}}]> {
func.func @devices(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cuda:1>,
        [#fuel.candidate<"vulkan.a.k", source = "generated", device = vulkan:0,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 0, device_bytes = 8>,
         #fuel.candidate<"cuda.z.k", source = "generated", device = cuda:0, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 0,
           device_bytes = 8>,
         #fuel.candidate<"cuda.y.k", source = "generated", device = cuda:1, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 0,
           device_bytes = 8>,
         #fuel.candidate<"cpu.x.k", source = "generated", device = cpu, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 8,
           device_bytes = 0>,
         #fuel.candidate<"cuda.b.k", source = "generated", device = cuda:0, precision = unaudited,
           cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 100 static, host_bytes = 0,
           device_bytes = 8>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}
