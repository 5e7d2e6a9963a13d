// RUN: fuel-opt %s --split-input-file --verify-diagnostics --convert-fuel-to-spirv="max-loop-iterations=2"

// Tests the errors of convert-fuel-to-spirv's loop-iteration budget, at the
// kernel, naming it: a kernel still over the budget after 10 rounds (a loop
// of 100000 iterations unrolled 1024 times still runs 97), and a loop whose
// trip count is not static.

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error-re @+1 {{kernel @k (vulkan.generated.reduce_f32) runs {{[0-9]+}} loop iterations per invocation, more than max-loop-iterations = 2 even with its innermost loops unrolled 1024 times}}
    func.func @k(%a: memref<1x100000xf32>, %out: memref<1xf32>) attributes {fuel.kernel_id = "vulkan.generated.reduce_f32", fuel.workgroup_size = array<i64: 1, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      linalg.reduce ins(%a : memref<1x100000xf32>) outs(%out : memref<1xf32>) dimensions = [1]
        (%x: f32, %s: f32) {
          %t = arith.addf %x, %s : f32
          linalg.yield %t : f32
        }
      return
    }
  }
}

// -----

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (vulkan.generated.elementwise_f32) has a loop without a static trip count: its loop iterations cannot be kept within max-loop-iterations = 2}}
    func.func @k(%n: memref<1xi32>, %b: memref<8xf32>) attributes {fuel.kernel_id = "vulkan.generated.elementwise_f32", fuel.workgroup_size = array<i64: 1, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %w = memref.load %n[%c0] : memref<1xi32>
      %ub = arith.index_cast %w : i32 to index
      scf.for %i = %c0 to %ub step %c1 {
        memref.store %zero, %b[%i] : memref<8xf32>
      }
      return
    }
  }
}
