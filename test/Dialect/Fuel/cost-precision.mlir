// RUN: fuel-opt %s | fuel-opt | FileCheck %s
// RUN: fuel-opt %s --mlir-print-op-generic | fuel-opt | FileCheck %s

// Tests that costs and precision guarantees round-trip, presets by name.

// CHECK-LABEL: func.func @cost
// CHECK-SAME: cost = #fuel.cost<flops = 16777216, bytes = 720896, overhead_ns = 5000>
// CHECK-SAME: zero = #fuel.cost<flops = 0, bytes = 0, overhead_ns = 0>
func.func @cost() attributes {
    cost = #fuel.cost<flops = 16777216, bytes = 720896, overhead_ns = 5000>,
    zero = #fuel.cost<flops = 0, bytes = 0, overhead_ns = 0>} {
  return
}

// CHECK-LABEL: func.func @presets
// CHECK-SAME: a = #fuel.precision<reference>
// CHECK-SAME: b = #fuel.precision<deterministic>
// CHECK-SAME: c = #fuel.precision<unaudited>
// Spelled out, the bounds of a preset still print as the preset.
// CHECK-SAME: d = #fuel.precision<reference>
// CHECK-SAME: e = #fuel.precision<deterministic>
// CHECK-SAME: f = #fuel.precision<deterministic, note = "fixed schedule">
func.func @presets() attributes {
    a = #fuel.precision<reference>,
    b = #fuel.precision<deterministic>,
    c = #fuel.precision<unaudited>,
    d = #fuel.precision<bit_stable, ulp = 0, rel = 0.0, abs = 0.0>,
    e = #fuel.precision<bit_stable>,
    f = #fuel.precision<deterministic, note = "fixed schedule">} {
  return
}

// CHECK-LABEL: func.func @bounds
// CHECK-SAME: a = #fuel.precision<bit_stable, ulp = 1, rel = 1.000000e-05>
// CHECK-SAME: b = #fuel.precision<ulp = 2>
// CHECK-SAME: c = #fuel.precision<rel = 1.000000e-03, abs = {{.*}}, note = "audited on sm_90">
func.func @bounds() attributes {
    a = #fuel.precision<bit_stable, ulp = 1, rel = 1.0e-5>,
    b = #fuel.precision<ulp = 2>,
    c = #fuel.precision<abs = 1.0e-6, rel = 1.0e-3, note = "audited on sm_90">} {
  return
}
