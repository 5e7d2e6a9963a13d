// RUN: rm -rf %t && mkdir -p %t
// RUN: fuel-judge %S/Inputs/small.mlir --topology=%topologies/cpu-cuda.json \
// RUN:   --emit-jobs=%t/jobs | FileCheck %s --check-prefix=EMIT
// RUN: fuel-run --measure=%t/jobs/manifest.json --json=%t/r.json \
// RUN:   --cuda-library=libfuel-no-such-driver.so --budget=30 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MEASURE
// RUN: /usr/bin/python3 %S/Inputs/judge_check.py results %t/r.json \
// RUN:   --measured 4 --skipped 3
// RUN: fuel-run --measure=%t/jobs/manifest.json --json=- --device=cuda:0 \
// RUN:   --cuda-library=libfuel-no-such-driver.so 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONLY

// Tests jobs for a device this machine lacks: a CPU + CUDA topology gives
// CUDA jobs too (PTX compiles without a GPU); measuring them without a
// driver reports them skipped with the reason and measures the CPU ones;
// --device=cuda:0 skips the CPU jobs as well.

// EMIT: fuel-judge: 7 jobs in

// MEASURE: fuel-run: 4 measured, 3 skipped, 0 failed, 0 pending
// MEASURE: fuel-run: skipped {{[0-9a-f]+}}: cuda:0 is not on this machine

// ONLY: fuel-run: 0 measured, 7 skipped, 0 failed, 0 pending
// ONLY: "state": "skipped", "reason": "not on the device measured (cuda:0)"
