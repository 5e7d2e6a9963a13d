// RUN: rm -rf %t && mkdir -p %t
// RUN: not fuel-judge %S/Inputs/small.mlir --emit-jobs=%t/j --db=%t/p.db 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOTH
// RUN: not fuel-judge %S/Inputs/small.mlir 2>&1 | FileCheck %s --check-prefix=NEITHER
// RUN: not fuel-judge --ingest=%t/r.json 2>&1 | FileCheck %s --check-prefix=NODB
// RUN: not fuel-judge %S/Inputs/small.mlir --db=%t/p.db --budget=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUDGET
// RUN: not fuel-judge --ingest=%t/missing.json --db=%t/p.db 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: echo '{"format": "fuel-judge-results", "version": 1, "fuel_version": "0.1.0", "jobs": [{"state": "measured", "key": {"kernel_id": "cpu.gen.x_f32", "revision": "0x12", "op_kind": "matmul", "dtypes": ["f32"], "shapes": [[2]], "params": [], "size_class": 1, "device_kind": "gpu", "device_ordinal": 0}}]}' > %t/bad-kind.json
// RUN: not fuel-judge --ingest=%t/bad-kind.json --db=%t/p.db 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KIND
// RUN: echo '{"format": "fuel-judge-results", "version": 1, "fuel_version": "0.1.0", "jobs": [{"state": "measured", "key": {"kernel_id": "cpu.gen.x_f32", "revision": "0x12", "op_kind": "matmul", "dtypes": ["f32"], "shapes": [[2]], "params": [], "size_class": 1, "device_kind": "cpu", "device_ordinal": 0}, "device_name": "x", "device_driver": "", "pool_threads": 2, "library_threads": 1, "median_ns": 5, "p10_ns": 6, "p90_ns": 7, "noise_ns": 0, "iterations": 3, "timestamp": 1}]}' > %t/bad-order.json
// RUN: not fuel-judge --ingest=%t/bad-order.json --db=%t/p.db 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ORDER
// RUN: echo '{"format": "fuel-judge-jobs", "version": 1, "fuel_version": "0.1.0", "jobs": [{"id": "a", "executable": "a.fuelx", "device": "tpu:0"}]}' > %t/bad.json
// RUN: not fuel-run --measure=%t/bad.json --json=%t/out.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MANIFEST
// RUN: not fuel-run --measure=%t/bad.json 2>&1 | FileCheck %s --check-prefix=NOJSON
// RUN: not fuel-run --measure=%t/bad.json --json=- --budget=soon 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADBUDGET

// Tests fuel-judge's and fuel-run --measure's errors: the command line,
// and untrusted results and manifests, each error naming the field.

// BOTH: fuel-judge: error: --emit-jobs and --db exclude each other
// NEITHER: fuel-judge: error: give --db=FILE (measure here) or --emit-jobs=DIR
// NODB: fuel-judge: error: --ingest needs --db=FILE
// BUDGET: fuel-judge: error: --budget expects seconds, a number > 0
// MISSING: fuel-judge: error: --ingest: cannot read '{{.*}}missing.json'
// KIND: fuel-judge: error: {{.*}}bad-kind.json: jobs[0].key.device_kind: 'gpu' is not cpu, cuda or vulkan
// ORDER: fuel-judge: error: {{.*}}bad-order.json: jobs[0]: expected p10_ns <= median_ns <= p90_ns
// MANIFEST: fuel-run: error: {{.*}}bad.json:1:{{[0-9]+}}: jobs[0].device: 'tpu:0' is not a device (cpu, cuda:N, vulkan:N)
// NOJSON: fuel-run: error: --measure needs --json=OUT
// BADBUDGET: fuel-run: error: --budget expects seconds (a number > 0), got 'soon'
