// RUN: fuel-opt %s --split-input-file --fuel-plan-buffers --verify-diagnostics

// Tests the errors of fuel-plan-buffers: ops a host program cannot hold, a
// strided slice, a dispatch of a missing kernel, a result on the wrong
// device, dynamic shapes and bad in-place hints.

func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op cannot be part of a host program: only dispatches, views, copies, constants and the return can}}
  %y = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @g(tensor<4xf32>) -> tensor<4xf32>

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<2x2xf32>, %b: memref<2x2xf32>) {
      return
    }
  }
}
func.func @strided(%x: tensor<4x4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op is a strided slice, which fuel-outline-kernels folds into its reader or materialises}}
  %s = tensor.extract_slice %x[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %y = fuel.dispatch @cpu::@k (%s) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

func.func @node(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.node' op is a node that fuel-outline-kernels has not outlined}}
  %y = fuel.node 0 elementwise (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    fuel.yield %a : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

fuel.executable @vk on vulkan:0 {
  builtin.module {
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) {
      return
    }
  }
}
func.func @wrong_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.dispatch' op runs on vulkan:0 but reads a tensor on cpu}}
  %y = fuel.dispatch @vk::@k (%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

fuel.executable @vk on vulkan:0 {
  builtin.module {
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) {
      return
    }
  }
}
func.func @result_device(%x: tensor<4xf32> {fuel.residency = #fuel.device<vulkan:0>}) -> tensor<4xf32> {
  %y = fuel.dispatch @vk::@k (%x) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'func.return' op returns result 0 on vulkan:0, but it must end on cpu}}
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op has a tensor of type 'tensor<?xf32>', which has no static byte size}}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.in_place = array<i64: 3>} {
      return
    }
  }
}
func.func @bad_hint(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuel.dispatch' op kernel lets result 0 overwrite input 3 of 1}}
  %y = fuel.dispatch @cpu::@k (%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
