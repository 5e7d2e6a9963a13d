// Outlined cpu kernels of matmul and batch_matmul shapes that take each
// path of the packed-B schedules: N a multiple of every panel width (64),
// N of one or two panels with prime M and K (32), N not a multiple of any
// panel (10), K = 2048 (a 32-wide panel would exceed the stack scratch),
// and a batch matmul; the input of the packed-matmul tests.
module {
  fuel.executable @cpu on cpu {
    builtin.module {
      func.func @matmul_wide(%a: memref<8x12xf32>, %b: memref<12x64xf32>, %c: memref<8x64xf32>)
          attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul",
                      fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<8x12xf32> to tensor<8x12xf32>
        %bt = bufferization.to_tensor %b restrict : memref<12x64xf32> to tensor<12x64xf32>
        %ct = bufferization.to_tensor %c restrict writable : memref<8x64xf32> to tensor<8x64xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%ct : tensor<8x64xf32>) -> tensor<8x64xf32>
        %r = linalg.matmul ins(%at, %bt : tensor<8x12xf32>, tensor<12x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<8x64xf32>, memref<8x64xf32>) -> ()
        return
      }
      func.func @matmul_narrow(%a: memref<37x53xf32>, %b: memref<53x32xf32>, %c: memref<37x32xf32>)
          attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul",
                      fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<37x53xf32> to tensor<37x53xf32>
        %bt = bufferization.to_tensor %b restrict : memref<53x32xf32> to tensor<53x32xf32>
        %ct = bufferization.to_tensor %c restrict writable : memref<37x32xf32> to tensor<37x32xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%ct : tensor<37x32xf32>) -> tensor<37x32xf32>
        %r = linalg.matmul ins(%at, %bt : tensor<37x53xf32>, tensor<53x32xf32>) outs(%f : tensor<37x32xf32>) -> tensor<37x32xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<37x32xf32>, memref<37x32xf32>) -> ()
        return
      }
      func.func @matmul_rem(%a: memref<64x16xf32>, %b: memref<16x10xf32>, %c: memref<64x10xf32>)
          attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul",
                      fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<64x16xf32> to tensor<64x16xf32>
        %bt = bufferization.to_tensor %b restrict : memref<16x10xf32> to tensor<16x10xf32>
        %ct = bufferization.to_tensor %c restrict writable : memref<64x10xf32> to tensor<64x10xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%ct : tensor<64x10xf32>) -> tensor<64x10xf32>
        %r = linalg.matmul ins(%at, %bt : tensor<64x16xf32>, tensor<16x10xf32>) outs(%f : tensor<64x10xf32>) -> tensor<64x10xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<64x10xf32>, memref<64x10xf32>) -> ()
        return
      }
      func.func @matmul_deep(%a: memref<4x2048xf32>, %b: memref<2048x64xf32>, %c: memref<4x64xf32>)
          attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul",
                      fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<4x2048xf32> to tensor<4x2048xf32>
        %bt = bufferization.to_tensor %b restrict : memref<2048x64xf32> to tensor<2048x64xf32>
        %ct = bufferization.to_tensor %c restrict writable : memref<4x64xf32> to tensor<4x64xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%ct : tensor<4x64xf32>) -> tensor<4x64xf32>
        %r = linalg.matmul ins(%at, %bt : tensor<4x2048xf32>, tensor<2048x64xf32>) outs(%f : tensor<4x64xf32>) -> tensor<4x64xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<4x64xf32>, memref<4x64xf32>) -> ()
        return
      }
      func.func @batch_matmul_0(%a: memref<4x12x8xf32>, %b: memref<4x8x32xf32>, %c: memref<4x12x32xf32>)
          attributes {fuel.kernel_id = "cpu.generated.batch_matmul_f32", fuel.op_kind = "batch_matmul",
                      fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/batch_matmul.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<4x12x8xf32> to tensor<4x12x8xf32>
        %bt = bufferization.to_tensor %b restrict : memref<4x8x32xf32> to tensor<4x8x32xf32>
        %ct = bufferization.to_tensor %c restrict writable : memref<4x12x32xf32> to tensor<4x12x32xf32>
        %z = arith.constant 0.0 : f32
        %f = linalg.fill ins(%z : f32) outs(%ct : tensor<4x12x32xf32>) -> tensor<4x12x32xf32>
        %r = linalg.batch_matmul ins(%at, %bt : tensor<4x12x8xf32>, tensor<4x8x32xf32>) outs(%f : tensor<4x12x32xf32>) -> tensor<4x12x32xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<4x12x32xf32>, memref<4x12x32xf32>) -> ()
        return
      }
    }
  }
}
