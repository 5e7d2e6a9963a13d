// REQUIRES: vulkan
// RUN: fuel-compile %s --topology=%S/Inputs/cpu-lavapipe-links.json --plan="kernel-sources=generated" -o %t.fuelx
// RUN: fuel-run %t.fuelx --dump | FileCheck %s --check-prefix=DUMP
// RUN: fuel-run %t.fuelx --input=random:3 --report=json > %t.json
// RUN: %python %S/../check-copy-predictions.py %S/Inputs/cpu-lavapipe-links.json %t.json --expect-copies 3 | FileCheck %s
// RUN: fuel-run %t.fuelx --input=random:3 --report | FileCheck %s --check-prefix=TEXT

// Tests that every copy between devices carries the planner's predicted
// time into the executable and the report: the link's latency plus its
// bytes over the link's bandwidth (the topology's figures, computed again
// by the checker): the two operands of the matmul pinned to vulkan:0 go
// there (19 x 23 and 23 x 17 floats at 3 GB/s + 7 us), its product comes
// back (19 x 17 floats at 2.5 GB/s + 9 us).

// DUMP: copy {{.*}} 1748 bytes {{.*}} predicted 7583 ns
// DUMP: copy {{.*}} 1564 bytes {{.*}} predicted 7522 ns
// DUMP: copy {{.*}} 1292 bytes {{.*}} predicted 9517 ns

// CHECK: cpu -> vulkan:0 1748 bytes: predicted 7583 ns
// CHECK: cpu -> vulkan:0 1564 bytes: predicted 7522 ns
// CHECK: vulkan:0 -> cpu 1292 bytes: predicted 9517 ns

// TEXT: cpu->vulkan:0 {{.*}} 7583
// TEXT: vulkan:0->cpu {{.*}} 9517

func.func @bias_relu_mm(%a: tensor<19x23xf32>, %b: tensor<23x17xf32>, %c: tensor<17xf32>) -> tensor<19x17xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<19x17xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<19x17xf32>) -> tensor<19x17xf32>
  %m = linalg.matmul {fuel.pin = #fuel.device<vulkan:0>} ins(%a, %b : tensor<19x23xf32>, tensor<23x17xf32>)
                     outs(%f : tensor<19x17xf32>) -> tensor<19x17xf32>
  %e2 = tensor.empty() : tensor<19x17xf32>
  %r = linalg.generic {fuel.pin = #fuel.device<cpu>,
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%m, %c : tensor<19x17xf32>, tensor<17xf32>) outs(%e2 : tensor<19x17xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<19x17xf32>
  return %r : tensor<19x17xf32>
}
