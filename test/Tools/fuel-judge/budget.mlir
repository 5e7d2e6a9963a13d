// RUN: rm -rf %t && mkdir -p %t
// RUN: fuel-judge %S/Inputs/small.mlir --topology=%topologies/cpu-only.json \
// RUN:   --db=%t/p.db --budget=0.001 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: /usr/bin/python3 %S/Inputs/judge_check.py db %t/p.db --rows 0
// RUN: fuel-judge %S/Inputs/small.mlir --topology=%topologies/cpu-only.json \
// RUN:   --db=%t/p.db --budget=60 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: /usr/bin/python3 %S/Inputs/judge_check.py db %t/p.db --rows 4

// Tests the budget: a run whose budget is gone before the first job exits
// 0 and lists every job as left; a rerun with time measures them all,
// printing a plain progress line per job (stderr is no terminal here) and
// the summary table, largest error first.

// TINY: fuel-judge: 4 jobs: 0 measured, 0 already in the database, 0 skipped, 0 failed, 4 left
// TINY: left (the budget ran out; a rerun measures them):
// TINY-COUNT-4: {{[0-9a-f]+}} cpu.{{.*}} on cpu (@small node

// ALL: fuel-judge: [1/4] cpu.{{.*}} on cpu, ETA ?
// ALL: fuel-judge: [4/4] cpu.{{.*}} on cpu, ETA
// ALL: fuel-judge: 4 jobs: 4 measured, 0 already in the database, 0 skipped, 0 failed, 0 left
// ALL-NOT: left (
// ALL: kernel{{ +}}device{{ +}}layer1 ns{{ +}}measured ns{{ +}}noise ns{{ +}}error{{ +}}judge s
// ALL-COUNT-4: cpu.{{[a-z_.0-9]+}}{{ +}}cpu{{ +.*}}%
