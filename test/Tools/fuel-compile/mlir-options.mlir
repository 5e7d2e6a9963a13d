// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=planned -o /dev/null --mlir-print-ir-after-all 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AFTER-ALL
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=planned -o /dev/null --mlir-timing --mlir-disable-threading 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIMING
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=planned -o - --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// Tests that MLIR's pass-manager, context and printer options work in
// fuel-compile: the IR after every pass, the timing report with threading
// off, and locations in the printed IR.

// AFTER-ALL: IR Dump After FuelAttachTopologyPass (fuel-attach-topology)
// AFTER-ALL: IR Dump After FuelFormNodesPass (fuel-form-nodes)
// AFTER-ALL: IR Dump After FuelInsertResidencyCopiesPass (fuel-insert-residency-copies)
// TIMING: Execution time report
// TIMING: FuelPlacePass
// LOC: loc("{{.*}}matmul.mlir":6:8)
