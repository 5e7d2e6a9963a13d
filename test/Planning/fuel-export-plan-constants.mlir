// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place --fuel-insert-residency-copies --fuel-export-plan=file=- -o /dev/null | FileCheck %s
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-place --fuel-insert-residency-copies --fuel-export-dot=file=- -o /dev/null | FileCheck %s --check-prefix=DOT
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/worked-example.json --fuel-export-plan=file=- -o /dev/null | FileCheck %s --check-prefix=UNPLACED

// Tests that the plan file and the drawing mark load-time constants
// (SEMANTICS §5) with the devices that read them, and list no copy of
// them. Node 0 is fixed on cpu, node 1 runs on cuda:0 (1,000 ns there
// against 1,000,000 on cpu); the weights blob is read by both, the bias by
// node 1 only. Only node 0's 16-byte result moves (10,000 + 2 = 10,002 ns),
// and node 1's comes back for the return: copies = 20,004.
#cpu = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [
  #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu, precision = deterministic,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
#gpu = #fuel.alternatives<decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>, [
  #fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0, precision = unaudited,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static, host_bytes = 0, device_bytes = 0>,
  #fuel.candidate<"cpu.generated.elementwise_f32", source = "generated", device = cpu, precision = deterministic,
                  cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000000 static, host_bytes = 0, device_bytes = 0>]>
func.func @weights(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense_resource<weights> : tensor<4xf32>
  %bias = arith.constant dense<[0.5, 0.25, 0.125, 0.0625]> : tensor<4xf32>
  %a = fuel.node 0 elementwise (%x, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> alternatives #cpu {
  ^bb0(%i0: tensor<4xf32>, %i1: tensor<4xf32>):
    fuel.yield %i0 : tensor<4xf32>
  }
  %b = fuel.node 1 elementwise (%a, %w, %bias) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> alternatives #gpu {
  ^bb0(%i0: tensor<4xf32>, %i1: tensor<4xf32>, %i2: tensor<4xf32>):
    fuel.yield %i0 : tensor<4xf32>
  }
  return %b : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// After copy insertion the ops are: 0 %w, 1 %bias, 2 node 0, 3 its copy,
// 4 node 1, 5 its copy, 6 the return.
// CHECK:        "version": 3,
// CHECK:        "predicted_ns": {
// CHECK-NEXT:     "total": 1021004,
// CHECK-NEXT:     "nodes": 1001000,
// CHECK-NEXT:     "copies": 20004,
// CHECK:        "copies": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "value": {
// CHECK-NEXT:         "node": 0,
// CHECK:            "to": "cuda:0",
// CHECK:          {
// CHECK-NEXT:       "value": {
// CHECK-NEXT:         "node": 1,
// CHECK:            "to": "cpu",
// CHECK:        ],
// CHECK-NEXT:   "constants": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "value": {
// CHECK-NEXT:         "host_op": 0,
// CHECK-NEXT:         "result": 0
// CHECK-NEXT:       },
// CHECK-NEXT:       "bytes": 16,
// CHECK-NEXT:       "read_on": [
// CHECK-NEXT:         "cpu",
// CHECK-NEXT:         "cuda:0"
// CHECK-NEXT:       ]
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "value": {
// CHECK-NEXT:         "host_op": 1,
// CHECK-NEXT:         "result": 0
// CHECK-NEXT:       },
// CHECK-NEXT:       "bytes": 16,
// CHECK-NEXT:       "read_on": [
// CHECK-NEXT:         "cuda:0"
// CHECK-NEXT:       ]
// CHECK-NEXT:     }
// CHECK-NEXT:   ]

// DOT: f0_op0 [shape=cylinder, style="filled", fillcolor="#ffffff", label="constant\ntensor<4xf32>\nload-time, read on cpu, cuda:0"];
// DOT-NEXT: f0_op1 [shape=cylinder, style="filled", fillcolor="#ffffff", label="constant\ntensor<4xf32>\nload-time, read on cuda:0"];
// DOT-DAG: f0_op0 -> f0_op2;
// DOT-DAG: f0_op0 -> f0_op4;
// DOT-DAG: f0_op1 -> f0_op4;

// Tests that before placement no node reads on a known device: the
// constants are listed, read on no device yet.
// UNPLACED:      "constants": [
// UNPLACED-NEXT:   {
// UNPLACED-NEXT:     "value": {
// UNPLACED-NEXT:       "host_op": 0,
// UNPLACED:          "read_on": []
// UNPLACED:          "host_op": 1,
// UNPLACED:          "read_on": []
