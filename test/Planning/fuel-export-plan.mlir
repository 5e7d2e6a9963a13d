// RUN: fuel-opt %s --split-input-file -mlir-print-op-on-diagnostic=false --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-place --fuel-insert-residency-copies --fuel-export-plan=file=- -o /dev/null | FileCheck %s
// RUN: fuel-opt %s -mlir-print-op-on-diagnostic=false --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-place --fuel-insert-residency-copies --fuel-export-plan=file=%t.json -o /dev/null
// RUN: %python %S/Inputs/check-plan-sums.py %t.json | FileCheck %s --check-prefix=SUMS
// RUN: fuel-opt %S/../../examples/mlp.mlir --fuel-plan=topology=%topologies/cpu-cuda.json --fuel-place --fuel-insert-residency-copies --fuel-export-plan=file=%t.mlp.json -o /dev/null
// RUN: %python %S/Inputs/check-plan-sums.py %t.mlp.json | FileCheck %s --check-prefix=MLP-SUMS
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/cpu-2cuda.json --fuel-export-plan=file=- -o /dev/null | FileCheck %s --check-prefix=UNPLACED

// The sums check reads the whole file as one module (a split would
// overwrite %t.json per case) and checks that each function's predicted
// total is the sum of its listed node, copy and coupling terms.
//
// The topology has two GPUs, each linked to the host at 10 GB/s with 10 us
// latency each way and no peer link, so a hop of a 4,000-byte value costs
// 10,000 + 400 = 10,400 ns and cuda:0 -> cuda:1 is staged through the host.

// Tests a staged copy, a host-op value and a satisfied coupling term. A's
// result goes cuda:0 -> cpu (read there by the host op too) -> cuda:1; the
// second hop names A's result, not the host-side copy. The host op's result
// is named by its position among the function's top-level ops after copy
// insertion: node 0, two copies, the constant, then the host op (4).
#g0 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
#g1 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cpu>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:1,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 2000 static,
     host_bytes = 0, device_bytes = 0,
     coupling = [#fuel.coupling<node = 0, device = cuda:0, delta_ns = -500>]>,
   #fuel.candidate<"cuda.cublas.elementwise_f32", source = "cublas", device = cuda:1,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 2500 static,
     host_bytes = 0, device_bytes = 0>]>
