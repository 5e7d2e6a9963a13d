// RUN: fuel-opt %S/../../examples/mlp.mlir \
// RUN:   --fuel-plan="topology=%topologies/cpu-cuda.json export-plan=%t.json export-dot=%t.dot" -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// RUN: %python %S/Inputs/check-plan-sums.py %t.json
// RUN: fuel-opt %S/../../examples/mlp.mlir \
// RUN:   --fuel-plan="topology=%topologies/cpu-cuda.json import-plan=%t.json" -o %t.replayed.mlir
// RUN: FileCheck %s --check-prefix=PIN < %t.replayed.mlir
// RUN: fuel-opt %t.replayed.mlir --fuel-export-plan=file=%t.replayed.json -o /dev/null
// RUN: %python %S/Inputs/compare-placements.py %t.json %t.replayed.json

// Tests the export-plan, export-dot and import-plan options of fuel-plan on
// the README's example: the plan is written as JSON whose total is the sum
// of its terms and as DOT, and replaying it pins every node to the device
// it was placed on, giving the same placements.

// JSON: "version": 3,
// JSON: "name": "mlp",
// JSON: "predicted_ns": {
// JSON-NEXT: "total": [[TOTAL:[0-9]+]],
// JSON: "placement": "cuda:0",

// DOT: digraph
// DOT: cuda:0

// PIN: fuel.node 0 matmul {{.*}} pin cuda:0 on cuda:0
// PIN: fuel.node 4 matmul {{.*}} pin cuda:0 on cuda:0
// PIN: fuel.node 6 softmax {{.*}} pin cpu on cpu
