// RUN: fuel-opt %s --split-input-file --verify-diagnostics --convert-fuel-to-spirv

// Tests the errors of convert-fuel-to-spirv: each at the kernel (or the
// module), naming the kernel.

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (vulkan.generated.elementwise_f32) has no 'fuel.workgroup_size' = [x, 1, 1]: run fuel-apply-schedules first}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "vulkan.generated.elementwise_f32"} {
      return
    }
  }
}

// -----

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (vulkan.generated.elementwise_f32) writes memory outside its workgroup scf.forall, which every invocation runs}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "vulkan.generated.elementwise_f32", fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
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

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (vulkan.generated.elementwise_f32) has more than one outermost scf.forall; a vulkan kernel runs one}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "vulkan.generated.elementwise_f32", fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      scf.forall (%i) in (4) {
        %v = memref.load %a[%i] : memref<4xf32>
        memref.store %v, %b[%i] : memref<4xf32>
      }
      scf.forall (%i) in (4) {
        %v = memref.load %b[%i] : memref<4xf32>
        memref.store %v, %b[%i] : memref<4xf32>
      }
      return
    }
  }
}

// -----

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (vulkan.generated.elementwise_f32) has no 'fuel.workgroups' grid: run fuel-apply-schedules first}}
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "vulkan.generated.elementwise_f32", fuel.workgroup_size = array<i64: 64, 1, 1>} {
      return
    }
  }
}
