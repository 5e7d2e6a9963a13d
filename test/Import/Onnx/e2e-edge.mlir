// RUN: rm -rf %t && env FUEL_TOPOLOGY=%topologies/cpu-only.json %python %S/Inputs/onnx_models.py e2e edge --work %t | FileCheck %s
// RUN: %python %S/Inputs/onnx_models.py make edge %t.onnx
// RUN: fuel-import-onnx %t.onnx | FileCheck %s --check-prefix=IR

// Tests edge cases end to end: a Slice with negative steps on a run-time
// tensor (a tensor.generate host op), a mean over every axis whose rank-0
// result is computed over [1] and viewed, and an empty Slice (an empty
// constant, read by no output).

// CHECK: edge: PASS

// IR: tensor.generate
// IR: tensor.extract
// IR: iterator_types = ["reduction", "reduction"]
// IR: arith.divf
// IR: tensor.collapse_shape {{.*}} : tensor<1xf32> into tensor<f32>
