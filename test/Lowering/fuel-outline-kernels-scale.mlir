// RUN: %python %S/../../bench/planning-scale/gen_model.py --shape transformer --ops 100 -o %t.mlir 2>/dev/null
// RUN: fuel-opt %t.mlir --fuel-plan="topology=%topologies/cpu-only.json" --fuel-outline-kernels -o %t.1.mlir
// RUN: fuel-opt %t.mlir --fuel-plan="topology=%topologies/cpu-only.json" --fuel-outline-kernels -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir
// RUN: fuel-opt %t.mlir --fuel-plan="topology=%topologies/cpu-only.json" --fuel-outline-kernels --mlir-print-debuginfo | FileCheck %s

// Tests that a 100-node program of repeated transformer layers outlines to
// few distinct kernels (every node dispatches one, repeated layers share
// them), deterministically, and that printing flags (locations) do not
// change which kernels are shared.

// CHECK:          fuel.executable @cpu on cpu {
// CHECK-COUNT-21: {{func.func @[a-z_]+_[0-9]+\(%arg0: memref|fuel.library_kernel @}}
// CHECK-NOT:      {{func.func @[a-z_]+_[0-9]+\(%arg0: memref|fuel.library_kernel @}}
// CHECK:          func.func @transformer_0(
// CHECK-COUNT-100: fuel.dispatch @cpu::@
// CHECK-NOT:      fuel.dispatch
// CHECK-NOT:      fuel.node
// CHECK:          return

// The MLP example, planned and outlined end to end.
// RUN: fuel-opt %S/../../examples/mlp.mlir --fuel-plan="topology=%topologies/cpu-only.json" --fuel-outline-kernels | FileCheck %s --check-prefix=MLP
// MLP:       fuel.executable @cpu on cpu {
// MLP:       func.func @mlp(
// MLP-NOT:     fuel.node
// MLP:         fuel.dispatch @cpu::@{{[a-z_]+}}_{{[0-9]+}} ({{.*}}) {node = 0 : i64
// MLP-NOT:     fuel.node
// MLP:         return
