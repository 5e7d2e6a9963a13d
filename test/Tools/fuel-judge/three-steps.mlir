// RUN: rm -rf %t && mkdir -p %t
// RUN: fuel-judge %S/Inputs/small.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit-jobs=%t/a | FileCheck %s --check-prefix=EMIT
// RUN: fuel-judge %S/Inputs/small.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit-jobs=%t/b
// RUN: diff -r %t/a %t/b
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/a/manifest.json
// RUN: /usr/bin/python3 %S/Inputs/judge_check.py jobs %t/a/manifest.json \
// RUN:   --harness %S/../../Integration/run-and-check.py --work %t/harness \
// RUN:   | FileCheck %s --check-prefix=NUMPY
// RUN: fuel-run --measure=%t/a/manifest.json --json=%t/results.json \
// RUN:   --budget=30 2>&1 | FileCheck %s --check-prefix=MEASURE
// RUN: /usr/bin/python3 %S/Inputs/judge_check.py results %t/results.json \
// RUN:   --measured 4
// RUN: fuel-judge --ingest=%t/results.json --db=%t/p.db \
// RUN:   | FileCheck %s --check-prefix=INGEST
// RUN: /usr/bin/python3 %S/Inputs/judge_check.py db %t/p.db --rows 4 \
// RUN:   --results %t/results.json
// RUN: fuel-judge %S/Inputs/small.mlir --topology=%topologies/cpu-only.json \
// RUN:   --db=%t/p.db --budget=30 | FileCheck %s --check-prefix=AGAIN
// RUN: /usr/bin/python3 %S/Inputs/judge_check.py db %t/p.db --rows 4

// Tests the three steps through a directory: the jobs (one per distinct
// node and candidate, here the three CPU matmul kernels and the add) are
// the same bytes twice, each job's executable computes what numpy does,
// fuel-run --measure measures every job, the ingest stores them, and a
// plain fuel-judge run afterwards finds every job in the database (both
// measure with one pool thread by default).

// EMIT: fuel-judge: 4 jobs in {{.*}}/manifest.json

// MANIFEST: "format": "fuel-judge-jobs"
// MANIFEST: "jobs": [
// MANIFEST-DAG: "kernel": "cpu.generated.matmul_f32"
// MANIFEST-DAG: "kernel": "cpu.blis.matmul_f32"
// MANIFEST-DAG: "kernel": "cpu.openblas.matmul_f32"
// MANIFEST-DAG: "kernel": "cpu.generated.elementwise_f32"
// MANIFEST: "version": 1

// NUMPY: judge_check: 4 job executables match numpy

// MEASURE: fuel-run: [1/4]
// MEASURE: fuel-run: 4 measured, 0 skipped, 0 failed, 0 pending

// INGEST: fuel-judge: stored 4 measurements in {{.*}}p.db

// AGAIN: fuel-judge: 4 jobs: 0 measured, 4 already in the database, 0 skipped, 0 failed, 0 left
// AGAIN: kernel{{ +}}device{{ +}}layer1 ns{{ +}}measured ns
