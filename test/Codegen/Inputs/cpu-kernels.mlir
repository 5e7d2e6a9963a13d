// An outlined cpu executable with a prime-shaped matmul and an elementwise
// chain (bias add with broadcast, then relu), as fuel-outline-kernels emits
// them; the input of the CPU code-generation tests.
#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (d1)>
module {
  fuel.executable @cpu on cpu {
    builtin.module {
      func.func @matmul_0(%a: memref<37x53xf32>, %b: memref<53x29xf32>, %c: memref<37x29xf32>)
          attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul",
                      fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<37x53xf32> to tensor<37x53xf32>
        %bt = bufferization.to_tensor %b restrict : memref<53x29xf32> to tensor<53x29xf32>
        %e = tensor.empty() : tensor<37x29xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
        %r = linalg.matmul ins(%at, %bt : tensor<37x53xf32>, tensor<53x29xf32>) outs(%f : tensor<37x29xf32>) -> tensor<37x29xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<37x29xf32>, memref<37x29xf32>) -> ()
        return
      }
      func.func @elementwise_1(%a: memref<64x1024xf32>, %b: memref<1024xf32>, %c: memref<64x1024xf32>)
          attributes {fuel.kernel_id = "cpu.generated.elementwise_f32", fuel.op_kind = "elementwise",
                      fuel.revision = 2 : i64, fuel.schedule = "kernels/schedules/cpu/elementwise.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<64x1024xf32> to tensor<64x1024xf32>
        %bt = bufferization.to_tensor %b restrict : memref<1024xf32> to tensor<1024xf32>
        %e = tensor.empty() : tensor<64x1024xf32>
        %s = linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
            ins(%at, %bt : tensor<64x1024xf32>, tensor<1024xf32>) outs(%e : tensor<64x1024xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %v = arith.addf %x, %y : f32
          linalg.yield %v : f32
        } -> tensor<64x1024xf32>
        %e2 = tensor.empty() : tensor<64x1024xf32>
        %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
            ins(%s : tensor<64x1024xf32>) outs(%e2 : tensor<64x1024xf32>) {
        ^bb0(%x: f32, %o: f32):
          %z = arith.constant 0.0 : f32
          %v = arith.maximumf %x, %z : f32
          linalg.yield %v : f32
        } -> tensor<64x1024xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<64x1024xf32>, memref<64x1024xf32>) -> ()
        return
      }
    }
  }
}
