// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "kernel-sources=generated" --ref bias_relu_mm --rtol 1e-4 --atol 1e-4 --check-winners
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json --plan="kernel-sources=generated" -o %t.fuelx
// RUN: fuel-run %t.fuelx --dump | FileCheck %s

// Tests that nodes pinned with fuel.pin run where they are pinned: the
// matmul on vulkan:0 (its operands copied from the cpu), the bias and ReLU
// on the cpu (the product copied back), and the result matches numpy.

// CHECK: dispatch module {{[0-9]+}} kernel 0 on vulkan:0 {{.*}}"vulkan.generated.matmul_f32"
// CHECK: copy
// CHECK: dispatch module {{[0-9]+}} kernel 0 on cpu {{.*}}"cpu.generated.elementwise_f32"

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
