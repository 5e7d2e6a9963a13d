// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   -o /dev/null

// Tests that enumeration without fuel-attach-topology reports the missing
// `fuel.topology` at the function.

// expected-error @+1 {{the enclosing module has no 'fuel.topology'; run fuel-attach-topology (or fuel-plan) first}}
func.func @no_topology(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %0 = linalg.exp ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  return %0 : tensor<1024xf32>
}

// -----

// Tests that a module carrying a topology but no `fuel.config` is reported
// too.

module attributes {fuel.topology = #fuel.topology<
    hash = 0x13e846a390964660,
    devices = [<cpu, name = "8-core x86-64 host, AVX2", cpu_type,
      peak = {f32 = 3.200000e+01, f64 = 1.600000e+01}, bytes_per_ns = 2.000000e+01,
      dispatch_ns = 2000, memory = 34359738368, alignment = 64>],
    links = []>} {
  // expected-error @+1 {{the enclosing module has no 'fuel.config'; run fuel-attach-topology (or fuel-plan) first}}
  func.func @no_config(%a: tensor<1024xf32>) -> tensor<1024xf32> {
    %e = tensor.empty() : tensor<1024xf32>
    %0 = linalg.exp ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}

// -----

// Tests that a function without nodes needs no topology.

func.func @no_nodes(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  return %a : tensor<1024xf32>
}
