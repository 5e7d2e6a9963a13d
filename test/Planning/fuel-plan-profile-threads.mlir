// RUN: rm -f %t.db %t.db-wal %t.db-shm %t.one.db %t.one.db-wal %t.one.db-shm
// RUN: fuel-opt %s --fuel-plan-candidates="topology=%topologies/cpu-only.json" -o %t.candidates.mlir
// RUN: fuel-profile-db %t.db --record=%t.candidates.mlir --timestamp=0 --profile-threads=2 \
// RUN:   --time='cpu.openblas.matmul_f32=*0.5:10' | FileCheck %s --check-prefix=RECORD2
// RUN: fuel-profile-db %t.db --record=%t.candidates.mlir --timestamp=0 --profile-threads=4 \
// RUN:   --time='cpu.blis.matmul_f32=*0.5:10' --time='cpu.generated.elementwise_f32=*1.0:10' \
// RUN:   | FileCheck %s --check-prefix=RECORD4
// RUN: fuel-opt %s -o /dev/null \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.db" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// RUN: fuel-opt %s -o /dev/null \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.db profile-threads=2" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWO
// RUN: fuel-opt %s -o /dev/null \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json profile=%t.db explain=true" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPLAIN
// RUN: fuel-opt %t.candidates.mlir -o /dev/null \
// RUN:   --pass-pipeline="builtin.module(func.func(fuel-annotate-costs{profile=%t.db}))" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS
// RUN: fuel-profile-db %t.one.db --record=%t.candidates.mlir --timestamp=0 \
// RUN:   --time='cpu.openblas.matmul_f32=*0.5:10' | FileCheck %s --check-prefix=RECORD2
// RUN: fuel-opt %s -o /dev/null \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.one.db" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE --allow-empty

// Tests the warning for a profile measured with another thread count than
// the plan is priced for (docs/PROFILE-DB.md, "Planning with
// measurements"). The database holds OpenBLAS's matmuls under a pool of two
// threads, BLIS's matmuls and the generated adds under four: planning with
// the default profile-threads=1 finds none of them and warns once for the
// module (two functions, four nodes), at the first such node, suggesting
// the pool size most of them were measured under; planning for two threads
// finds the OpenBLAS rows and still warns about the four-thread ones. With
// explain (functions in order) the warning is still one. The pass alone,
// outside fuel-plan, warns once per function. A database measured under the
// pool size planned for gives no warning.

// RECORD2: fuel-profile-db: stored 2 measurements in
// RECORD4: fuel-profile-db: stored 4 measurements in

// DEFAULT: fuel-plan-profile-threads.mlir:[[#@LINE+20]]:8: warning: the profile '{{.*}}.db' holds measurements for 4 node(s) only under cpu threads 2, 4, not under the 1 this plan is priced for (profile-threads=1); plan with profile-threads=4 for executables run with fuel-run --threads=4, or measure with fuel-judge --cpu-threads=1
// DEFAULT-NOT: warning

// TWO: warning: the profile '{{.*}}.db' holds measurements for 4 node(s) only under cpu threads 4, not under the 2 this plan is priced for (profile-threads=2); plan with profile-threads=4 for executables run with fuel-run --threads=4, or measure with fuel-judge --cpu-threads=2
// TWO-NOT: warning

// EXPLAIN: warning: the profile '{{.*}}.db' holds measurements for 4 node(s) only under cpu threads 2, 4,
// EXPLAIN-NOT: warning

// PASS: warning: the profile '{{.*}}.db' holds measurements for 2 node(s) only under cpu threads 2, 4,
// PASS: warning: the profile '{{.*}}.db' holds measurements for 2 node(s) only under cpu threads 2, 4,
// PASS-NOT: warning

// NONE-NOT: warning

func.func @first(%a: tensor<32x64xf32>, %b: tensor<64x16xf32>,
                 %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x16xf32>)
                     outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  %r = linalg.add ins(%m, %c : tensor<32x16xf32>, tensor<32x16xf32>)
                  outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

func.func @second(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>,
                  %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>)
                     outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.add ins(%m, %c : tensor<16x8xf32>, tensor<16x8xf32>)
                  outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
