// RUN: rm -f %t.openblas.db* %t.blis.db*
// RUN: fuel-opt %S/../../examples/mlp.mlir \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json" -o %t.candidates.mlir
// RUN: fuel-profile-db %t.openblas.db --record=%t.candidates.mlir --timestamp=0 \
// RUN:   --time='cpu.generated.matmul_f32=*1.0:60' --time='cpu.blis.matmul_f32=*1.0:40' \
// RUN:   --time='cpu.openblas.matmul_f32=*0.3:50' | FileCheck %s --check-prefix=RECORD
// RUN: fuel-profile-db %t.blis.db --record=%t.candidates.mlir --timestamp=0 \
// RUN:   --time='cpu.generated.matmul_f32=*1.0:60' --time='cpu.blis.matmul_f32=*0.5:40' \
// RUN:   --time='cpu.openblas.matmul_f32=*0.3:50' | FileCheck %s --check-prefix=RECORD
// RUN: fuel-opt %S/../../examples/mlp.mlir -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json" | FileCheck %s --check-prefix=STATIC
// RUN: fuel-opt %S/../../examples/mlp.mlir -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.openblas.db" \
// RUN:   | FileCheck %s --check-prefixes=MEASURED,OPENBLAS
// RUN: fuel-opt %S/../../examples/mlp.mlir -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json profile=%t.blis.db" \
// RUN:   | FileCheck %s --check-prefixes=MEASURED,BLIS

// Tests planning with hand-made profile databases (SEMANTICS §3 step 7) on
// the README's example, on a host-only machine. Layer 1 ranks the generated
// matmul first, BLIS second (its Layer-1 time is about half OpenBLAS's). A
// database that measures OpenBLAS at 0.3 of its Layer-1 time and the others
// at theirs makes OpenBLAS win every matmul; one that also measures BLIS at
// 0.5 of its Layer-1 time — faster than OpenBLAS by more than 2% and the
// noises — flips every matmul to BLIS. Measured candidates keep their noise
// and Layer-1 time; nodes the databases do not hold (elementwise, softmax)
// keep Layer 1.

// RECORD: fuel-profile-db: stored 9 measurements in

// STATIC-LABEL: func.func @mlp
// STATIC: fuel.node 0 matmul {{.*}} on cpu alternatives
// STATIC-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}time_ns = {{[0-9]+}} static,
// STATIC-SAME: #fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}time_ns = {{[0-9]+}} static,
// STATIC-SAME: #fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}time_ns = {{[0-9]+}} static,
// STATIC-NOT: measured

// MEASURED-LABEL: func.func @mlp
// OPENBLAS: fuel.node 0 matmul {{.*}} on cpu alternatives
// OPENBLAS-SAME: [#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}time_ns = {{[0-9]+}} measured, noise_ns = 50, static_time_ns = {{[0-9]+}},
// OPENBLAS-SAME: #fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}time_ns = {{[0-9]+}} measured, noise_ns = 60, static_time_ns = {{[0-9]+}},
// OPENBLAS-SAME: #fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}time_ns = {{[0-9]+}} measured, noise_ns = 40, static_time_ns = {{[0-9]+}},
// BLIS: fuel.node 0 matmul {{.*}} on cpu alternatives
// BLIS-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}time_ns = {{[0-9]+}} measured, noise_ns = 40, static_time_ns = {{[0-9]+}},
// BLIS-SAME: #fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}time_ns = {{[0-9]+}} measured, noise_ns = 50, static_time_ns = {{[0-9]+}},
// MEASURED: fuel.node 1 elementwise {{.*}} time_ns = {{[0-9]+}} static,
// OPENBLAS: fuel.node 2 matmul {{.*}} alternatives #fuel.alternatives<{{[^#]*}}[#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}} measured, noise_ns = 50,
// BLIS: fuel.node 2 matmul {{.*}} alternatives #fuel.alternatives<{{[^#]*}}[#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}} measured, noise_ns = 40,
// OPENBLAS: fuel.node 4 matmul {{.*}} alternatives #fuel.alternatives<{{[^#]*}}[#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}} measured, noise_ns = 50,
// BLIS: fuel.node 4 matmul {{.*}} alternatives #fuel.alternatives<{{[^#]*}}[#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}} measured, noise_ns = 40,
// MEASURED: fuel.node 6 softmax {{.*}} time_ns = {{[0-9]+}} static,
