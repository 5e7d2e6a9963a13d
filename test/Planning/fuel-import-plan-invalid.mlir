// RUN: fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-mismatch.json -verify-diagnostics -o /dev/null
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-malformed.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-duplicate-key.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUPLICATE-KEY
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-version.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERSION
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-no-version.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-VERSION
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-bad-device.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-bad-kind.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-duplicate-node.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUPLICATE
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan=file=%t.does-not-exist.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNREADABLE
// RUN: not fuel-opt %s --fuel-form-nodes --fuel-import-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FILE
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-cuda.json --fuel-form-nodes --fuel-import-plan=file=%S/Inputs/import-plan-other-topology.json 2>&1 | FileCheck %s --check-prefix=OTHER-TOPOLOGY

// Tests every mismatch between a plan file and the module, each reported
// before the pass fails: a function the module lacks or only declares (at
// the module), a node id the function lacks (at the function) and an op
// kind that differs (at the node). No node is pinned.
// expected-error @below {{names function 'missing', which the module lacks}}
// expected-error @below {{names function 'declared', which the module declares without a body}}
module {
  func.func private @declared(tensor<4xf32>)
  // expected-error @below {{names node 9 of 'f', which the function lacks}}
  func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    // expected-error @below {{node 0 (matmul): plan file '}}
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
                       outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %n = linalg.negf ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %n : tensor<4x4xf32>
  }
}

// Tests that malformed JSON is reported with the file, line and column.
// MALFORMED: error: malformed plan file {{.*}}import-plan-malformed.json:4:18: Expected , or } after object property

// Tests that a key given twice in one object is refused, not resolved
// silently in favour of one of them.
// DUPLICATE-KEY: error: malformed plan file {{.*}}import-plan-duplicate-key.json:7:57: duplicate key "placement" (each key may appear once per object)

// Tests that a plan of a format version this build does not know (it
// reads 1 and 2), or of none, is refused.
// VERSION: error: invalid plan file '{{.*}}import-plan-version.json': version: unsupported version 4; this build reads versions 1 to 3
// NO-VERSION: error: invalid plan file '{{.*}}import-plan-no-version.json': version: missing; this build reads versions 1 to 3

// Tests that fields of the wrong form are reported with their JSON path.
// DEVICE: error: invalid plan file '{{.*}}': functions[0].nodes[0].placement: expected a device ('cpu', 'cuda:N', 'vulkan:N') or null, got "gpu:0"
// KIND: error: invalid plan file '{{.*}}': functions[0].nodes[0].kind: expected an op kind, got "gemm"
// DUPLICATE: error: invalid plan file '{{.*}}': functions[0].nodes[1].id: node 0 is listed twice

// Tests that a file that cannot be read, or no file, is an error.
// UNREADABLE: error: cannot read the plan file '{{.*}}does-not-exist.json'
// NO-FILE: error: fuel-import-plan needs a plan file (file=...)

// Tests that a plan made for another topology is imported with a warning.
// OTHER-TOPOLOGY: warning: plan file '{{.*}}' was made for topology 0x0000000000000000, not this module's 0x{{[0-9a-f]+}}
// OTHER-TOPOLOGY: fuel.node 0 matmul {{.*}} pin cpu {
