// RUN: fuel-opt %s --split-input-file --verify-diagnostics

// Tests the verifier of the host program ops: arenas, buffers, views,
// launches, transfers, dependencies and constants.

fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{'fuel.arena' op duplicate arena of device cpu}}
  fuel.arena cpu size 64 align 64
}

// -----

fuel.program @f {
  // expected-error @+1 {{'fuel.arena' op alignment must be a power of two, got 48}}
  fuel.arena cpu size 64 align 48
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{'fuel.buffer' op lives on device cuda:0, which has no arena in the program}}
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cuda:0
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{'fuel.buffer' op slot [32, 96) exceeds the arena of cpu (64 bytes)}}
  %t = fuel.buffer arena offset 32 : tensor<16xf32> on cpu
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  // expected-error @+1 {{'fuel.buffer' op duplicate input 0}}
  %y = fuel.buffer input 0 "y" : tensor<2xf32> on cpu
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{'fuel.buffer' op output 1 leaves output 0 unbound}}
  %x = fuel.buffer output 1 "y" : tensor<2xf32> on cpu
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{'fuel.buffer' op names no fuel.constant_data: @nope}}
  %c = fuel.buffer constant @nope : tensor<2xf32> on cpu
}

// -----

fuel.constant_data @cst dense<1.0> : tensor<4xf32>
fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{'fuel.buffer' op holds 8 bytes, but constant @cst has 16}}
  %c = fuel.buffer constant @cst : tensor<2xf32> on cpu
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{expected a buffer kind: 'arena', 'input', 'output' or 'constant', got 'heap'}}
  %c = fuel.buffer heap : tensor<2xf32> on cpu
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  // expected-error @+1 {{'fuel.buffer' op expects a tensor of a byte-sized element type, got 'tensor<2xi4>'}}
  %t = fuel.buffer arena offset 0 : tensor<2xi4> on cpu
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  %t = fuel.buffer arena offset 0 : tensor<4xf32> on cpu
  // expected-error @+1 {{'fuel.buffer_view' op view of 8 bytes at offset 12 exceeds its source of 16 bytes}}
  %v = fuel.buffer_view %t offset 12 : tensor<4xf32> to tensor<2xf32>
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  %y = fuel.buffer output 0 "y" : tensor<4xf32> on cpu
  // expected-error @+1 {{'fuel.transfer' op copies between buffers of different byte sizes: 'tensor<2xf32>' and 'tensor<4xf32>'}}
  fuel.transfer %x to %y : tensor<2xf32> to tensor<4xf32>
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  %y = fuel.buffer output 0 "y" : tensor<2xf32> on cpu
  // expected-error @+1 {{'fuel.transfer' op command 0 depends on command 0, which is not an earlier command}}
  fuel.transfer %x to %y after [0] : tensor<2xf32> to tensor<2xf32>
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  %y = fuel.buffer input 1 "y" : tensor<2xf32> on cpu
  // expected-error @+1 {{'fuel.transfer' op writes the input buffer of input 1, which is read-only}}
  fuel.transfer %x to %y : tensor<2xf32> to tensor<2xf32>
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<2xf32>, %b: memref<2xf32>) {
      return
    }
  }
}
fuel.program @f {
  fuel.arena cpu size 64 align 64
  fuel.arena cuda:0 size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  %t = fuel.buffer arena offset 0 : tensor<2xf32> on cuda:0
  // expected-error @+1 {{'fuel.launch' op binds buffers on cpu and cuda:0}}
  fuel.launch @cpu::@k (%x) -> (%t) grid [1, 1, 1] : (tensor<2xf32>) -> (tensor<2xf32>)
}

// -----

fuel.program @f {
  fuel.arena cpu size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  %t = fuel.buffer arena offset 0 : tensor<2xf32> on cpu
  // expected-error @+1 {{'fuel.launch' op names no kernel of a fuel.executable: @cpu::@k}}
  fuel.launch @cpu::@k (%x) -> (%t) grid [1, 1, 1] : (tensor<2xf32>) -> (tensor<2xf32>)
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<2xf32>, %b: memref<2xf32>) {
      return
    }
  }
}
fuel.program @f {
  fuel.arena cpu size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  %t = fuel.buffer arena offset 0 : tensor<2xf32> on cpu
  // expected-error @+1 {{'fuel.launch' op grid must be three positive 32-bit sizes}}
  fuel.launch @cpu::@k (%x) -> (%t) grid [0, 1, 1] : (tensor<2xf32>) -> (tensor<2xf32>)
}

// -----

fuel.executable @cuda on cuda:0 {
  builtin.module {
    func.func @k(%a: memref<2xf32>, %b: memref<2xf32>) {
      return
    }
  }
}
fuel.program @f {
  fuel.arena cpu size 64 align 64
  %x = fuel.buffer input 0 "x" : tensor<2xf32> on cpu
  %t = fuel.buffer arena offset 0 : tensor<2xf32> on cpu
  // expected-error @+1 {{'fuel.launch' op binds buffers on cpu, but its kernel runs on cuda:0}}
  fuel.launch @cuda::@k (%x) -> (%t) grid [1, 1, 1] : (tensor<2xf32>) -> (tensor<2xf32>)
}

// -----

// expected-error @+1 {{'fuel.constant_data' op expects a statically shaped tensor of a byte-sized element type, got 'tensor<2xi3>'}}
fuel.constant_data @c dense<1> : tensor<2xi3>
