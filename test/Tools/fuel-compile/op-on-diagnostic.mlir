// RUN: not fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --emit=planned -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='see current operation'
// RUN: not fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --emit=planned -o /dev/null --mlir-print-op-on-diagnostic 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OP

// Tests that fuel-compile's diagnostics name their op by location only, and
// that MLIR's --mlir-print-op-on-diagnostic adds the op's text back (a
// note after the error).

// CHECK: op-on-diagnostic.mlir:[[@LINE+8]]:8: error: node 0 (elementwise): decision device 'cuda:3' is not in the topology (devices: cpu, vulkan:0)

// OP: op-on-diagnostic.mlir:[[@LINE+6]]:8: error: node 0 (elementwise): decision device 'cuda:3' is not in the topology
// OP: op-on-diagnostic.mlir:[[@LINE+5]]:8: note: see current operation:
// OP-NEXT: "fuel.node"

func.func @pinned(%a: tensor<128xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %0 = linalg.exp {fuel.pin = #fuel.device<cuda:3>} ins(%a : tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  return %0 : tensor<128xf32>
}
