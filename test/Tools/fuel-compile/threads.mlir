// RUN: fuel-compile %S/../../../examples/transformer.mlir \
// RUN:   --topology=%topologies/cpu-only.json -o %t.threads.fuelx
// RUN: fuel-compile %S/../../../examples/transformer.mlir \
// RUN:   --topology=%topologies/cpu-only.json -o %t.serial.fuelx --mlir-disable-threading
// RUN: cmp %t.threads.fuelx %t.serial.fuelx
// RUN: /usr/bin/python3 %S/../../../bench/planning-scale/gen_model.py --shape transformer \
// RUN:   --ops 300 -o %t.tf.mlir 2>/dev/null
// RUN: fuel-compile %t.tf.mlir --topology=%topologies/cpu-only.json -o %t.tf.a.fuelx --compile-stats 2>&1 \
// RUN:   | FileCheck %s
// RUN: fuel-compile %t.tf.mlir --topology=%topologies/cpu-only.json -o %t.tf.b.fuelx \
// RUN:   --mlir-disable-threading
// RUN: cmp %t.tf.a.fuelx %t.tf.b.fuelx
// RUN: fuel-run %t.tf.a.fuelx --dump | FileCheck %s --check-prefix=DUMP

// Tests that the executable does not depend on the thread count: the
// example transformer and a 300-op transformer-shaped program (many nodes
// sharing few kernels, many commands whose dependencies come from reused
// arena slots) compile to the same bytes with threads and without.

// CHECK: fuel-compile: {{[0-9]+}} kernels ({{[0-9]+}} generated in 1 module, {{[0-9]+}} library), 300 dispatches,
// DUMP: dispatch {{.*}} after [{{[0-9]}}
