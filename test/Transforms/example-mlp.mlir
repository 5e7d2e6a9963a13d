// RUN: fuel-opt %S/../../examples/mlp.mlir -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%topologies/cpu-cuda.json explain=true" \
// RUN:   2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// Tests that the README's main example plans: four nodes, each ranked on
// the host and on the GPU, all placed on the GPU, the weights copied there
// and the result copied back, with the ranking and the placement of each
// node explained.

// CHECK: module attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none">, fuel.topology = #topology}
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: fuel.predicted_ns = #fuel.predicted<total =
// CHECK: %[[X:.+]] = fuel.copy %arg0 : tensor<64x256xf32> from cpu to cuda:0
// CHECK: %[[W1:.+]] = fuel.copy %arg1 : tensor<256x512xf32> from cpu to cuda:0
// CHECK: fuel.node 0 matmul (%[[X]], %[[W1]]) {{.*}} on cuda:0 next_best cpu
// CHECK: fuel.node 1 elementwise {{.*}} on cuda:0
// CHECK: fuel.node 2 matmul {{.*}} on cuda:0
// CHECK: %[[P:.+]] = fuel.node 3 softmax {{.*}} on cuda:0
// CHECK: %[[R:.+]] = fuel.copy %[[P]] : tensor<64x128xf32> from cuda:0 to cpu
// CHECK: return %[[R]]

// REMARK: remark: node 0 (matmul): winner cuda.generated.matmul_f32 on cuda:0; best on cpu: cpu.openblas.matmul_f32
// REMARK-SAME: runner-up on cpu: cpu.blis.matmul_f32, behind cpu.openblas.matmul_f32 on time
// REMARK: remark: node 1 (elementwise)
// REMARK: remark: node 2 (matmul)
// REMARK: remark: node 3 (softmax)
// REMARK: remark: node 0 (matmul): placed on cuda:0 (cuda.generated.matmul_f32, 5839 ns, inbound transfers 43594 ns); moving it alone to cpu would change the total by +586120 ns
// REMARK: remark: node 3 (softmax): placed on cuda:0
