// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-cuda.json --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-pins.json | FileCheck %s --check-prefix=PINS
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-cuda.json --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-pins.json --fuel-import-plan=file=%S/Inputs/import-plan-pins.json | FileCheck %s --check-prefix=PINS
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-cuda.json --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-pins.json --fuel-enumerate-candidates --fuel-filter-candidates --fuel-annotate-costs --fuel-rank-candidates --fuel-retain-frontier --fuel-place | FileCheck %s --check-prefix=PLACED

// Round trips: a plan exported, imported into the unplanned program and
// planned again gives the same placements. The first plan is the default
// one; the second is made with transfers unpriced (everything stays on the
// host) and replayed under the default options, where the pins alone keep
// the nodes on the host.
// RUN: fuel-opt %S/../../examples/mlp.mlir --fuel-plan=topology=%topologies/cpu-cuda.json --fuel-place --fuel-insert-residency-copies --fuel-export-plan=file=%t.default.json -o /dev/null
// RUN: fuel-opt %S/../../examples/mlp.mlir --fuel-attach-topology=topology=%topologies/cpu-cuda.json --fuel-form-nodes --fuel-import-plan=file=%t.default.json --fuel-enumerate-candidates --fuel-filter-candidates --fuel-annotate-costs --fuel-rank-candidates --fuel-retain-frontier --fuel-place --fuel-insert-residency-copies --fuel-export-plan=file=%t.default.replayed.json -o /dev/null
// RUN: %python %S/Inputs/compare-placements.py %t.default.json %t.default.replayed.json | FileCheck %s --check-prefix=DEFAULT
// RUN: fuel-opt %S/../../examples/mlp.mlir --fuel-plan="topology=%topologies/cpu-cuda.json price-transfers=false" --fuel-place --fuel-insert-residency-copies --fuel-export-plan=file=%t.host.json -o /dev/null
// RUN: fuel-opt %S/../../examples/mlp.mlir --fuel-attach-topology=topology=%topologies/cpu-cuda.json --fuel-form-nodes --fuel-import-plan=file=%t.host.json --fuel-enumerate-candidates --fuel-filter-candidates --fuel-annotate-costs --fuel-rank-candidates --fuel-retain-frontier --fuel-place --fuel-insert-residency-copies --fuel-export-plan=file=%t.host.replayed.json -o /dev/null
// RUN: %python %S/Inputs/compare-placements.py %t.host.json %t.host.replayed.json | FileCheck %s --check-prefix=HOST

// Tests that the plan's placements become pin clauses matched by function
// name and node id: node 0 is pinned to the host, node 1 has a null
// placement and node 3 is not listed, so both stay free; importing twice
// changes nothing. Planning then keeps the pinned nodes where the plan put
// them, although the matmul alone would be faster on the GPU.
func.func @layer(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x512xf32>)
                     outs(%acc : tensor<64x512xf32>) -> tensor<64x512xf32>
  %a = linalg.negf ins(%m : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %b = linalg.exp ins(%a : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %c = linalg.abs ins(%b : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %c : tensor<64x512xf32>
}

// PINS-LABEL: func.func @layer
// PINS: fuel.node 0 matmul ({{.*}}) : ({{.*}}) -> tensor<64x512xf32> pin cpu {
// PINS-NOT: pin
// PINS: fuel.node 1 elementwise ({{.*}}) : ({{.*}}) -> tensor<64x512xf32> {
// PINS: fuel.node 2 elementwise ({{.*}}) : ({{.*}}) -> tensor<64x512xf32> pin cuda:0 {
// PINS-NOT: pin
// PINS: fuel.node 3 elementwise ({{.*}}) : ({{.*}}) -> tensor<64x512xf32> {

// PLACED-LABEL: func.func @layer
// PLACED: fuel.node 0 matmul {{.*}} pin cpu on cpu alternatives
// PLACED: fuel.node 1 elementwise {{.*}} on cuda:0 next_best cpu
// PLACED: fuel.node 2 elementwise {{.*}} pin cuda:0 on cuda:0 alternatives
// PLACED: fuel.node 3 elementwise {{.*}} on cuda:0 next_best cpu

// DEFAULT:      mlp node 0: cuda:0
// DEFAULT-NEXT: mlp node 1: cuda:0
// DEFAULT-NEXT: mlp node 2: cuda:0
// DEFAULT-NEXT: mlp node 3: cuda:0

// HOST:      mlp node 0: cpu
// HOST-NEXT: mlp node 1: cpu
// HOST-NEXT: mlp node 2: cpu
// HOST-NEXT: mlp node 3: cpu
