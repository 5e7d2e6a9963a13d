// RUN: fuel-opt %s | fuel-opt | FileCheck %s
// RUN: fuel-opt %s --mlir-print-op-generic | fuel-opt | FileCheck %s

// Tests that devices round-trip as attributes, bare inside ops, and as the
// frontend annotations fuel.pin and fuel.residency.

// CHECK-LABEL: func.func @devices
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {fuel.residency = #fuel.device<cpu>},
// CHECK-SAME:  %{{.*}}: tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>})
// CHECK-SAME: -> (tensor<4xf32> {fuel.residency = #fuel.device<vulkan:12>})
func.func @devices(%a: tensor<4xf32> {fuel.residency = #fuel.device<cpu>},
                   %b: tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>})
    -> (tensor<4xf32> {fuel.residency = #fuel.device<vulkan:12>}) {
  // CHECK: fuel.copy %{{.*}} : tensor<4xf32> from cuda:0 to cpu
  %c = fuel.copy %b : tensor<4xf32> from cuda:0 to cpu
  // CHECK: arith.addf {{.*}} {fuel.pin = #fuel.device<cpu>}
  %s = arith.addf %a, %c {fuel.pin = #fuel.device<cpu>} : tensor<4xf32>
  // CHECK: fuel.copy %{{.*}} : tensor<4xf32> from cpu to vulkan:12
  %v = fuel.copy %s : tensor<4xf32> from cpu to vulkan:12
  return %v : tensor<4xf32>
}

// CHECK-LABEL: func.func @device_attrs
// CHECK-SAME: backend = #fuel.backend<vulkan>
// CHECK-SAME: devices = [#fuel.device<cpu>, #fuel.device<cuda:3>, #fuel.device<vulkan:0>]
func.func @device_attrs() attributes {
    devices = [#fuel.device<cpu>, #fuel.device<cuda:3>, #fuel.device<vulkan:0>],
    backend = #fuel.backend<vulkan>} {
  return
}
