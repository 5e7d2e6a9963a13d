// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-only.json --fuel-export-dot=file=%S -verify-diagnostics -o /dev/null
// RUN: not fuel-opt %s --fuel-export-dot=file=%t.dot -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-TOPOLOGY
// RUN: rm -f %t.no-config.dot
// RUN: not fuel-opt %S/Inputs/export-dot-no-config.mlir --fuel-export-dot=file=%t.no-config.dot -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-CONFIG
// RUN: not test -e %t.no-config.dot

// Tests that a file that cannot be written (here a directory) is an error
// at the module, not a crash.
// expected-error @below {{cannot write the graph to}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// Tests that a module without a topology cannot be drawn: devices take
// their colours from its device order.
// NO-TOPOLOGY: error: the module has no 'fuel.topology' to colour its devices and price its copies

// Tests that a module with a topology but no configuration is refused at
// the module, before any file is written: its pinned device places the
// arguments and results. The error names no function and shows no IR.
// NO-CONFIG: export-dot-no-config.mlir:3:1: error: the module has no 'fuel.config' to place arguments and results without a residency; run fuel-attach-topology (or fuel-plan) first
// NO-CONFIG-NOT: func.func
