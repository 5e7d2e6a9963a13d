// RUN: rm -rf %t && mkdir -p %t
// RUN: fuel-topology probe > %t/probed.json
// RUN: /usr/bin/python3 -c "import json,sys; t=json.load(open(sys.argv[1])); t['devices']=[d for d in t['devices'] if d['device']=='cpu']; t['links']=[]; json.dump(t,open(sys.argv[2],'w'))" %t/probed.json %t/host.json
// RUN: fuel-judge %S/../../../examples/mlp.mlir --topology=%t/host.json \
// RUN:   --db=%t/p.db --cpu-threads=1 --budget=120 | FileCheck %s --check-prefix=JUDGE
// RUN: fuel-opt %S/../../../examples/mlp.mlir -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%t/host.json profile=%t/p.db profile-threads=1" \
// RUN:   | FileCheck %s --check-prefix=PLAN
// RUN: fuel-opt %S/../../../examples/mlp.mlir -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%t/host.json profile=%t/p.db profile-threads=2" \
// RUN:   | FileCheck %s --check-prefix=EMPTY

// Tests that what fuel-judge stores is what the planner looks up: both build
// the key with mlir::fuel::measurementKey, the device's name and driver
// coming from this machine's probe (the topology is the probed one, the host
// alone, so that only CPU candidates are measured). After measuring, every
// candidate of every node of the README's example is measured when planning
// for the runtime setting it was measured under (one pool thread); planning
// for two pool threads finds none.

// EMPTY-LABEL: func.func @mlp
// EMPTY-NOT: measured

// JUDGE: fuel-judge: {{[0-9]+}} jobs: {{[0-9]+}} measured, 0 already in the database, 0 skipped, 0 failed, 0 left

// PLAN-LABEL: func.func @mlp
// PLAN: fuel.node 0 {{.*}} measured
// PLAN-NOT: {{time_ns = [0-9]+ static}}
// PLAN: return
