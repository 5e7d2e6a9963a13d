// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json pinned-device=none},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   -o /dev/null

// Tests that with pinned-device=none an unpinned node has no device context
// (SEMANTICS §3 step 1), while a pinned node beside it still enumerates.

func.func @no_device_context(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %m = linalg.matmul {fuel.pin = #fuel.device<cuda:0>}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{no device context for node 1 (matmul): it carries no pin and the pipeline's pinned-device is 'none'}}
  %n = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>)
      -> tensor<4x4xf32>
  return %m, %n : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests that a destructive node is not a pin: it still needs a device
// context.

func.func @destructive_no_device(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>)
    -> tensor<4x4xf32> {
  // expected-error @+1 {{no device context for node 0 (matmul)}}
  %m = linalg.matmul {fuel.destructive} ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>)
      outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
