// RUN: fuel-opt %s --split-input-file --fuel-serialize-executable=output=%t.fuelx --verify-diagnostics

// Tests the errors of fuel-serialize-executable: no program, kernels not yet
// in the LLVM dialect, and executables of devices it does not serialize.

// expected-error @+1 {{fuel-serialize-executable needs exactly one fuel.program, the module has 0 (run fuel-plan-buffers first)}}
module {
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    // expected-error @+1 {{'func.func' op is not in the LLVM dialect yet: run convert-fuel-to-llvm first}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) {
      return
    }
  }
}
fuel.program @f {
  fuel.arena cpu size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<4xf32> on cpu
  %t = fuel.buffer arena offset 0 : tensor<4xf32> on cpu
  fuel.launch @cpu::@k (%x) -> (%t) grid [1, 1, 1] : (tensor<4xf32>) -> (tensor<4xf32>)
}

// -----

fuel.executable @vk on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{'func.func' op is not lowered to SPIR-V yet: run convert-fuel-to-spirv first}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) {
      return
    }
  }
}
fuel.program @f {
  fuel.arena vulkan:0 size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<4xf32> on vulkan:0
  %t = fuel.buffer arena offset 0 : tensor<4xf32> on vulkan:0
  fuel.launch @vk::@k (%x) -> (%t) grid [1, 1, 1] : (tensor<4xf32>) -> (tensor<4xf32>)
}

// -----

fuel.executable @cu on cuda:0 {
  builtin.module {
    // expected-error @+1 {{'func.func' op is not lowered to PTX yet: run convert-fuel-to-nvvm first}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) {
      return
    }
  }
}
fuel.program @f {
  fuel.arena cuda:0 size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<4xf32> on cuda:0
  %t = fuel.buffer arena offset 0 : tensor<4xf32> on cuda:0
  fuel.launch @cu::@k (%x) -> (%t) grid [1, 1, 1] : (tensor<4xf32>) -> (tensor<4xf32>)
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{'fuel.buffer' op has element type 'ui16', which the executable format has no dtype for}}
  %x = fuel.buffer input 0 "x" : tensor<4xui16> on cpu
}
