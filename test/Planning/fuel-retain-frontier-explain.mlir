// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(fuel-rank-candidates,fuel-retain-frontier{explain=true}))' \
// RUN:   -o /dev/null

// The explain remark of fuel-retain-frontier: the winner, the best on each
// device (device order), and the runner-up on the decision device with the
// first key of the winner order that separated it.

// Tests the separation by time.
func.func @by_time(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-remark @+1 {{node 0 (elementwise): winner cuda.generated.g on cuda:0; best on cpu: cpu.generated.a (time 100 ns static, precision 0, accuracy 0, bytes 8); best on cuda:0: cuda.generated.g (time 50 ns static, precision 0, accuracy 0, bytes 8); runner-up on cpu: cpu.generated.b, behind cpu.generated.a on time 120 ns vs 100 ns}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 120 static, host_bytes = 4, device_bytes = 0>,
         #fuel.candidate<"cuda.generated.g", source = "generated", device = cuda:0,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 50 static, host_bytes = 0, device_bytes = 8>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests the separation by precision digits.
func.func @by_precision(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-remark @+1 {{node 0 (elementwise): winner cpu.generated.b on cpu; best on cpu: cpu.generated.b (time 100 ns static, precision 9, accuracy 1, bytes 4); runner-up on cpu: cpu.generated.a, behind cpu.generated.b on precision 0 vs 9 digits}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = deterministic, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 4, device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests the separation by accuracy class (ulp = 1: 0 digits, class 3).
func.func @by_accuracy(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-remark @+1 {{runner-up on cpu: cpu.generated.a, behind cpu.generated.b on accuracy class 0 vs 3}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = <ulp = 1>, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests the separation by bytes.
func.func @by_bytes(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-remark @+1 {{runner-up on cpu: cpu.generated.a, behind cpu.generated.b on bytes 8 vs 4}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 4, device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests the separation by registry priority.
func.func @by_priority(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-remark @+1 {{runner-up on cpu: cpu.blis.a, behind cpu.openblas.b on registry priority 10 vs 20}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.blis.a", source = "blis", device = cpu, priority = 10,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cpu.openblas.b", source = "openblas", device = cpu, priority = 20,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests the separation by kernel id, and that a device with one candidate
// has no runner-up.
func.func @by_kernel_id(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-remark @+1 {{runner-up on cpu: cpu.generated.b, behind cpu.generated.a on kernel id order}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// Tests a decision device without candidates: a fallback winner, and no
// runner-up on the decision device.
func.func @no_runner_up(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-remark @+1 {{node 0 (elementwise): winner cpu.generated.a on cpu; best on cpu: cpu.generated.a (time 100 ns static, precision 0, accuracy 0, bytes 8); no runner-up on cuda:0}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cuda:0>,
        [#fuel.candidate<"cpu.generated.a", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 100 static, host_bytes = 8, device_bytes = 0, fallback>,
         #fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 200 static, host_bytes = 8, device_bytes = 0, fallback>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}
