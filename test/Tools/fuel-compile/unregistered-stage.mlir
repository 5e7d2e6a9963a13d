// UNSUPPORTED: fuel-lowering
// RUN: not fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=outlined -o - 2>&1 | FileCheck %s --check-prefix=OUTLINED
// RUN: not fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   -o %t.fuelx 2>&1 | FileCheck %s --check-prefix=OUTLINED

// Tests that a stage whose pass this build does not register is a clear
// error naming the stage and the pass (only while the lowering is absent).

// OUTLINED: fuel-compile: error: stage 'outlined' needs pass 'fuel-outline-kernels', which this build of fuel-compile does not register
