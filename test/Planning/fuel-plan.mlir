// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --split-input-file -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-cuda.json" | FileCheck %s
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --split-input-file -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%topologies/cpu-cuda.json" | FileCheck %s --check-prefix=PLAN
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --split-input-file --fuel-plan="topology=%topologies/cpu-cuda.json" -o %t1
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %t1 --split-input-file --fuel-plan="topology=%topologies/cpu-cuda.json" -o %t2
// RUN: diff %t1 %t2
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --fuel-plan="topology=%topologies/cpu-cuda.json" \
// RUN:   -mlir-pass-statistics -mlir-pass-statistics-display=list -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=%if stats %{STATS%} %else %{NOSTATS%}

// The fuel-plan pipeline on a CPU + GPU topology. `fuel-plan-candidates`
// (attach, form nodes, enumerate, filter, price, rank, retain) shows every
// device's alternatives (CHECK); `fuel-plan` goes on to place the nodes and
// insert the copies (PLAN). Planning planned IR changes nothing (the diff
// above). Times are those of fuel-annotate-costs.mlir.

// Pass statistics exist only where LLVM was built with statistics (an
// assertions build or LLVM_FORCE_ENABLE_STATS): elsewhere the report is
// empty, so the values are checked only under the lit feature `stats`.
// This run plans the whole file as one module: 12 + 10 candidates, of
// which the strided matmul's blis, openblas and cublas are filtered out.
// NOSTATS: Pass statistics report
// STATS-DAG: (S) {{ *}}22 candidates - Number of candidates enumerated
// STATS-DAG: (S) {{ *}}3 filtered - Number of candidates filtered out
// STATS-DAG: (S) {{ *}}19 priced - Number of candidates priced
// STATS-DAG: (S) {{ *}}0 priors - Number of prices that used a prior
// STATS-DAG: (S) {{ *}}0 dropped - Number of candidates dropped

// Tests that each node of a two-layer network gets ranked alternatives on
// both devices, with a host op between two nodes. The matmuls run fastest on
// the GPU; the small exp on the host, where the GPU's dispatch overhead
// dominates: 2048 elements, flops 8*2048 = 16384, bytes 4*(2048+2048) = 16384,
//   cpu.generated  .5/.8:  max(16384/16, 16384/16) = 1024 + 2000 = 3024
//   cuda.generated .5/.85: max(ceil(16384/25000) = 1, ceil(16384/2550) = 7)
//                          + 5000 = 5007
// On the host the generated matmul ranks first (the measured figures: its
// workgroups use every core, OpenBLAS's run one at a time). The second
// matmul (M=64, N=32, K=32): flops 2*64*32*32 = 131072, bytes
// 4*(64*32 + 32*32 + 64*32) = 20480,
//   cpu.generated  max(ceil(7585.2) = 7586, ceil(3413.3) = 3414) + 2000    = 9586
//   cpu.openblas   max(ceil(10778.9) = 10779, ceil(1163.6) = 1164) + 2000 = 12779
//   cpu.blis       max(ceil(11702.9) = 11703, ceil(2694.7) = 2695) + 2000 = 13703
//   cuda.cublas    max(ceil(3.08) = 4, ceil(8.03) = 9) + 5000 + 3000     = 8009
//   cuda.generated max(ceil(6.55) = 7, ceil(9.75) = 10) + 5000           = 5010

