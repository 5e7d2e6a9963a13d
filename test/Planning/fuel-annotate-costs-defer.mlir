// RUN: fuel-opt %s -mlir-print-local-scope -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-lavapipe-no-rates.json},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-annotate-costs{defer-warnings=true}))' \
// RUN:   | FileCheck %s
// RUN: fuel-opt %s -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-lavapipe-no-rates.json},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-annotate-costs{defer-warnings=true},fuel-annotate-costs{defer-warnings=true}))' \
// RUN:   | FileCheck %s
// RUN: fuel-opt %s -o /dev/null \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-lavapipe-no-rates.json},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-annotate-costs{defer-warnings=true}),fuel-warn-costs)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:

// Tests that fuel-annotate-costs with defer-warnings warns of nothing and
// records its prior warnings (SEMANTICS §3 step 6) on each function as
// `fuel.cost_warnings`, each at the first node of the function priced with
// it, replacing an earlier record (a second run records the same); and that
// fuel-warn-costs then warns of each once per module. On
// test/topologies/cpu-lavapipe-no-rates.json the cpu has no f32 peak and
// vulkan:0 no rates at all.

// CHECK-LABEL: func.func @first
// CHECK-SAME: attributes {fuel.cost_warnings = {priors = [{at = loc("{{.*}}fuel-annotate-costs-defer.mlir":[[#@LINE+5]]:8), warning = "device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns"}, {at = loc("{{.*}}fuel-annotate-costs-defer.mlir":[[#@LINE+5]]:8), warning = "device 'vulkan:0' has no peak f32 rate; using the CPU prior of 1 flop/ns; no memory bandwidth; using the CPU prior of 4 B/ns"}]}}
func.func @first(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>)
                     outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %x = linalg.exp ins(%c : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %x : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @second
// CHECK-SAME: attributes {fuel.cost_warnings = {priors = [{at = loc("{{.*}}fuel-annotate-costs-defer.mlir":[[#@LINE+4]]:8), warning = "device 'cpu' has no peak f32 rate; {{.*}}"}, {at = loc("{{.*}}fuel-annotate-costs-defer.mlir":[[#@LINE+4]]:8), warning = "device 'vulkan:0' has no peak f32 rate; {{.*}}"}]}}
func.func @second(%a: tensor<128xf32>) -> tensor<128xf32> attributes {
    fuel.cost_warnings = {priors = [{at = loc("stale.mlir":1:1), warning = "stale"}]}} {
  %e = tensor.empty() : tensor<128xf32>
  %0 = linalg.exp ins(%a : tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %1 = linalg.exp ins(%0 : tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// WARN: fuel-annotate-costs-defer.mlir:[[#@LINE-16]]:8: warning: device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns{{$}}
// WARN: fuel-annotate-costs-defer.mlir:[[#@LINE-17]]:8: warning: device 'vulkan:0' has no peak f32 rate; using the CPU prior of 1 flop/ns; no memory bandwidth; using the CPU prior of 4 B/ns{{$}}
