// RUN: fuel-opt %s --split-input-file --verify-diagnostics

// Tests that every verifier and parser of the fuel dialect rejects bad input
// with a message that says what is wrong, at the offending location.

// expected-error @+1 {{unknown device kind 'tpu'; expected 'cpu', 'cuda:N' or 'vulkan:N'}}
func.func @f() attributes {d = #fuel.device<tpu:0>} { return }

// -----

// expected-error @+1 {{device ordinal must be non-negative, got -1}}
func.func @f() attributes {d = #fuel.device<cuda:-1>} { return }

// -----

// expected-error @+1 {{the host device 'cpu' takes no ordinal; write 'cpu'}}
func.func @f() attributes {d = #fuel.device<cpu:1>} { return }

// -----

// expected-error @+1 {{device kind 'vulkan' needs an ordinal, e.g. 'vulkan:0'}}
func.func @f() attributes {d = #fuel.device<vulkan>} { return }

// -----

// expected-error @+1 {{cost field 'bytes' must be non-negative, got -20}}
func.func @f() attributes {c = #fuel.cost<flops = 1, bytes = -20, overhead_ns = 0>} { return }

// -----

// expected-error @+1 {{precision bound 'ulp' must be non-negative, got -1}}
func.func @f() attributes {p = #fuel.precision<bit_stable, ulp = -1>} { return }

// -----

// expected-error @+1 {{precision bound 'rel' must be non-negative, got -1.000000e-03}}
func.func @f() attributes {p = #fuel.precision<rel = -1.0e-3>} { return }

// -----

// expected-error @+1 {{precision bound 'abs' must be non-negative, got -2.000000e+00}}
func.func @f() attributes {p = #fuel.precision<abs = -2.0>} { return }

// -----

// expected-error @+1 {{unknown precision field 'ulps'; expected one of: reference, deterministic, unaudited, bit_stable, ulp, rel, abs, note}}
func.func @f() attributes {p = #fuel.precision<ulps = 1>} { return }

// -----

// expected-error @+1 {{precision preset 'reference' must come first}}
func.func @f() attributes {p = #fuel.precision<bit_stable, reference>} { return }

// -----

// expected-error @+1 {{unknown op kind 'conv3d'; expected one of: matmul, batch_matmul, conv2d, pool, reduce, softmax, elementwise, transpose, generic}}
func.func @f() attributes {d = #fuel.decision<op = conv3d, dtype = f32, size_class = 0,
    device = cpu>} { return }

// -----

// expected-error @+1 {{decision is missing field 'device'}}
func.func @f() attributes {d = #fuel.decision<op = matmul, dtype = f32, size_class = 0>} { return }

// -----

// expected-error @+1 {{duplicate decision field 'dtype'}}
func.func @f() attributes {d = #fuel.decision<op = matmul, dtype = f32, dtype = f16, size_class = 0,
    device = cpu>} { return }

// -----

// expected-error @+1 {{coupling node id must be non-negative, got -3}}
func.func @f() attributes {c = #fuel.coupling<node = -3, device = cpu, delta_ns = 1>} { return }

// -----

// expected-error @+1 {{coupling is missing its condition: 'device = ...' or 'backend = ...'}}
func.func @f() attributes {c = #fuel.coupling<node = 3, delta_ns = 1>} { return }

// -----

// expected-error @+1 {{a coupling has one condition: a device or a backend}}
func.func @f() attributes {c = #fuel.coupling<node = 3, device = cpu, backend = cuda,
    delta_ns = 1>} { return }

// -----

// expected-error @+1 {{unknown backend 'metal'; expected 'cpu', 'cuda' or 'vulkan'}}
func.func @f() attributes {c = #fuel.coupling<node = 3, backend = metal, delta_ns = 1>} { return }

// -----

// expected-error @+1 {{candidate 'k' has backend 'cuda' but its device 'cpu' is of kind 'cpu'}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", backend = cuda,
    device = cpu, precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
    time_ns = 1 static>} { return }

// -----

// expected-error @+1 {{candidate is missing field 'cost'}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", device = cpu,
    precision = unaudited, time_ns = 1 static>} { return }

// -----

// expected-error @+1 {{unknown candidate field 'speed'; expected one of: source, backend, device, caps, revision, priority, precision, cost, time_ns, noise_ns, static_time_ns, host_bytes, device_bytes, transfer_ns, params, coupling, fallback}}
func.func @f() attributes {c = #fuel.candidate<"k", speed = 3>} { return }

// -----

// expected-error @+1 {{candidate 'k' field 'host_bytes' must be non-negative, got -8}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", device = cpu,
    precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1 static,
    host_bytes = -8>} { return }

// -----

// Tests that only a measured time carries a noise and a Layer-1 time.

// expected-error @+1 {{candidate 'k' has 'noise_ns' or 'static_time_ns' but its time is not measured}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", device = cpu,
    precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1 static,
    noise_ns = 2>} { return }

// -----

// expected-error @+1 {{candidate 'k' field 'noise_ns' must be non-negative, got -2}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", device = cpu,
    precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1 measured,
    noise_ns = -2, static_time_ns = 5>} { return }

// -----

// expected-error @+3 {{unknown time source 'guessed'; expected 'static' or 'measured'}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", device = cpu,
    precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
    time_ns = 1 guessed>} { return }

// -----

// expected-error @+1 {{candidate kernel id must not be empty}}
func.func @f() attributes {c = #fuel.candidate<"", source = "generated", device = cpu,
    precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
    time_ns = 1 static>} { return }

// -----

// expected-error @+1 {{candidate 'k' coupling applies to the candidate's own device; remove 'on'}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", device = cpu,
    precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1 static,
    coupling = [#fuel.coupling<on = cpu, node = 1, device = cpu, delta_ns = 1>]>} { return }

// -----

// expected-error @+1 {{alternative #1 repeats kernel 'k' on device 'cpu'}}
func.func @f() attributes {a = #fuel.alternatives<
    decision = <op = matmul, dtype = f32, size_class = 0, device = cpu>,
    [#fuel.candidate<"k", source = "generated", device = cpu, precision = unaudited,
       cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1 static>,
     #fuel.candidate<"k", source = "generated", device = cpu, precision = unaudited,
       cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 2 static>]>} { return }

// -----

// expected-error @+1 {{an alternative set needs at least one candidate (index 0 is the winner)}}
func.func @f() attributes {a = #fuel.alternatives<
    decision = <op = matmul, dtype = f32, size_class = 0, device = cpu>, []>} { return }

// -----

// expected-error @+1 {{invalid topology: a topology needs exactly one 'cpu' device (the host), found 0}}
module attributes {fuel.topology = #fuel.topology<devices = [<cuda:0, peak = {f32 = 1.0}>]>} {}

// -----

// expected-error @+1 {{invalid topology: duplicate device 'cpu'}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cpu>]>} {}

// -----

// expected-error @+1 {{invalid topology: link to unknown device 'cuda:1'}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0>],
    links = [<cpu -> cuda:1, bandwidth = 1, latency_ns = 1, class = peer>]>} {}

// -----

// expected-error @+2 {{link from 'cpu' to itself}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>],
    links = [<cpu -> cpu, bandwidth = 1, latency_ns = 1, class = peer>]>} {}

// -----

// expected-error @+2 {{link 'cpu' -> 'cuda:0' needs a positive bandwidth}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0>],
    links = [<cpu -> cuda:0, bandwidth = 0, latency_ns = 1, class = peer>]>} {}

// -----

// expected-error @+2 {{unknown path class 'pcie'; expected 'peer', 'shared-memory' or 'device-copy'}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0>],
    links = [<cpu -> cuda:0, bandwidth = 1, latency_ns = 1, class = pcie>]>} {}

// -----

// expected-error @+1 {{topology hash 0x0000000000000001 does not match its content (expected 0x}}
module attributes {fuel.topology = #fuel.topology<hash = 1, devices = [<cpu>]>} {}

// -----

// expected-error @+1 {{peak figure 'f32' of device 'cpu' must be a finite, non-negative f64 (flop/ns)}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, peak = {f32 = -1.0}>]>} {}

// -----

// expected-error @+1 {{device 'cpu' needs an alignment that is a power of two}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, alignment = 48>]>} {}

// -----

// expected-error @+1 {{invalid cpu_target of device 'cpu': feature "avx2" of "avx2" is not '+name' or '-name'}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, cpu_target = "znver3", cpu_features = "avx2">]>} {}

// -----

// expected-error @+1 {{device 'cpu' has cpu_features but no cpu_target}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, cpu_features = "+avx2">]>} {}

// -----

// expected-error @+1 {{device 'cuda:0' has a cpu_target; only the host 'cpu' has one}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0, cpu_target = "sm_90">]>} {}

// -----

// expected-error @+1 {{invalid cpu_target of device 'cpu': CPU name "x86 64" has a character that is not a letter, digit, '-', '_' or '.'}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, cpu_target = "x86 64">]>} {}

// -----

// expected-error @+1 {{'fuel.topology' belongs on a builtin.module}}
func.func @f() attributes {fuel.topology = #fuel.topology<devices = [<cpu>]>} { return }

// -----

// expected-error @+1 {{'fuel.residency' on argument #0 must be a device such as #fuel.device<cpu> or #fuel.device<cuda:0>, got "cpu"}}
func.func @f(%a: tensor<4xf32> {fuel.residency = "cpu"}) { return }

// -----

// expected-error @+1 {{'fuel.residency' on result #0 must be a device such as #fuel.device<cpu> or #fuel.device<cuda:0>, got 3 : i64}}
func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32> {fuel.residency = 3}) {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{'fuel.pin' is not valid on argument #0; only 'fuel.residency' is allowed there}}
func.func @f(%a: tensor<4xf32> {fuel.pin = #fuel.device<cpu>}) { return }

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.pin' must be a device such as #fuel.device<cpu> or #fuel.device<cuda:0>, got "cuda:0"}}
  %0 = arith.negf %a {fuel.pin = "cuda:0"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that `fuel.kernel` is a kernel id string of the registry's shape.

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.kernel' must be a kernel id string such as "cpu.openblas.matmul_f32", got 3 : i64}}
  %0 = arith.negf %a {fuel.kernel = 3} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.kernel': kernel id 'openblas_sgemm' does not have three dot-separated parts; expected '<backend>.<source>.<op kind>_<suffix>' such as 'cpu.openblas.matmul_f32'}}
  %0 = arith.negf %a {fuel.kernel = "openblas_sgemm"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.kernel': kernel id 'tpu.generated.elementwise_f32' names an unknown backend 'tpu'}}
  %0 = arith.negf %a {fuel.kernel = "tpu.generated.elementwise_f32"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.kernel': kernel id 'cpu.mkl.elementwise_f32' names an unknown kernel source 'mkl'}}
  %0 = arith.negf %a {fuel.kernel = "cpu.mkl.elementwise_f32"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.kernel': kernel id 'cpu.generated.gemm_f32' has no '<op kind>_<suffix>' part of a known op kind and a suffix of [a-z0-9_]}}
  %0 = arith.negf %a {fuel.kernel = "cpu.generated.gemm_f32"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.kernel': kernel id 'cpu.generated.elementwise_F32' has no '<op kind>_<suffix>' part}}
  %0 = arith.negf %a {fuel.kernel = "cpu.generated.elementwise_F32"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that a node's `kernel` clause is checked the same way.

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op kernel id 'cpu.generated' does not have three dot-separated parts}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> kernel "cpu.generated" {
  ^bb0(%x: tensor<4xf32>):
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    fuel.yield %r : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kernel' is given more than once}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> kernel "cpu.generated.elementwise_f32" kernel "cpu.generated.elementwise_f32" {
  ^bb0(%x: tensor<4xf32>):
    fuel.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Tests that the configuration's kernel sources are known and canonical.

// expected-error @+1 {{invalid kernel sources 'mkl': unknown kernel source 'mkl' (expected generated, openblas, blis, cublas)}}
module attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none", kernel_sources = "mkl">} {}

// -----

// expected-error @+1 {{kernel sources 'openblas,generated' are not in canonical form; write 'generated,openblas'}}
module attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none", kernel_sources = "openblas,generated">} {}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.residency' belongs on function arguments and results, not on an operation}}
  %0 = arith.negf %a {fuel.residency = #fuel.device<cpu>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.destructive' is a unit attribute, got true}}
  %0 = arith.negf %a {fuel.destructive = true} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.coupling' entry #0 needs 'on = <device>': the device of this op it applies to}}
  %0 = arith.negf %a {fuel.coupling = [#fuel.coupling<node = 1, device = cpu, delta_ns = 5>]}
      : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.coupling' entry #0 is not a #fuel.coupling: 5 : i64}}
  %0 = arith.negf %a {fuel.coupling = [5]} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown fuel attribute 'fuel.pinned'}}
  %0 = arith.negf %a {fuel.pinned = #fuel.device<cpu>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{copies between identical devices: source and target are both 'cuda:1'}}
  %0 = fuel.copy %a : tensor<4xf32> from cuda:1 to cuda:1
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the host device 'cpu' takes no ordinal; write 'cpu'}}
  %0 = fuel.copy %a : tensor<4xf32> from cpu:0 to cuda:1
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op body has 0 block arguments but the node has 1 operands; each operand maps to one argument}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
    %k = arith.constant dense<1.0> : tensor<4xf32>
    fuel.yield %k : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op block argument #0 has type 'tensor<8xf32>' but operand #0 has type 'tensor<4xf32>'}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<8xf32>):
    %k = arith.constant dense<1.0> : tensor<4xf32>
    fuel.yield %k : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op body yields 'tensor<4xi32>' as value #0 but result #0 has type 'tensor<4xf32>'}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    %k = arith.constant dense<1> : tensor<4xi32>
    fuel.yield %k : tensor<4xi32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op body yields 0 values but the node has 1 results}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op is placed on 'cuda:0' but pinned to #fuel.device<cpu>}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> pin cpu on cuda:0 {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown op kind 'conv'; expected one of: matmul}}
  %0 = fuel.node 0 conv (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node id must be non-negative, got -1}}
  %0 = fuel.node -1 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{first used here}}
  %0 = fuel.node 7 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield %b : tensor<4xf32>
  }
  %1 = arith.negf %0 : tensor<4xf32>
  // expected-error @+1 {{'fuel.node' op id 7 is not unique within its function}}
  %2 = fuel.node 7 elementwise (%1) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield %b : tensor<4xf32>
  }
  return %2 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuel.node 1 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield %b : tensor<4xf32>
  }
  // The yield below is outside any node.
  %c = scf.execute_region -> tensor<4xf32> {
    // expected-error @+1 {{'fuel.yield' op expects parent op 'fuel.node'}}
    fuel.yield %0 : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

// expected-error @+1 {{device ordinal 5000000000 is too large}}
func.func @f() attributes {d = #fuel.device<cuda:5000000000>} { return }

// -----

// expected-error @+1 {{candidate 'k' coupling entries must be #fuel.coupling}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", device = cpu,
    precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1 static,
    coupling = [5]>} { return }

// -----

// expected-error @+2 {{unknown precision preset 'exact'; expected 'reference', 'deterministic', 'unaudited' or <...>}}
func.func @f() attributes {c = #fuel.candidate<"k", source = "generated", device = cpu,
    precision = exact, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
    time_ns = 1 static>} { return }

// -----

// expected-error @+1 {{peak figure 'f32' of device 'cpu' must be a finite, non-negative f64 (flop/ns)}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, peak = {f32 = 1 : i64}>]>} {}

// -----

// expected-error @+1 {{expected a non-negative integer}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, memory = -1>]>} {}

// -----

// expected-error @+1 {{integer value too large}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, memory = 18446744073709551616>]>} {}

// -----

// expected-error @+1 {{device 'cpu' needs an alignment that is a power of two}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, alignment = 9223372036854775809>]>} {}

// -----

// expected-error @+1 {{invalid topology: duplicate link 'cpu' -> 'cuda:0'}}
module attributes {fuel.topology = #fuel.topology<
    devices = [<cpu>, <cuda:0>],
    links = [<cpu -> cuda:0, bandwidth = 1, latency_ns = 1, class = peer>,
      <cpu -> cuda:0, bandwidth = 2, latency_ns = 1, class = peer>]>} {}

// -----

// expected-error @+2 {{link 'cpu' -> 'cuda:0' has a negative latency}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0>],
    links = [<cpu -> cuda:0, bandwidth = 1, latency_ns = -1, class = peer>]>} {}

// -----

// expected-error @+1 {{device 'cuda:0' needs a non-negative dispatch_ns}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0, dispatch_ns = -5>]>} {}

// -----

// expected-error @+1 {{bytes_per_ns of device 'cpu' must be a finite, non-negative f64}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, bytes_per_ns = -1.0>]>} {}

// -----

// expected-error @+2 {{link is missing field 'class'}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu>, <cuda:0>],
    links = [<cpu -> cuda:0, bandwidth = 1, latency_ns = 1>]>} {}

// -----

// expected-error @+1 {{topology is missing field 'devices'}}
module attributes {fuel.topology = #fuel.topology<links = []>} {}

// -----

// expected-error @+1 {{'fuel.topology' must be a #fuel.topology, got "machine.json"}}
module attributes {fuel.topology = "machine.json"} {}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.coupling' must be a list of #fuel.coupling}}
  %0 = arith.negf %a {fuel.coupling = #fuel.coupling<on = cpu, node = 1, device = cpu,
      delta_ns = 5>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op coupling entry #0 needs 'on = <device>': the device of this node it applies to}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>)
      -> tensor<4xf32> coupling [#fuel.coupling<node = 1, device = cpu, delta_ns = 5>] {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{expected a placement (a device such as 'cpu' or 'cuda:0'), got #fuel.cost<flops = 1, bytes = 1, overhead_ns = 1>}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>)
      -> tensor<4xf32> on #fuel.cost<flops = 1, bytes = 1, overhead_ns = 1> {
  ^bb0(%b: tensor<4xf32>):
    fuel.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op body must end in 'fuel.yield'}}
  %0 = fuel.node 0 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    func.return %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{peak key 'f16 peak' of device 'cpu' is not an element type name}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, peak = {"f16 peak" = 1.0}>]>} {}

// -----

// expected-error @+1 {{device ordinal must be non-negative, got -1}}
func.func @f() attributes {a = #fuel.candidate<"k", source = "s", device = cuda:-1,
    precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>,
    time_ns = 0 static>} { return }

// -----

// expected-error @+1 {{device ordinal must be non-negative, got -1}}
func.func @f() attributes {a = #fuel.coupling<on = cuda:-1, node = 1, device = cpu,
    delta_ns = 0>} { return }

// -----

func.func @f() {
  // expected-error @+1 {{'on' is given more than once}}
  fuel.node 0 generic () : () -> () on cpu on cuda:0 {
    fuel.yield
  }
  return
}

// -----

func.func @f() {
  // expected-note @+1 {{first used here}}
  fuel.node 9223372036854775807 generic () : () -> () {
    fuel.yield
  }
  // expected-error @+1 {{'fuel.node' op id 9223372036854775807 is not unique within its function}}
  fuel.node 9223372036854775807 generic () : () -> () {
    fuel.yield
  }
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'fuel.node' op id must be non-negative, got -3}}
  "fuel.node"() <{id = -3 : i64, kind = #fuel.op_kind<matmul>}> ({
    "fuel.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Ids inside a node's body are checked among themselves.
func.func @f() {
  fuel.node 0 generic () : () -> () {
    // expected-note @+1 {{first used here}}
    fuel.node 5 generic () : () -> () { fuel.yield }
    // expected-error @+1 {{'fuel.node' op id 5 is not unique within its function}}
    fuel.node 5 generic () : () -> () { fuel.yield }
    fuel.yield
  }
  return
}

// -----

// expected-error @+1 {{peak figure 'f32' of device 'cpu' must be a finite, non-negative f64 (flop/ns)}}
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, peak = {f32 = 3.3 : f32}>]>} {}
