// RUN: fuel-opt %s --fuel-bufferize-kernels -verify-diagnostics

// Tests that a kernel whose scratch is too large for the stack is refused:
// kernels never call malloc.

module {
  fuel.executable @cpu on cpu {
    builtin.module {
      // expected-error @+1 {{kernel @big_scratch (cpu.generated.elementwise_f32) needs a heap buffer 'memref<256x1024xf32>'}}
      func.func @big_scratch(%a: memref<256x1024xf32>, %n: memref<index>, %c: memref<f32>)
          attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %at = bufferization.to_tensor %a restrict : memref<256x1024xf32> to tensor<256x1024xf32>
        // expected-note @+1 {{allocated here}}
        %s0 = bufferization.alloc_tensor() : tensor<256x1024xf32>
        %x = tensor.extract %at[%i0, %i0] : tensor<256x1024xf32>
        %j = memref.load %n[] : memref<index>
        %s1 = tensor.insert %x into %s0[%j, %j] : tensor<256x1024xf32>
        %y = tensor.extract %s1[%i1, %i1] : tensor<256x1024xf32>
        memref.store %y, %c[] : memref<f32>
        return
      }
    }
  }
}