// CHECK-LABEL: func.func @network
// CHECK: fuel.node 0 matmul
// CHECK-SAME: [#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}time_ns = 5028 static{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}time_ns = 8023 static{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}time_ns = 32341 static{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}time_ns = 45116 static{{[^#]*}}#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}time_ns = 48812 static{{[^#]*}}]> {
// CHECK: call @log
// CHECK: fuel.node 1 elementwise
// CHECK-SAME: [#fuel.candidate<"cpu.generated.elementwise_f32"{{[^#]*}}time_ns = 3024 static{{[^#]*}}#fuel.candidate<"cuda.generated.elementwise_f32"{{[^#]*}}time_ns = 5007 static{{[^#]*}}]> {
// CHECK: fuel.node 2 matmul
// CHECK-SAME: [#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}time_ns = 5010 static{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}time_ns = 8009 static{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}time_ns = 9586 static{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}time_ns = 12779 static{{[^#]*}}#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}time_ns = 13703 static{{[^#]*}}]> {
// With transfers priced, this small network stays on the host: all-cpu is
// 32,341 + 3,024 + 9,586 = 44,951 ns, and moving any node alone to the GPU
// costs more in copies (10,000 ns latency each way) than it saves.
// PLAN-LABEL: func.func @network
// PLAN-SAME: fuel.predicted_ns = #fuel.predicted<total = 44951, nodes = 44951, copies = 0, coupling = 0>
// PLAN-NOT: fuel.copy
// PLAN: fuel.node 0 matmul {{.*}} on cpu next_best cuda:0 (+4982 ns)
// PLAN: fuel.node 1 elementwise {{.*}} on cpu next_best cuda:0 (+22639 ns)
// PLAN: fuel.node 2 matmul {{.*}} on cpu next_best cuda:0 (+26244 ns)
func.func private @log(tensor<64x32xf32>)
func.func @network(%x: tensor<64x128xf32>, %w1: tensor<128x32xf32>, %w2: tensor<32x32xf32>)
    -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  func.call @log(%h) : (tensor<64x32xf32>) -> ()
  %r = linalg.exp ins(%h : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<64x32xf32>, tensor<32x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// -----

// Tests that a pinned node keeps only its pin's candidates and a destructive
// node only the decision device's, through the whole pipeline, and that a
// strided operand leaves the generated kernels.

// CHECK-LABEL: func.func @constrained
// CHECK: fuel.node 0 matmul
// CHECK-SAME: pin cuda:0 alternatives #fuel.alternatives<decision = <{{[^>]*}}device = cuda:0>, [#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}]> {
// CHECK: fuel.node 1 matmul
// CHECK-SAME: destructive alternatives #fuel.alternatives<decision = <{{[^>]*}}device = cpu>, [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}]> {
// CHECK: tensor.extract_slice
// CHECK: fuel.node 2 matmul
// CHECK-SAME: [#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}]> {
// Placement: node 0 is pinned to cuda:0, node 1 (destructive) stays on its
// decision device, cpu; node 2 (generated kernels only) stays on cpu:
// 32,341 ns there against 5,028 on cuda:0 plus 33,278 ns of copies (big,
// 65,536 B, 12,622; node 1's result there and node 2's back, 8,192 B each,
// 2 x 10,328), 5,965 ns more. Nodes: 5,028 + 32,341 + 32,341 = 69,710.
// Copies, each 10,000 ns + bytes / 25 B/ns: a (32,768 B) 11,311; b
// (16,384 B) 10,656; node 0's result to cpu 10,328. Total 102,005. (A strided
// slice re-made on the copy of its root: fuel-insert-residency-copies.mlir.)
// PLAN-LABEL: func.func @constrained
// PLAN-SAME: #fuel.predicted<total = 102005, nodes = 69710, copies = 32295, coupling = 0>
// PLAN: %[[A:.+]] = fuel.copy %arg0 : tensor<64x128xf32> from cpu to cuda:0
// PLAN: %[[B:.+]] = fuel.copy %arg1 : tensor<128x32xf32> from cpu to cuda:0
// PLAN-NOT: fuel.copy %arg2
// PLAN: %[[M:.+]] = fuel.node 0 matmul (%[[A]], %[[B]]) {{.*}} pin cuda:0 on cuda:0 alternatives
// PLAN: %[[MH:.+]] = fuel.copy %[[M]] : tensor<64x32xf32> from cuda:0 to cpu
// PLAN: %[[N:.+]] = fuel.node 1 matmul (%arg0, %arg1, %[[MH]]) {{.*}} on cpu destructive alternatives
// PLAN: %[[S:.+]] = tensor.extract_slice %arg2[0, 0] [64, 128] [1, 2]
// PLAN: %[[O:.+]] = fuel.node 2 matmul (%[[S]], %arg1, %[[N]]) {{.*}} on cpu next_best cuda:0 (+5965 ns)
// PLAN-NOT: fuel.copy
// PLAN: return %[[O]]
func.func @constrained(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %big: tensor<64x256xf32>)
    -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul {fuel.pin = #fuel.device<cuda:0>}
                     ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %n = linalg.matmul {fuel.destructive}
                     ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%m : tensor<64x32xf32>) -> tensor<64x32xf32>
  %s = tensor.extract_slice %big[0, 0] [64, 128] [1, 2] : tensor<64x256xf32> to tensor<64x128xf32>
  %o = linalg.matmul ins(%s, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%n : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}
