// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %S/../../examples/mlp.mlir -mlir-print-op-on-diagnostic=false \
// RUN:   --fuel-plan="topology=%topologies/cpu-cuda.json explain=true" \
// RUN:   2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// Tests that the README's main example plans: seven nodes (three matmuls,
// each followed by its bias, the first two with ReLU, then the softmax),
// each ranked on the host and on the GPU. The three matmuls and the hidden
// layers' bias + ReLU go to the GPU with the weights they read; the small
// head's bias and softmax stay on the host, after one copy of the 64x10
// logits back. The ranking and the placement of each node are explained.

// CHECK: module attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none">, fuel.topology = #topology}
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: fuel.predicted_ns = #fuel.predicted<total =
// CHECK: %[[X:.+]] = fuel.copy %arg0 : tensor<64x784xf32> from cpu to cuda:0
// CHECK: %[[W1:.+]] = fuel.copy %arg1 : tensor<784x1024xf32> from cpu to cuda:0
// CHECK: fuel.copy %arg5 : tensor<1024x10xf32> from cpu to cuda:0
// CHECK-NOT: fuel.copy %arg6
// CHECK: fuel.node 0 matmul (%[[X]], %[[W1]]) {{.*}} on cuda:0 next_best cpu
// CHECK: fuel.node 1 elementwise {{.*}} on cuda:0
// CHECK: fuel.node 2 matmul {{.*}} on cuda:0
// CHECK: fuel.node 3 elementwise {{.*}} on cuda:0
// CHECK: %[[L:.+]] = fuel.node 4 matmul {{.*}} -> tensor<64x10xf32> on cuda:0
// CHECK: %[[LC:.+]] = fuel.copy %[[L]] : tensor<64x10xf32> from cuda:0 to cpu
// CHECK: %[[B:.+]] = fuel.node 5 elementwise (%[[LC]], %arg6) {{.*}} on cpu
// CHECK: %[[P:.+]] = fuel.node 6 softmax (%[[B]]) {{.*}} on cpu
// CHECK-NOT: fuel.copy
// CHECK: return %[[P]]

// REMARK: remark: node 0 (matmul): winner cuda.generated.matmul_f32 on cuda:0; best on cpu: cpu.generated.matmul_f32
// REMARK-SAME: runner-up on cpu: cpu.openblas.matmul_f32, behind cpu.generated.matmul_f32 on time
// REMARK: remark: node 1 (elementwise)
// REMARK: remark: node 2 (matmul): winner cuda.cublas.matmul_f32 on cuda:0
// REMARK: remark: node 3 (elementwise)
// REMARK: remark: node 4 (matmul)
// REMARK: remark: node 5 (elementwise): winner cpu.generated.elementwise_f32 on cpu
// REMARK: remark: node 6 (softmax): winner cpu.generated.softmax_f32 on cpu
// REMARK: remark: node 0 (matmul): placed on cuda:0 (cuda.generated.matmul_f32, 10139 ns, inbound transfers 156480 ns); moving it alone to cpu would change the total by +5802653 ns
// REMARK: remark: node 6 (softmax): placed on cpu (cpu.generated.softmax_f32, 3165 ns, inbound transfers 0 ns); moving it alone to cuda:0 would change the total by +22044 ns
