// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe-no-rates.json \
// RUN:   -o %t.fuelx 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='see current operation' \
// RUN:       --implicit-check-not=warning:
// RUN: fuel-compile %S/Inputs/two-functions.mlir --emit=planned -o /dev/null \
// RUN:   --topology=%topologies/cpu-lavapipe-no-rates.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MODULE \
// RUN:       --implicit-check-not='see current operation' \
// RUN:       --implicit-check-not=warning:
// RUN: fuel-compile %S/Inputs/two-functions.mlir --emit=planned -o /dev/null \
// RUN:   --topology=%topologies/cpu-lavapipe-no-rates.json \
// RUN:   --mlir-disable-threading 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MODULE \
// RUN:       --implicit-check-not='see current operation' \
// RUN:       --implicit-check-not=warning:

// Tests that the prior-rate warning (SEMANTICS §3 step 6) comes once per
// (device, dtype) in a module, not once per node or function, at the first
// node priced with that prior, and names no op text: on
// test/topologies/cpu-lavapipe-no-rates.json the cpu has no f32 peak and
// vulkan:0 (lavapipe as the probe reports it) no rates at all, and every
// node below is f32 with candidates on both devices. The same holds across
// two functions, with or without threads.

// CHECK: prior-warnings.mlir:[[@LINE+10]]:{{[0-9]+}}: warning: device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns{{$}}
// CHECK: prior-warnings.mlir:[[@LINE+9]]:{{[0-9]+}}: warning: device 'vulkan:0' has no peak f32 rate; using the CPU prior of 1 flop/ns; no memory bandwidth; using the CPU prior of 4 B/ns

// MODULE: two-functions.mlir:7:8: warning: device 'cpu' has no peak f32 rate; using the CPU prior of 1 flop/ns{{$}}
// MODULE: two-functions.mlir:7:8: warning: device 'vulkan:0' has no peak f32 rate; using the CPU prior of 1 flop/ns; no memory bandwidth; using the CPU prior of 4 B/ns

func.func @layer(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x8xf32>)
                     outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %x1 = linalg.exp ins(%m : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %x2 = linalg.exp ins(%x1 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %x2 : tensor<16x8xf32>
}
