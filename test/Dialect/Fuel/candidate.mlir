// RUN: fuel-opt %s | fuel-opt | FileCheck %s
// RUN: fuel-opt %s --mlir-print-op-generic | fuel-opt | FileCheck %s

// Tests that candidates and alternative sets round-trip with every field,
// that default fields are omitted (a measured time's noise and Layer-1 time
// print after it, in that order), and that equal candidates share an
// alias.

// CHECK-DAG: #[[FULL:cand[0-9]*]] = #fuel.candidate<"cpu.openblas.matmul_f32", source = "openblas", backend = cpu, device = cpu, caps = [strided_input, "two words"], revision = 0x9c1e47a2d0b3f811, priority = 10, precision = unaudited, cost = <flops = 16777216, bytes = 720896, overhead_ns = 500>, time_ns = 147000 static, host_bytes = 720896, device_bytes = 0, transfer_ns = 113500, params = {fn = "add"}, coupling = [#fuel.coupling<node = 3, backend = cuda, delta_ns = -500>], fallback>
// CHECK-DAG: #[[MIN:cand[0-9]*]] = #fuel.candidate<"cuda.generated.matmul_f32", source = "generated", backend = cuda, device = cuda:0, precision = <bit_stable, ulp = 2>, cost = <flops = 1, bytes = 2, overhead_ns = 3>, time_ns = 42 measured, noise_ns = 3, static_time_ns = 40, host_bytes = 0, device_bytes = 0>
// CHECK-DAG: #[[ALTS:alts[0-9]*]] = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0f0608, device = cpu>, [#[[MIN]], #[[FULL]]]>

// CHECK-LABEL: func.func @candidates
// CHECK-SAME: full = #[[FULL]]
// CHECK-SAME: min = #[[MIN]]
// CHECK-SAME: set = #[[ALTS]]
func.func @candidates() attributes {
    full = #fuel.candidate<"cpu.openblas.matmul_f32", fallback, source = "openblas",
      backend = cpu, device = cpu, caps = [strided_input, "two words"],
      revision = 0x9c1e47a2d0b3f811, priority = 10, precision = unaudited,
      cost = <flops = 16777216, bytes = 720896, overhead_ns = 500>,
      time_ns = 147000 static, host_bytes = 720896, device_bytes = 0,
      transfer_ns = 113500, params = {fn = "add"},
      coupling = [#fuel.coupling<node = 3, backend = cuda, delta_ns = -500>]>,
    min = #fuel.candidate<"cuda.generated.matmul_f32", source = "generated",
      device = cuda:0, precision = <bit_stable, ulp = 2>,
      cost = <flops = 1, bytes = 2, overhead_ns = 3>, time_ns = 42 measured,
      static_time_ns = 40, noise_ns = 3>,
    set = #fuel.alternatives<decision = <op = matmul, dtype = f32,
                                         size_class = 0x0f0608, device = cpu>,
      [#fuel.candidate<"cuda.generated.matmul_f32", source = "generated",
         device = cuda:0, precision = <bit_stable, ulp = 2>,
         cost = <flops = 1, bytes = 2, overhead_ns = 3>, time_ns = 42 measured,
      static_time_ns = 40, noise_ns = 3>,
       #fuel.candidate<"cpu.openblas.matmul_f32", fallback, source = "openblas",
         backend = cpu, device = cpu, caps = [strided_input, "two words"],
         revision = 0x9c1e47a2d0b3f811, priority = 10, precision = unaudited,
         cost = <flops = 16777216, bytes = 720896, overhead_ns = 500>,
         time_ns = 147000 static, host_bytes = 720896, device_bytes = 0,
         transfer_ns = 113500, params = {fn = "add"},
         coupling = [#fuel.coupling<node = 3, backend = cuda, delta_ns = -500>]>]>} {
  return
}
