// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %S/../../../examples/mlp.mlir \
// RUN:   --topology %topologies/cpu-lavapipe-split.json \
// RUN:   --ref mlp --input-range=-0.1,0.1 --rtol 1e-4 --atol 1e-5 --check-winners
// RUN: fuel-compile %S/../../../examples/mlp.mlir \
// RUN:   --topology=%topologies/cpu-lavapipe-split.json -o %t.fuelx
// RUN: fuel-run %t.fuelx --input=random:1 --report | FileCheck %s

// Tests that examples/mlp.mlir, placed by the planner (nothing pinned) on
// cpu-lavapipe-split.json, where lavapipe is priced faster than the host at
// compute but not at memory traffic, runs kernels on both devices with
// copies in both directions, and matches numpy.

// CHECK-DAG: {{^ *[0-9]+ +[0-9]+ dispatch .* vulkan:0 +[0-9]+ vulkan\.}}
// CHECK-DAG: {{^ *[0-9]+ +[0-9]+ dispatch .* cpu +[0-9]+ cpu\.}}
// CHECK-DAG: {{^ *[0-9]+ +-1 copy +copy +cpu->vulkan:0 }}
// CHECK-DAG: {{^ *[0-9]+ +-1 copy +copy +vulkan:0->cpu }}
