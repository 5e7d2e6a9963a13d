// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="kernel-sources=generated" -o %t.fuelx --compile-stats 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GENERATED
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="kernel-sources=openblas" -o %t.lib.fuelx --compile-stats 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LIBRARY
// RUN: fuel-compile %S/../../../examples/transformer.mlir --topology=%topologies/cpu-only.json \
// RUN:   --plan="kernel-sources=generated" -o %t.tf.fuelx --compile-stats 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PARTS
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=host -o /dev/null --compile-stats 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   -o %t.fuelx 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

// Tests that --compile-stats prints one line on standard error: the distinct
// kernels (generated, in how many modules, and library), the dispatches and
// copies, kernels per second, the wall time of every phase and the parts
// the kernels were compiled in; and that an
// --emit stage, which serializes nothing, reports only the phases it ran.

// GENERATED: fuel-compile: 1 kernel (1 generated in 1 module, 0 library), 1 dispatch, 0 copies,
// GENERATED-SAME: kernels/s; parse {{[0-9.]+}} s, planning {{[0-9.]+}} s, lowering {{[0-9.]+}} s,
// GENERATED-SAME: LLVM IR {{[0-9.]+}} s, LLVM O3 {{[0-9.]+}} s, LLVM codegen {{[0-9.]+}} s (1 part),
// GENERATED-SAME: link {{[0-9.]+}} s, serialize {{[0-9.]+}} s, total {{[0-9.]+}} s

// A library kernel is counted as one, with no module. (The kernel sources
// are pinned: which source wins depends on the registry's measured figures.)
// LIBRARY: fuel-compile: 1 kernel (0 generated in 0 modules, 1 library), 1 dispatch,

// The example transformer's 17 generated kernels are compiled in 4 parts
// (one per 4 whole kernels), in parallel.
// PARTS: fuel-compile: 17 kernels (17 generated in 1 module, 0 library), 25 dispatches,
// PARTS-SAME: LLVM codegen {{[0-9.]+}} s (4 parts), link

// EMIT: fuel-compile: parse {{[0-9.]+}} s, planning {{[0-9.]+}} s, lowering {{[0-9.]+}} s, total {{[0-9.]+}} s
// EMIT-NOT: kernels

// QUIET-NOT: fuel-compile:
