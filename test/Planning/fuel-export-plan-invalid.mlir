// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-only.json --fuel-export-plan=file=%S -verify-diagnostics -o /dev/null
// RUN: not fuel-opt %s --fuel-export-plan=file=%t.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-TOPOLOGY

// Tests that a file that cannot be written (here a directory) is an error
// at the module, not a crash.
// expected-error @below {{cannot write the plan to}}
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// Tests that a module without a topology cannot be exported: its copies are
// priced by the topology's transfer model.
// NO-TOPOLOGY: error: the module has no 'fuel.topology' to price its copies; run fuel-attach-topology (or fuel-plan) first
