// RUN: not fuel-opt %s --fuel-attach-topology=topology=%t.missing.json --fuel-place="placement-algorithm=bogus" -o /dev/null 2>&1 | FileCheck %s
// RUN: not fuel-opt %s --fuel-plan="topology=%t.missing.json placement-algorithm=exact_tree" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: fuel-opt --help | FileCheck %s --check-prefix=HELP

// Tests that an unknown `placement-algorithm` fails when the option is
// parsed, in fuel-place and in fuel-plan: no pass runs, so the missing
// topology file is never read.
// CHECK: for the --placement-algorithm option: Cannot find option named 'bogus'!
// CHECK-NOT: cannot use topology
// PIPELINE: for the --placement-algorithm option: Cannot find option named 'exact_tree'!
// PIPELINE-NOT: cannot use topology

// Tests that `--help` lists the algorithms, for fuel-place and fuel-plan.
// HELP:      --placement-algorithm=<value>
// HELP-NEXT:   =auto
// HELP-NEXT:   =greedy
// HELP-NEXT:   =exact-tree
// HELP-NEXT:   =mincut
// HELP-NEXT:   =brute-force
// HELP:      --placement-algorithm=<value>
// HELP-NEXT:   =auto
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