func.func @staged(%x: tensor<1000xf32> {fuel.residency = #fuel.device<cuda:0>})
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cuda:1>}) {
  %a = fuel.node 0 elementwise (%x) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g0 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  %c = arith.constant dense<1.0> : tensor<1000xf32>
  %s = arith.addf %a, %c : tensor<1000xf32>
  %b = fuel.node 1 elementwise (%a, %s) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
      alternatives #g1 {
  ^bb0(%i0: tensor<1000xf32>, %i1: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %b : tensor<1000xf32>
}

// CHECK:      {
// CHECK-NEXT:   "version": 3,
// CHECK-NEXT:   "topology_hash": "0x{{[0-9a-f]+}}",
// CHECK-NEXT:   "config": {
// CHECK-NEXT:     "price_transfers": true,
// CHECK-NEXT:     "allow_cost_placement": true,
// CHECK-NEXT:     "pinned_device": "cpu",
// CHECK-NEXT:     "precision": "none",
// CHECK-NEXT:     "kernel_sources": null
// CHECK-NEXT:   },
// CHECK-NEXT:   "functions": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "name": "staged",
// CHECK-NEXT:       "predicted_ns": {
// CHECK-NEXT:         "total": 33700,
// CHECK-NEXT:         "nodes": 3000,
// CHECK-NEXT:         "copies": 31200,
// CHECK-NEXT:         "coupling": -500
// CHECK-NEXT:       },
// CHECK-NEXT:       "nodes": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "id": 0,
// CHECK-NEXT:           "kind": "elementwise",
// CHECK-NEXT:           "kernel": null,
// CHECK-NEXT:           "placement": "cuda:0",
// CHECK-NEXT:           "winner": {
// CHECK-NEXT:             "kernel": "cuda.generated.elementwise_f32",
// CHECK-NEXT:             "source": "generated",
// CHECK-NEXT:             "revision": "0x0000000000000000",
// CHECK-NEXT:             "time_ns": 1000,
// CHECK-NEXT:             "time_source": "static"
// CHECK-NEXT:           },
// CHECK-NEXT:           "runner_up": null,
// CHECK-NEXT:           "next_best": null,
// CHECK-NEXT:           "inbound_transfer_ns": 0,
// CHECK-NEXT:           "coupling_ns": 0
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "id": 1,
// CHECK-NEXT:           "kind": "elementwise",
// CHECK-NEXT:           "kernel": null,
// CHECK-NEXT:           "placement": "cuda:1",
// CHECK-NEXT:           "winner": {
// CHECK-NEXT:             "kernel": "cuda.generated.elementwise_f32",
// CHECK-NEXT:             "source": "generated",
// CHECK-NEXT:             "revision": "0x0000000000000000",
// CHECK-NEXT:             "time_ns": 2000,
// CHECK-NEXT:             "time_source": "static"
// CHECK-NEXT:           },
// CHECK-NEXT:           "runner_up": {
// CHECK-NEXT:             "kernel": "cuda.cublas.elementwise_f32",
// CHECK-NEXT:             "source": "cublas",
// CHECK-NEXT:             "revision": "0x0000000000000000",
// CHECK-NEXT:             "time_ns": 2500,
// CHECK-NEXT:             "time_source": "static"
// CHECK-NEXT:           },
// CHECK-NEXT:           "next_best": null,
// CHECK-NEXT:           "inbound_transfer_ns": 31200,
// CHECK-NEXT:           "coupling_ns": -500
// CHECK-NEXT:         }
// CHECK-NEXT:       ],
// CHECK-NEXT:       "copies": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "value": {
// CHECK-NEXT:             "node": 0,
// CHECK-NEXT:             "result": 0
// CHECK-NEXT:           },
// CHECK-NEXT:           "from": "cuda:0",
// CHECK-NEXT:           "to": "cpu",
// CHECK-NEXT:           "bytes": 4000,
// CHECK-NEXT:           "predicted_ns": 10400,
// CHECK-NEXT:           "staged": true
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "value": {
// CHECK-NEXT:             "node": 0,
// CHECK-NEXT:             "result": 0
// CHECK-NEXT:           },
// CHECK-NEXT:           "from": "cpu",
// CHECK-NEXT:           "to": "cuda:1",
// CHECK-NEXT:           "bytes": 4000,
// CHECK-NEXT:           "predicted_ns": 10400,
// CHECK-NEXT:           "staged": true
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "value": {
// CHECK-NEXT:             "host_op": 4,
// CHECK-NEXT:             "result": 0
// CHECK-NEXT:           },
// CHECK-NEXT:           "from": "cpu",
// CHECK-NEXT:           "to": "cuda:1",
// CHECK-NEXT:           "bytes": 4000,
// CHECK-NEXT:           "predicted_ns": 10400,
// CHECK-NEXT:           "staged": false
// CHECK-NEXT:         }
// CHECK-NEXT:       ],
// CHECK-NEXT:       "constants": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "value": {
// CHECK-NEXT:             "host_op": 3,
// CHECK-NEXT:             "result": 0
// CHECK-NEXT:           },
// CHECK-NEXT:           "bytes": 4000,
// CHECK-NEXT:           "read_on": [
// CHECK-NEXT:             "cpu"
// CHECK-NEXT:           ]
// CHECK-NEXT:         }
// CHECK-NEXT:       ]
// CHECK-NEXT:     }
// CHECK-NEXT:   ]
// CHECK-NEXT: }

// SUMS: staged: total 33700 = nodes 3000 + copies 31200 + coupling -500

// UNPLACED:      "name": "staged",
// UNPLACED-NEXT: "predicted_ns": null,
// UNPLACED:      "id": 0,
// UNPLACED-NEXT: "kind": "elementwise",
// UNPLACED-NEXT: "kernel": null,
// UNPLACED-NEXT: "placement": null,
// UNPLACED-NEXT: "winner": {
// UNPLACED-NEXT:   "kernel": "cuda.generated.elementwise_f32",
// UNPLACED:      "copies": []

// -----

// Tests an argument copied to a GPU, named by its number, and a function
// without nodes, listed with empty arrays. Functions are listed in module
// order; declarations are left out.
#g2 = #fuel.alternatives<
  decision = <op = elementwise, dtype = f32, size_class = 0x0, device = cuda:0>,
  [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
     precision = unaudited, cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 1000 static,
     host_bytes = 0, device_bytes = 0>]>
func.func private @declared(tensor<1000xf32>)
func.func @empty(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  return %x : tensor<1000xf32>
}
func.func @arg(%x: tensor<1000xf32>, %y: tensor<1000xf32>)
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cuda:0>}) {
  %a = fuel.node 0 elementwise (%y) : (tensor<1000xf32>) -> tensor<1000xf32> alternatives #g2 {
  ^bb0(%i0: tensor<1000xf32>):
    fuel.yield %i0 : tensor<1000xf32>
  }
  return %a : tensor<1000xf32>
}

// CHECK:      "functions": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "empty",
// CHECK-NEXT:     "predicted_ns": null,
// CHECK-NEXT:     "nodes": [],
// CHECK-NEXT:     "copies": [],
// CHECK-NEXT:     "constants": []
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "arg",
// CHECK:          "copies": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "value": {
// CHECK-NEXT:           "arg": 1
// CHECK-NEXT:         },
// CHECK-NEXT:         "from": "cpu",
// CHECK-NEXT:         "to": "cuda:0",

// SUMS: arg: total 11400 = nodes 1000 + copies 10400 + coupling 0

// MLP-SUMS: mlp: total {{[0-9]+}} = nodes {{[0-9]+}} + copies {{[0-9]+}} + coupling 0
