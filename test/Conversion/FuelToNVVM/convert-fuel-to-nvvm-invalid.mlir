// RUN: fuel-opt %s --split-input-file --verify-diagnostics --convert-fuel-to-nvvm

// Tests the errors of convert-fuel-to-nvvm: each at the kernel, the call or
// the module, naming the kernel or the option.

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (cuda.generated.elementwise_f32) has no 'fuel.workgroup_size' = [x, 1, 1]: run fuel-apply-schedules first}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32"} {
      return
    }
  }
}

// -----

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (cuda.generated.elementwise_f32) writes memory outside its workgroup scf.forall, which every invocation runs}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32", fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      // expected-note @+1 {{written here}}
      memref.store %z, %b[%c0] : memref<4xf32>
      scf.forall (%i) in (4) {
        %v = memref.load %a[%i] : memref<4xf32>
        memref.store %v, %b[%i] : memref<4xf32>
      }
      return
    }
  }
}

// -----

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (cuda.generated.elementwise_f32) has more than one outermost scf.forall; a cuda kernel runs one}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32", fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      scf.forall (%i) in (4) {
        %v = memref.load %a[%i] : memref<4xf32>
        memref.store %v, %b[%i] : memref<4xf32>
      }
      scf.forall (%i) in (4) {
        %v = memref.load %a[%i] : memref<4xf32>
        memref.store %v, %b[%i] : memref<4xf32>
      }
      return
    }
  }
}

// -----

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (cuda.generated.elementwise_f32): binding #0 has type 'memref<?xf32>'; cuda kernels bind static identity-layout memrefs}}
    func.func @k(%a: memref<?xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32", fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      return
    }
  }
}

// -----

// A math function with neither a polynomial nor an NVPTX instruction needs
// libdevice, which only a cuda-toolkit gives.
fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32", fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      scf.forall (%i) in (4) {
        %v = memref.load %a[%i] : memref<4xf32>
        // expected-error @+1 {{a cuda kernel of @cuda_0 calls libdevice's '__nv_tanf', which has no polynomial approximation or NVPTX instruction: give convert-fuel-to-nvvm a cuda-toolkit (fuel-compile --cuda-toolkit=DIR) to link libdevice}}
        %t = math.tan %v : f32
        memref.store %t, %b[%i] : memref<4xf32>
      }
      return
    }
  }
}
