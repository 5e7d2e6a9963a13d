// RUN: %python %S/run-and-check.py --self-test | FileCheck %s
// RUN: not %python %S/run-and-check.py %s --ref no_such_reference 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN

// Tests the integration harness without compiling anything: its comparison
// accepts what is within tolerance and refuses the rest (shapes, NaNs,
// integers exactly), it reads fuel-run --dump's inputs, outputs and
// dispatches, and the references give known answers on small cases. An
// unknown reference name is an error listing the known ones.

// CHECK: self-test passed
// UNKNOWN: run-and-check: error: no reference named 'no_such_reference' (known: {{.*}}mlp
