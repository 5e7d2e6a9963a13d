// RUN: rm -rf %t && mkdir -p %t
// RUN: fuel-judge %S/Inputs/small.mlir \
// RUN:   --topology=%topologies/cpu-lavapipe-no-rates.json \
// RUN:   --emit-jobs=%t/jobs 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='see current operation' \
// RUN:       --implicit-check-not=warning:

// Tests that fuel-judge says each prior-rate warning (SEMANTICS §3 step 6)
// once, when it plans the input's candidates, and not again for each job it
// compiles (each job re-plans one node on the same topology), and that the
// warning holds no op text.

// CHECK: small.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns{{$}}
// CHECK: small.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: device 'vulkan:0' has no peak f32 rate; using the CPU prior of 1 flop/ns; no memory bandwidth; using the CPU prior of 4 B/ns
// CHECK: fuel-judge: {{[0-9]+}} jobs in
