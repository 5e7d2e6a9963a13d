// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json precision=reference" -o /dev/null

// Tests that the pipeline stops on FilterRejected: no kernel meets the
// reference preset (bit-stable, ulp 0, rel 0, abs 0).

func.func @reference(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-error @+1 {{node 0 (matmul): filter 'precision-floor' rejected every candidate (3) of matmul f32 size_class=0x0b0607 decision_device=cpu (requirement reference)}}
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// Tests that NoBackendForOp stops the pipeline before any filter runs.

func.func @i8(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  // expected-error @+1 {{node 0 (matmul): no backend for op 'matmul' with dtypes (i8,i8->i32) on the admitted devices; devices present: cpu; registered (backend, op, dtypes): (cpu, matmul, f32)}}
  %m = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x4xi8>) outs(%c : tensor<4x4xi32>)
      -> tensor<4x4xi32>
  return %m : tensor<4x4xi32>
}
