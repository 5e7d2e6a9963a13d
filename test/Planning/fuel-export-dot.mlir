// RUN: fuel-opt %s -mlir-print-op-on-diagnostic=false --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-place --fuel-insert-residency-copies --fuel-export-dot=file=- -o /dev/null | FileCheck %s
// RUN: fuel-opt %s -mlir-print-op-on-diagnostic=false --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-place --fuel-insert-residency-copies --fuel-export-dot=file=%t.1.dot -o %t.planned.mlir
// RUN: fuel-opt %t.planned.mlir --fuel-export-dot=file=%t.2.dot -o /dev/null
// RUN: diff %t.1.dot %t.2.dot
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-export-dot -o /dev/null | FileCheck %s --check-prefix=UNPLACED

// Tests the drawing of a placed function: the argument, nodes and results
// filled with their device's colour (cpu, cuda:0, cuda:1 in palette order),
// copies as dashed ellipses with their bytes and hop cost (A's result is
// staged through the host), the constant and the host op as rounded boxes,
// an edge through a view labelled with the view, and the legend with the
// predicted total and parts. The output depends only on the IR: drawing the
// planned module read back gives the same file.
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
#g1 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.cublas.elementwise_f32", source = "cublas", device = cuda:1,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 2000 static,
     host_bytes = 0, device_bytes = 0>]>
func.func @staged(%x: tensor<1000xf32> {fuel.residency = #fuel.device<cuda:0>})
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cuda:1>}, tensor<1000xf32>) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %c = arith.constant dense<1.0> : tensor<1000xf32>
  %s = arith.addf %a, %c : tensor<1000xf32>
  %v = tensor.extract_slice %s[0] [500] [2] : tensor<1000xf32> to tensor<500xf32>
  %b = fuel.node 1 elementwise (%a, %v) : (tensor<1000xf32>, tensor<500xf32>) -> tensor<1000xf32>
      alternatives #g1 {
  ^bb0(%i0: tensor<1000xf32>, %i1: tensor<500xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %b, %s : tensor<1000xf32>, tensor<1000xf32>
}

// Tests that a function without nodes is drawn in a cluster of its own.
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// CHECK:      digraph "fuel-plan" {
// CHECK:        subgraph cluster_0 {
// CHECK-NEXT:     label="@staged";
// CHECK-NEXT:     f0_legend [shape=plaintext, label=<<table {{.*}}><tr><td colspan="2"><b>legend</b></td></tr><tr><td align="left">predicted total</td><td align="right">34200 ns</td></tr><tr><td align="left">nodes</td><td align="right">3000 ns</td></tr><tr><td align="left">copies</td><td align="right">31200 ns</td></tr><tr><td align="left">coupling</td><td align="right">0 ns</td></tr><tr><td bgcolor="#8dd3c7"> </td><td align="left">cpu</td></tr><tr><td bgcolor="#fdb462"> </td><td align="left">cuda:0</td></tr><tr><td bgcolor="#bebada"> </td><td align="left">cuda:1</td></tr></table>>];
// CHECK-NEXT:     f0_arg0 [shape=invhouse, style="filled", fillcolor="#fdb462", label="arg 0\ntensor<1000xf32>\non cuda:0"];
// CHECK-NEXT:     f0_op0 [shape=box, style="filled", fillcolor="#fdb462", label="node 0: elementwise\non cuda:0\ngenerated, 1000 ns"];
// CHECK-NEXT:     f0_op1 [shape=ellipse, style="filled,dashed", fillcolor="#8dd3c7", label="copy cuda:0 → cpu\n4000 bytes, 10400 ns"];
// CHECK-NEXT:     f0_op2 [shape=ellipse, style="filled,dashed", fillcolor="#bebada", label="copy cpu → cuda:1\n4000 bytes, 10400 ns"];
// CHECK-NEXT:     f0_op3 [shape=cylinder, style="filled", fillcolor="#ffffff", label="constant\ntensor<1000xf32>\nload-time, read on cpu"];
// CHECK-NEXT:     f0_op4 [shape=box, style="rounded,filled", fillcolor="#8dd3c7", label="arith.addf\non cpu"];
// CHECK-NEXT:     f0_op5 [shape=ellipse, style="filled,dashed", fillcolor="#bebada", label="copy cpu → cuda:1\n4000 bytes, 10400 ns"];
// CHECK-NEXT:     f0_op7 [shape=box, style="filled", fillcolor="#bebada", label="node 1: elementwise\non cuda:1\ncublas, 2000 ns"];
// CHECK-NEXT:     f0_result0 [shape=house, style="filled", fillcolor="#bebada", label="result 0\ntensor<1000xf32>\non cuda:1"];
// CHECK-NEXT:     f0_result1 [shape=house, style="filled", fillcolor="#8dd3c7", label="result 1\ntensor<1000xf32>\non cpu"];
// CHECK-NEXT:     f0_arg0 -> f0_op0;
// CHECK-NEXT:     f0_op0 -> f0_op1;
// CHECK-NEXT:     f0_op1 -> f0_op2;
// CHECK-NEXT:     f0_op1 -> f0_op4;
// CHECK-NEXT:     f0_op3 -> f0_op4;
// CHECK-NEXT:     f0_op4 -> f0_op5;
// CHECK-NEXT:     f0_op2 -> f0_op7;
// CHECK-NEXT:     f0_op5 -> f0_op7 [label="tensor.extract_slice"];
// CHECK-NEXT:     f0_op7 -> f0_result0;
// CHECK-NEXT:     f0_op4 -> f0_result1;
// CHECK-NEXT:   }
// CHECK-NEXT:   subgraph cluster_1 {
// CHECK-NEXT:     label="@plain";
// CHECK-NEXT:     f1_legend [shape=plaintext, label=<{{.*}}<tr><td colspan="2">not placed</td></tr>{{.*}}>];
// CHECK-NEXT:     f1_arg0 [shape=invhouse, style="filled", fillcolor="#8dd3c7", label="arg 0\ntensor<4xf32>\non cpu"];
// CHECK-NEXT:     f1_result0 [shape=house, style="filled", fillcolor="#8dd3c7", label="result 0\ntensor<4xf32>\non cpu"];
// CHECK-NEXT:     f1_arg0 -> f1_result0;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Tests that nodes without a placement are drawn white and say so.
// UNPLACED: f0_op0 [shape=box, style="filled", fillcolor="#ffffff", label="node 0: elementwise\nnot placed\ngenerated, 1000 ns"];
