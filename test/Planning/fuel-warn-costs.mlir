// RUN: fuel-opt %s --split-input-file --fuel-warn-costs 2>/dev/null \
// RUN:   | FileCheck %s --implicit-check-not=fuel.cost_warnings
// RUN: fuel-opt %s --split-input-file --fuel-warn-costs -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
// RUN: fuel-opt %s --split-input-file | fuel-opt --split-input-file \
// RUN:   | FileCheck %s --check-prefix=ROUNDTRIP

// fuel-warn-costs on hand-written records of fuel-annotate-costs'
// deferred warnings (`fuel.cost_warnings`, SEMANTICS §3 steps 6 and 7): the
// records of a module's functions are merged in function order, each
// warning comes once per module, and the records are removed.

// Tests that a prior met in two functions is warned of once, at its first
// location, that a prior only the second function met is warned of at its
// own, in the order met, and that both records are removed.

// WARN: a.mlir:7:8: warning: device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns{{$}}
// WARN-NEXT: a.mlir:9:3: warning: device 'vulkan:0' has no memory bandwidth; using the CPU prior of 4 B/ns{{$}}
// WARN-NEXT: b.mlir:2:5: warning: device 'cuda:0' has no memory bandwidth; using the GPU prior of 40 B/ns{{$}}

// ROUNDTRIP-LABEL: func.func @first
// ROUNDTRIP-SAME: fuel.cost_warnings = {priors = [{at = #{{.+}}, warning = "device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns"}, {at = #{{.+}}, warning = "device 'vulkan:0' has no memory bandwidth; using the CPU prior of 4 B/ns"}]}

// CHECK-LABEL: func.func @first()
// CHECK-SAME: {
func.func @first() attributes {fuel.cost_warnings = {priors = [
    {at = loc("a.mlir":7:8), warning = "device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns"},
    {at = loc("a.mlir":9:3), warning = "device 'vulkan:0' has no memory bandwidth; using the CPU prior of 4 B/ns"}]}} {
  return
}
// CHECK-LABEL: func.func @second()
// CHECK-SAME: {
func.func @second() attributes {fuel.cost_warnings = {priors = [
    {at = loc("b.mlir":1:5), warning = "device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns"},
    {at = loc("b.mlir":2:5), warning = "device 'cuda:0' has no memory bandwidth; using the GPU prior of 40 B/ns"}]}} {
  return
}
// CHECK-LABEL: func.func @unrecorded()
func.func @unrecorded() {
  return
}

// -----

// Tests that the nodes a profile holds only under other pool sizes are
// counted across functions and warned of once, at the first function's
// location, naming every pool size and suggesting the one most nodes were
// measured under (4: 1 + 2 nodes, against 2 nodes under 2); that a record
// for another profile-threads gets its own warning; and that priors come
// before misses.

// WARN: c.mlir:3:1: warning: device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns{{$}}
// WARN-NEXT: c.mlir:5:9: warning: the profile 'p.db' holds measurements for 4 node(s) only under cpu threads 2, 4, 8, not under the 1 this plan is priced for (profile-threads=1); plan with profile-threads=4 for executables run with fuel-run --threads=4, or measure with fuel-judge --cpu-threads=1{{$}}
// WARN-NEXT: d.mlir:8:9: warning: the profile 'p.db' holds measurements for 1 node(s) only under cpu threads 1, not under the 2 this plan is priced for (profile-threads=2); plan with profile-threads=1 for executables run with fuel-run --threads=1, or measure with fuel-judge --cpu-threads=2{{$}}

// ROUNDTRIP-LABEL: func.func @misses
// ROUNDTRIP-SAME: fuel.cost_warnings = {profile_misses = [{at = #{{.+}}, nodes = 2 : i64, nodes_per_pool_size = array<i64: 2, 1>, pool_sizes = array<i64: 2, 4>, profile = "p.db", profile_threads = 1 : i64}]}

// CHECK-LABEL: func.func @misses()
// CHECK-SAME: {
func.func @misses() attributes {fuel.cost_warnings = {profile_misses = [
    {at = loc("c.mlir":5:9), nodes = 2, nodes_per_pool_size = array<i64: 2, 1>,
     pool_sizes = array<i64: 2, 4>, profile = "p.db", profile_threads = 1}]}} {
  return
}
// CHECK-LABEL: func.func @more()
// CHECK-SAME: {
func.func @more() attributes {fuel.cost_warnings = {
    priors = [{at = loc("c.mlir":3:1), warning = "device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns"}],
    profile_misses = [
      {at = loc("d.mlir":1:1), nodes = 2, nodes_per_pool_size = array<i64: 2, 1>,
       pool_sizes = array<i64: 4, 8>, profile = "p.db", profile_threads = 1},
      {at = loc("d.mlir":8:9), nodes = 1, nodes_per_pool_size = array<i64: 1>,
       pool_sizes = array<i64: 1>, profile = "p.db", profile_threads = 2}]}} {
  return
}

// -----

// Tests that an empty record warns of nothing and is removed.

// CHECK-LABEL: func.func @empty()
// CHECK-SAME: {
func.func @empty() attributes {fuel.cost_warnings = {}} {
  return
}
