// A kernel scheduled by the schedule that packs only a constant B without a panel width of Inputs/schedules/kernels/schedules/cpu/bad-pack-if.mlir.
module {
  fuel.executable @cpu on cpu {
    builtin.module {
      func.func @k(%a: memref<4x4xf32>, %c: memref<4x4xf32>) attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.schedule = "kernels/schedules/cpu/bad-pack-if.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<4x4xf32> to tensor<4x4xf32>
        %e = tensor.empty() : tensor<4x4xf32>
        %r = linalg.copy ins(%at : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<4x4xf32>, memref<4x4xf32>) -> ()
        return
      }
    }
  }
}
