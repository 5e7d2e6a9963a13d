// Tests that a bad command line fails before any input is read, with a
// message naming the option: an unknown or misspelt --plan key, a bad
// value, `topology` inside --plan, an unterminated quote, an unknown --emit stage, an executable
// without -o; and that a missing input file is an error naming it.

// RUN: not fuel-compile %S/Inputs/matmul.mlir --plan="bogus=1" --emit=planned 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN-KEY
// UNKNOWN-KEY: fuel-compile: error: invalid --plan options 'bogus=1': unknown fuel-plan option 'bogus' (docs/SEMANTICS.md §9 lists them)

// RUN: not fuel-compile %S/Inputs/matmul.mlir --plan="explain=true keep-per-devices=2" \
// RUN:   --emit=planned 2>&1 | FileCheck %s --check-prefix=MISSPELT
// MISSPELT: fuel-compile: error: invalid --plan options 'explain=true keep-per-devices=2': unknown fuel-plan option 'keep-per-devices'

// RUN: not fuel-compile %S/Inputs/matmul.mlir --plan="price-transfers=maybe" \
// RUN:   --emit=planned 2>&1 | FileCheck %s --check-prefix=BAD-VALUE
// BAD-VALUE: fuel-compile: error: invalid --plan options 'price-transfers=maybe': fuel-plan option 'price-transfers': 'maybe' is not a boolean (true or false)

// RUN: not fuel-compile %S/Inputs/matmul.mlir --plan="placement-algorithm=fastest" \
// RUN:   --emit=planned 2>&1 | FileCheck %s --check-prefix=BAD-ENUM
// BAD-ENUM: fuel-compile: error: invalid --plan options 'placement-algorithm=fastest': fuel-plan option 'placement-algorithm': 'fastest' is not a placement algorithm (auto, greedy, exact-tree, mincut or brute-force)

// RUN: not fuel-compile %S/Inputs/matmul.mlir \
// RUN:   --plan="topology=%topologies/cpu-only.json" --emit=planned 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOPOLOGY
// TOPOLOGY: fuel-compile: error: invalid --plan options 'topology={{.*}}cpu-only.json': fuel-plan option 'topology' is not read from option text: set the topology on its own (fuel-compile --topology=FILE|probe,

// RUN: not fuel-compile %S/Inputs/matmul.mlir --plan="precision='none" \
// RUN:   --emit=planned 2>&1 | FileCheck %s --check-prefix=QUOTE
// QUOTE: fuel-compile: error: invalid --plan options 'precision='none': unterminated quote in the value of 'precision'

// RUN: not fuel-compile %S/Inputs/matmul.mlir --emit=cubin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMIT
// EMIT: fuel-compile: for the --emit option: Cannot find option named 'cubin'!

// RUN: not fuel-compile %S/Inputs/matmul.mlir 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// RUN: not fuel-compile %S/Inputs/matmul.mlir -o - 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// NO-OUTPUT: fuel-compile: error: writing an executable needs -o FILE (use --emit=STAGE to print IR)

// RUN: not fuel-compile %S/Inputs/no-such-file.mlir --emit=planned 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: fuel-compile: error: cannot open input file '{{.*}}no-such-file.mlir': No such file or directory

// RUN: not fuel-compile %S/Inputs/matmul.mlir --topology=%S/Inputs/no-such-topology.json \
// RUN:   --emit=planned 2>&1 | FileCheck %s --check-prefix=BAD-TOPOLOGY
// BAD-TOPOLOGY: error: cannot use topology '{{.*}}no-such-topology.json'
