// RUN: rm -f %t.missing.db
// RUN: not fuel-opt %s -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.missing.db" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: echo "this is not a database" > %t.garbage.db
// RUN: not fuel-opt %s -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.garbage.db" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GARBAGE
// RUN: rm -f %t.v9.db %t.v9.db-wal %t.v9.db-shm
// RUN: fuel-profile-db %t.v9.db --create --schema-version | FileCheck %s --check-prefix=VERSION
// RUN: %python -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('UPDATE schema_version SET version = 9'); c.commit()" %t.v9.db
// RUN: not fuel-opt %s -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.v9.db" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEWER
// RUN: not fuel-opt %s -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.v9.db profile-threads=0" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THREADS
// RUN: not fuel-profile-db %t.v9.db --dump 2>&1 | FileCheck %s --check-prefix=NEWER
// RUN: cp %S/../fuzz-regressions/profile-db/crash-aa6ee3814cd311d4 %t.damaged.db
// RUN: not fuel-opt %s -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.damaged.db" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DAMAGED
// RUN: rm -f %t.trigger.db %t.trigger.db-wal %t.trigger.db-shm
// RUN: fuel-profile-db %t.trigger.db --create --schema-version | FileCheck %s --check-prefix=VERSION
// RUN: %python -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('CREATE TRIGGER wipe AFTER INSERT ON measurements BEGIN DELETE FROM measurements; END'); c.commit()" %t.trigger.db
// RUN: not fuel-profile-db %t.trigger.db --dump 2>&1 | FileCheck %s --check-prefix=TRIGGER
// RUN: not fuel-profile-db %t.missing.db --dump 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fuel-profile-db %t.other.db --create --record=%s --time='k=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNPLANNED
// RUN: not fuel-profile-db %t.other.db --create --record=%s --time='k' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADTIME

// Tests the errors of the profile option (fuel-annotate-costs, through
// fuel-plan) and of fuel-profile-db: a database that does not exist, a file
// that is not a database and a database of a newer schema are errors naming
// the file, as are a damaged file (the profile-db fuzz target's finding) and
// one with a trigger; a pool size below 1 names the option; recording needs a planned
// module and well-formed times.

// MISSING: profile database '{{.*}}missing.db': cannot open (it must exist): unable to open database file
// GARBAGE: profile database '{{.*}}garbage.db': cannot open as a database: file is not a database
// VERSION: 2
// NEWER: profile database '{{.*}}v9.db': schema version 9 is newer than version 2, the newest this fuel reads
// DAMAGED: profile database '{{.*}}damaged.db': the file is damaged (SQLite's integrity check: On tree page 14 cell 60: Offset 0 out of range 456..508)
// TRIGGER: profile database '{{.*}}trigger.db': not a fuel profile database: it has a trigger 'wipe' (fuel's databases have none)
// THREADS: fuel-annotate-costs option 'profile-threads' must be at least 1, got 0
// UNPLANNED: error: the module carries no topology; plan it first (fuel-plan or fuel-plan-candidates)
// BADTIME: fuel-profile-db: error: --time=k: expected KERNEL=NS[:NOISE]

func.func @layer(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x512xf32>)
                     outs(%acc : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %m : tensor<64x512xf32>
}
