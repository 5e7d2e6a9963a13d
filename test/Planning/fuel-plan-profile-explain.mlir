// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: fuel-opt %s --fuel-plan-candidates="topology=%topologies/cpu-only.json" -o %t.candidates.mlir
// RUN: fuel-profile-db %t.db --record=%t.candidates.mlir --timestamp=0 \
// RUN:   --time='cpu.openblas.matmul_f32=1000:10' --time='cpu.blis.matmul_f32=1015:10'
// RUN: fuel-opt %s -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.db explain=true export-plan=%t.json" \
// RUN:   -o %t.planned.mlir 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-only.json profile=%t.db import-plan=%t.json export-plan=%t.replayed.json" -o /dev/null
// RUN: %python %S/Inputs/compare-placements.py %t.json %t.replayed.json
// RUN: FileCheck %s --check-prefix=JSON < %t.replayed.json
// RUN: fuel-opt %t.planned.mlir | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: fuel-profile-db %t.db --dump | FileCheck %s --check-prefix=DUMP

// Tests the explain remarks of planning with a profile database, the
// measured fields in the plan export, and the round trip of a plan made
// with one through import-plan. OpenBLAS (1000 ns, noise 10) and BLIS
// (1015 ns, noise 10) are measured within 2% of each other: they tie
// (SEMANTICS §6), and the tie goes to BLIS, which Layer 1 prices faster,
// although it was measured slower.

// REMARK: remark: node 0 (matmul): profile '{{.*}}.db': measured 2 of 3; cpu.blis.matmul_f32 on cpu 1015 ns (noise 10 ns, Layer 1 [[BLIS:[0-9]+]] ns); cpu.openblas.matmul_f32 on cpu 1000 ns (noise 10 ns, Layer 1 [[OPENBLAS:[0-9]+]] ns); not measured: cpu.generated.matmul_f32 on cpu
// REMARK: remark: node 1 (elementwise): profile '{{.*}}.db': measured 0 of 1; not measured: cpu.generated.elementwise_f32 on cpu

// REMARK: remark: node 0 (matmul): winner cpu.blis.matmul_f32 on cpu

// JSON: "winner": {
// JSON-NEXT: "kernel": "cpu.blis.matmul_f32",
// JSON: "time_ns": 1015,
// JSON-NEXT: "time_source": "measured",
// JSON-NEXT: "noise_ns": 10,
// JSON-NEXT: "static_time_ns": {{[0-9]+}}
// JSON: "runner_up": {
// JSON-NEXT: "kernel": "cpu.openblas.matmul_f32",
// JSON: "time_ns": 1000,
// JSON-NEXT: "time_source": "measured",
// JSON-NEXT: "noise_ns": 10,
// JSON: "kind": "elementwise",
// JSON: "time_source": "static"
// JSON-NOT: noise_ns

// ROUNDTRIP: #fuel.candidate<"cpu.blis.matmul_f32"{{.*}}time_ns = 1015 measured, noise_ns = 10, static_time_ns = {{[0-9]+}},

// DUMP: "schema_version": 2,
// DUMP: "measurements": [
// DUMP: "kernel": "cpu.blis.matmul_f32",
// DUMP-NEXT: "revision": "0x{{[0-9a-f]+}}",
// DUMP-NEXT: "op": "matmul",
// DUMP-NEXT: "dtypes": [
// DUMP-NEXT: "f32",
// DUMP-NEXT: "f32",
// DUMP-NEXT: "f32"
// DUMP-NEXT: ],
// DUMP-NEXT: "shapes": [
// DUMP-NEXT: [
// DUMP-NEXT: 64,
// DUMP-NEXT: 256
// DUMP: "device": "cpu:0",
// DUMP-NEXT: "device_name": "8-core x86-64 host, AVX2",
// DUMP-NEXT: "device_driver": "",
// DUMP-NEXT: "pool_threads": 1,
// DUMP-NEXT: "library_threads": 1,
// DUMP-NEXT: "median_ns": 1015,
// DUMP: "noise_ns": 10,
// DUMP-NEXT: "timestamp": 0,

func.func @layer(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x512xf32>)
                     outs(%acc : tensor<64x512xf32>) -> tensor<64x512xf32>
  %r = linalg.exp ins(%m : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}
