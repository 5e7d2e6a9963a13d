// RUN: fuel-opt %S/../../examples/mlp.mlir -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%S/../../examples/topologies/cpu-cuda.json explain=true" \
// RUN:   2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// Tests that the README's main example plans: four nodes, each with
// candidates on the host and on the GPU, and a remark per node.

// CHECK-DAG: #[[MM:alts[0-9]*]] = #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0f0608, device = cpu>
// CHECK-DAG: #[[SM:alts[0-9]*]] = #fuel.alternatives<decision = <op = softmax, dtype = f32, size_class = 0x000d07, device = cpu>
// CHECK: module attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none">, fuel.topology = #topology}
// CHECK-LABEL: func.func @mlp
// CHECK: fuel.node 0 matmul (%arg0, %arg1) {{.*}} alternatives #[[MM]]
// CHECK: fuel.node 1 elementwise
// CHECK: fuel.node 2 matmul
// CHECK: fuel.node 3 softmax {{.*}} alternatives #[[SM]]

// REMARK: remark: node 0 (matmul): winner cuda.generated.matmul_f32 on cuda:0; best on cpu: cpu.openblas.matmul_f32
// REMARK-SAME: runner-up on cpu: cpu.blis.matmul_f32, behind cpu.openblas.matmul_f32 on time
// REMARK: remark: node 1 (elementwise)
// REMARK: remark: node 2 (matmul)
// REMARK: remark: node 3 (softmax)
