// UNSUPPORTED: fuel-lowering
// RUN: not fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=llvm -o - 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   -o %t.fuelx 2>&1 | FileCheck %s --check-prefix=MISSING

// Tests that a stage whose pass this build does not register is a clear
// error naming the stage and the pass (only while the lowering is not all
// there; the first missing stage depends on which passes have landed).

// MISSING: fuel-compile: error: stage '{{[a-z]+}}' needs pass '{{[a-z-]+}}', which this build of fuel-compile does not register
