// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(fuel-retain-frontier))' -o /dev/null

// Tests that retention refuses a set that is not ranked.

func.func @unranked(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{node 0 (elementwise) is not ranked; run fuel-rank-candidates first}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cpu.generated.b", source = "generated", device = cpu,
           precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
           time_ns = 200 static, host_bytes = 8, device_bytes = 0>,
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

// Tests that retention refuses a node without alternatives.

func.func @no_alternatives(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{node 0 (elementwise) has no alternatives; run fuel-enumerate-candidates (or fuel-plan) first}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}
