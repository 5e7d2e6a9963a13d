// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json precision=reference},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   -o /dev/null
// RUN: not fuel-opt %s --split-input-file -mlir-print-op-on-diagnostic=false \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json precision=bit-stable,ulp<=1},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST

// RUN: not fuel-opt %s --split-input-file -mlir-print-op-on-diagnostic=false \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json precision=reference kernel-sources=generated},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=SOURCES

// FilterRejected (SEMANTICS §3 step 4): the hard precision floor empties
// every admitted device. No registered kernel claims an ulp bound, so
// `reference` and a list with an ulp bound reject everything.

// Tests that the error names the filter, the decision context, the number
// of candidates rejected (all five, on both devices) and the requirement.

// LIST: :[[@LINE+8]]:8: error: node 0 (matmul): filter 'precision-floor' rejected every candidate (5) of matmul f32 size_class=0x0b0607 decision_device=cpu (requirement bit-stable,ulp<=1)
// With kernel-sources the message says what enumeration admitted.
// SOURCES: :[[@LINE+6]]:8: error: node 0 (matmul): filter 'precision-floor' rejected every candidate (2) of matmul f32 size_class=0x0b0607 decision_device=cpu (requirement reference); enumeration admitted only kernel-sources=generated
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-error @+1 {{node 0 (matmul): filter 'precision-floor' rejected every candidate (5) of matmul f32 size_class=0x0b0607 decision_device=cpu (requirement reference)}}
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// Tests that a pinned node counts only the candidates of its pin, and that
// every node of the function is reported.

func.func @two_nodes(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  // expected-error @+1 {{node 0 (elementwise): filter 'precision-floor' rejected every candidate (1) of elementwise f32 size_class=0x00000a decision_device=cuda:0 (requirement reference)}}
  %0 = linalg.exp {fuel.pin = #fuel.device<cuda:0>} ins(%a : tensor<1024xf32>)
      outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  // LIST: :[[@LINE+2]]:8: error: node 1 (elementwise): filter 'precision-floor' rejected every candidate (2) of elementwise f32 size_class=0x00000a decision_device=cpu (requirement bit-stable,ulp<=1)
  // expected-error @+1 {{node 1 (elementwise): filter 'precision-floor' rejected every candidate (2)}}
  %1 = linalg.exp ins(%0 : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// -----

// Tests that a node with a forced kernel says so when the floor rejects it.

func.func @forced(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{node 0 (matmul): filter 'precision-floor' rejected every candidate (1) of matmul f32 size_class=0x0b0607 decision_device=cpu (requirement reference); enumeration admitted only the node's kernel 'cpu.generated.matmul_f32'}}
  %m = linalg.matmul {fuel.kernel = "cpu.generated.matmul_f32"}
      ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
