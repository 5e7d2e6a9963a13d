// RUN: rm -rf %t && mkdir -p %t
// RUN: fuel-topology probe > %t/probed.json
// RUN: /usr/bin/python3 -c "import json,sys; t=json.load(open(sys.argv[1])); t['devices']=[d for d in t['devices'] if d['device']=='cpu']; t['links']=[]; json.dump(t,open(sys.argv[2],'w'))" %t/probed.json %t/host.json
// RUN: fuel-judge %S/../../../examples/mlp.mlir --topology=%t/host.json \
// RUN:   --db=%t/p.db --budget=120 | FileCheck %s --check-prefix=JUDGE
// RUN: fuel-profile-db %t/p.db --dump | FileCheck %s --check-prefix=POOL
// RUN: fuel-opt %S/../../../examples/mlp.mlir -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%t/host.json profile=%t/p.db" \
// RUN:   | FileCheck %s --check-prefix=PLAN
// RUN: fuel-opt %S/../../../examples/mlp.mlir -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%t/host.json profile=%t/p.db profile-threads=2" \
// RUN:   2> %t/two.txt | FileCheck %s --check-prefix=EMPTY
// RUN: FileCheck %s --check-prefix=WARN < %t/two.txt

// Tests that what fuel-judge stores is what the planner looks up: both build
// the key with mlir::fuel::measurementKey, the device's name and driver
// coming from this machine's probe (the topology is the probed one, the host
// alone, so that only CPU candidates are measured), and both default to one
// pool thread (fuel-judge --cpu-threads, fuel-plan's profile-threads), so
// a plain judge run and a plain plan agree on any machine. After measuring,
// every candidate of every node of the README's example is measured when
// planning with the defaults; planning for two pool threads finds none and
// warns once, naming the pool size the profile holds.

// JUDGE: fuel-judge: {{[0-9]+}} jobs: {{[0-9]+}} measured, 0 already in the database, 0 skipped, 0 failed, 0 left

// POOL: "pool_threads": 1,
// POOL-NOT: "pool_threads": {{([02-9]|1[0-9])}}

// EMPTY-LABEL: func.func @mlp
// EMPTY-NOT: measured

// WARN: warning: the profile '{{.*}}p.db' holds measurements for {{[0-9]+}} node(s) only under cpu threads 1, not under the 2 this plan is priced for (profile-threads=2); plan with profile-threads=1
// WARN-NOT: warning

// PLAN-LABEL: func.func @mlp
// PLAN: fuel.node 0 {{.*}} measured
// PLAN-NOT: {{time_ns = [0-9]+ static}}
// PLAN: return
