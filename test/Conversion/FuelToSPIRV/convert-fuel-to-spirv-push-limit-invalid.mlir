// RUN: fuel-opt %s --verify-diagnostics --convert-fuel-to-spirv="max-push-constants-bytes=8"

// Tests that a kernel whose bindings' element offsets do not fit the push
// constants is refused at its module: three bindings need 12 bytes, 8 are
// allowed here (the default, 128, holds them).
fuel.executable @vulkan_0 on vulkan:0 {
  // expected-error @+1 {{a vulkan kernel of @vulkan_0 has 3 bindings: their element offsets need 12 bytes of push constants, more than the 8 allowed}}
  builtin.module {
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) attributes {fuel.kernel_id = "vulkan.generated.elementwise_f32", fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      scf.forall (%i) in (4) {
        %x = memref.load %a[%i] : memref<4xf32>
        %y = memref.load %b[%i] : memref<4xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<4xf32>
      }
      return
    }
  }
}
