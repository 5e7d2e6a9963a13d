// RUN: rm -rf %t && env FUEL_TOPOLOGY=%topologies/cpu-only.json %python %S/Inputs/onnx_models.py e2e transformer --work %t | FileCheck %s

// Tests the model 'transformer' end to end: onnx_models.py writes it, fuel-compile
// imports and compiles the .onnx, fuel-run runs it on seeded inputs, and
// every output is compared with a numpy reference computed independently
// (|out - ref| <= 1e-5 + 1e-4 |ref|).

// CHECK: transformer: PASS
