// RUN: fuel-opt %s --split-input-file --convert-fuel-to-llvm -verify-diagnostics

// Tests that a linalg op left after the schedule is refused, naming the
// kernel.

module {
  fuel.executable @cpu on cpu {
    builtin.module attributes {fuel.cpu_target = {cpu = "znver3", features = "", triple = "x86_64-unknown-linux-gnu"}} {
      // expected-error @+1 {{kernel @fill_left (cpu.generated.elementwise_f32): 'linalg.fill' is left after the schedule}}
      func.func @fill_left(%c: memref<64xf32>) attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
        %z = arith.constant 0.0 : f32
        // expected-note @+1 {{left here}}
        linalg.fill ins(%z : f32) outs(%c : memref<64xf32>)
        return
      }
    }
  }
}

// -----

// Tests that a scalar loop over at least twice the vector width (8 f32
// lanes on AVX2: 16 iterations here) is refused, naming the kernel.

module {
  fuel.executable @cpu on cpu {
    builtin.module attributes {fuel.cpu_target = {cpu = "znver3", features = "", triple = "x86_64-unknown-linux-gnu"}} {
      // expected-error @+1 {{kernel @scalar_loop (cpu.generated.elementwise_f32): a scalar loop runs over a dimension of at least twice the vector width (8 f32 lanes)}}
      func.func @scalar_loop(%a: memref<16xf32>, %c: memref<16xf32>) attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c16 = arith.constant 16 : index
        // expected-note @+1 {{scalar loop here}}
        scf.for %i = %c0 to %c16 step %c1 {
          %x = memref.load %a[%i] : memref<16xf32>
          %y = arith.addf %x, %x : f32
          memref.store %y, %c[%i] : memref<16xf32>
        }
        return
      }
    }
  }
}

// -----

// Tests that a loop over 1-lane vectors (vector<1xf32>: scalar code in
// vector types) counts as a scalar loop.

module {
  fuel.executable @cpu on cpu {
    builtin.module attributes {fuel.cpu_target = {cpu = "znver3", features = "", triple = "x86_64-unknown-linux-gnu"}} {
      // expected-error @+1 {{kernel @one_lane_loop (cpu.generated.elementwise_f32): a scalar loop runs over a dimension of at least twice the vector width (8 f32 lanes)}}
      func.func @one_lane_loop(%a: memref<16xf32>, %c: memref<16xf32>) attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c16 = arith.constant 16 : index
        %p = arith.constant 0.0 : f32
        // expected-note @+1 {{scalar loop here}}
        scf.for %i = %c0 to %c16 step %c1 {
          %x = vector.transfer_read %a[%i], %p {in_bounds = [true]} : memref<16xf32>, vector<1xf32>
          %y = arith.addf %x, %x : vector<1xf32>
          vector.transfer_write %y, %c[%i] {in_bounds = [true]} : vector<1xf32>, memref<16xf32>
        }
        return
      }
    }
  }
}

// -----

// Tests that a scalar loop shorter than twice the vector width is accepted
// (dimensions below the vector width may stay scalar) while a kernel
// calling a function no kernel defines is refused.

module {
  fuel.executable @cpu on cpu {
    builtin.module attributes {fuel.cpu_target = {cpu = "znver3", features = "", triple = "x86_64-unknown-linux-gnu"}} {
      func.func private @expf(f32) -> f32
      func.func @libm_call(%a: memref<15xf32>, %c: memref<15xf32>) attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c15 = arith.constant 15 : index
        scf.for %i = %c0 to %c15 step %c1 {
          %x = memref.load %a[%i] : memref<15xf32>
          // expected-error @+1 {{kernel @libm_call calls 'expf', which no kernel defines; kernels call no library}}
          %y = func.call @expf(%x) : (f32) -> f32
          memref.store %y, %c[%i] : memref<15xf32>
        }
        return
      }
    }
  }
}

// -----

// Tests that an unknown target CPU is refused at the kernel module.

module {
  fuel.executable @cpu on cpu {
    // expected-error @+1 {{cpu target: LLVM knows no CPU 'not-a-cpu' for 'x86_64-unknown-linux-gnu'}}
    builtin.module attributes {fuel.cpu_target = {cpu = "not-a-cpu", features = "", triple = "x86_64-unknown-linux-gnu"}} {
      func.func @k(%c: memref<4xf32>) attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
        return
      }
    }
  }
}

// -----

// Tests that a second outermost scf.forall is refused: the workgroup split
// must be one loop.

module {
  fuel.executable @cpu on cpu {
    builtin.module attributes {fuel.cpu_target = {cpu = "znver3", features = "", triple = "x86_64-unknown-linux-gnu"}} {
      // expected-error @+1 {{kernel @two_foralls (cpu.generated.elementwise_f32) has 2 outermost scf.forall loops; the workgroup split must be one}}
      func.func @two_foralls(%c: memref<4xf32>) attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
        %z = arith.constant 0.0 : f32
        scf.forall (%i) in (4) {
          memref.store %z, %c[%i] : memref<4xf32>
        }
        scf.forall (%i) in (4) {
          memref.store %z, %c[%i] : memref<4xf32>
        }
        return
      }
    }
  }
}
