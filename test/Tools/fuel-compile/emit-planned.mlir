// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=planned -o %t.planned.mlir
// RUN: FileCheck %s --input-file=%t.planned.mlir
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=planned -o - | diff %t.planned.mlir -
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=planned | diff %t.planned.mlir -

// Tests that --emit=planned prints the planned module (to -o, or stdout with
// `-o -` or no -o): the topology and configuration stamped, the matmul a
// node placed on the host with its alternatives.

// CHECK: #topology = #fuel.topology<hash = 0x{{[0-9a-f]+}}, devices = [<cpu,
// CHECK: module attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none">, fuel.topology = #topology}
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: fuel.predicted_ns = #fuel.predicted<total =
// CHECK: %[[N:.+]] = fuel.node 0 matmul (%arg0, %arg1) {{.*}} on cpu alternatives
// CHECK: linalg.matmul
// CHECK: return %[[N]]

// An already planned module is not planned again: it prints unchanged.
// RUN: fuel-compile %t.planned.mlir --emit=planned -o - | diff %t.planned.mlir -
// An explicit topology must be the one it was planned for.
// RUN: fuel-compile %t.planned.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=planned -o - | diff %t.planned.mlir -
// RUN: not fuel-compile %t.planned.mlir --topology=%topologies/cpu-cuda.json \
// RUN:   --emit=planned -o - 2>&1 | FileCheck %s --check-prefix=OTHER-TOPOLOGY
// OTHER-TOPOLOGY: error: the module is already planned for topology 0x{{[0-9a-f]+}} but topology '{{.*}}cpu-cuda.json' has hash 0x{{[0-9a-f]+}}; remove 'fuel.topology' and the placements to plan again
// RUN: not fuel-compile %t.planned.mlir --plan="explain=true" --emit=planned \
// RUN:   -o - 2>&1 | FileCheck %s --check-prefix=REPLAN
// REPLAN: error: the module is already planned; --plan applies only to programs fuel-compile plans

// Without --topology: the module's stamped topology, else the built-in
// default (one host).
// RUN: fuel-opt %S/Inputs/matmul.mlir \
// RUN:   --fuel-attach-topology="topology=%topologies/cpu-cuda.json" -o %t.stamped.mlir
// RUN: fuel-compile %t.stamped.mlir --emit=planned -o - \
// RUN:   | FileCheck %s --check-prefix=STAMPED
// STAMPED: #topology = #fuel.topology<{{.*}}devices = [<cpu, {{.*}}>, <cuda:0,
// STAMPED: fuel.node 0 matmul
// RUN: fuel-compile %S/Inputs/matmul.mlir --emit=planned -o - \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: #topology = #fuel.topology<
// DEFAULT-NOT: cuda:
// DEFAULT: fuel.node 0 matmul {{.*}} on cpu

// --plan passes fuel-plan's options: explain remarks, and planning errors
// at the op they concern, with its location.
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="explain=true price-transfers=true keep-per-device=2" \
// RUN:   --emit=planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// EXPLAIN: matmul.mlir:6:8: remark: node 0 (matmul): winner
// RUN: not fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="pinned-device=none" --emit=planned -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AT-OP
// AT-OP: matmul.mlir:6:8: error: no device context for node 0 (matmul)
