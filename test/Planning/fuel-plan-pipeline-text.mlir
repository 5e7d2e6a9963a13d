// RUN: fuel-opt /dev/null -o /dev/null --dump-pass-pipeline \
// RUN:   --fuel-plan="topology=%topologies/cpu-lavapipe-no-rates.json" 2>&1 \
// RUN:   | FileCheck %s
// RUN: fuel-opt %s -o %t.plan.mlir 2> %t.plan.err \
// RUN:   --fuel-plan="topology=%topologies/cpu-lavapipe-no-rates.json"
// RUN: fuel-opt /dev/null -o /dev/null --dump-pass-pipeline \
// RUN:   --fuel-plan="topology=%topologies/cpu-lavapipe-no-rates.json" 2>&1 \
// RUN:   | tail -n +2 | tr -d '\n' > %t.pipeline
// RUN: xargs -0 -I{} fuel-opt %s -o %t.text.mlir --pass-pipeline={} \
// RUN:   < %t.pipeline 2> %t.text.err
// RUN: diff %t.plan.mlir %t.text.mlir
// RUN: diff %t.plan.err %t.text.err
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning: \
// RUN:   < %t.text.err

// Tests that the fuel-plan pipeline is made of registered passes only: it
// prints (here for an empty module) as a textual pipeline, as crash
// reproducers record it, that --pass-pipeline reads back into the same
// planning of this file, warnings included.
// The prior-rate warnings (test/topologies/cpu-lavapipe-no-rates.json) come
// once per module, from fuel-warn-costs, which fuel-annotate-costs defers
// them to.

// CHECK: builtin.module(
// CHECK-NEXT: fuel-attach-topology{{{.*}} topology={{.*}}cpu-lavapipe-no-rates.json},
// CHECK-NEXT: func.func(
// CHECK-NEXT: fuel-form-nodes
// CHECK-NEXT: ),
// CHECK-NEXT: func.func(
// CHECK-NEXT: fuel-enumerate-candidates{{.*}},
// CHECK-NEXT: fuel-filter-candidates{{.*}},
// CHECK-NEXT: fuel-annotate-costs{defer-warnings=true explain=false profile= profile-threads=1},
// CHECK-NEXT: fuel-rank-candidates,
// CHECK-NEXT: fuel-retain-frontier{{.*}},
// CHECK-NEXT: fuel-place{{.*}},
// CHECK-NEXT: fuel-insert-residency-copies
// CHECK-NEXT: ),
// CHECK-NEXT: fuel-warn-costs
// CHECK-NEXT: )

// WARN: fuel-plan-pipeline-text.mlir:[[#@LINE+7]]:8: warning: device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns{{$}}
// WARN: fuel-plan-pipeline-text.mlir:[[#@LINE+6]]:8: warning: device 'vulkan:0' has no peak f32 rate; using the CPU prior of 1 flop/ns; no memory bandwidth; using the CPU prior of 4 B/ns

func.func @first(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>)
                     outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}

func.func @second(%a: tensor<128xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %0 = linalg.exp ins(%a : tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %1 = linalg.exp ins(%0 : tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  return %1 : tensor<128xf32>
}
