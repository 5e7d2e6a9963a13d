// RUN: fuel-opt %s --convert-fuel-to-spirv="max-loop-iterations=30" | FileCheck %s
// RUN: fuel-opt %s --convert-fuel-to-spirv | FileCheck %s --check-prefix=DEFAULT
// RUN: fuel-opt %s --convert-fuel-to-spirv="max-loop-iterations=30" --test-fuel-emit-spirv=output=%t.spv -o /dev/null
// RUN: %if spirv-tools %{ %spirv-val --target-env vulkan1.1 %t.spv %}

// Tests that convert-fuel-to-spirv keeps the loop iterations of an invocation
// within max-loop-iterations by unrolling the innermost loops by 2 until they
// fit: a sum of 100 elements (100 iterations) under a budget of 30 becomes a
// loop of 25 iterations of 4 additions; nested loops (4 x 7: 32 iterations)
// under 30 unroll the inner loop once (3 iterations and an epilogue);
// under the default budget (65535) nothing is unrolled. The binary validates.

// CHECK-LABEL: spirv.func @sum100()
// CHECK: spirv.mlir.loop
// CHECK-COUNT-4: spirv.FAdd
// CHECK-NOT: spirv.FAdd
// CHECK: spirv.mlir.merge
// CHECK-LABEL: spirv.func @nested()
// CHECK: spirv.mlir.loop
// CHECK: spirv.mlir.loop
// CHECK-COUNT-2: spirv.FAdd
// CHECK: spirv.mlir.merge
// CHECK: spirv.FAdd
// CHECK: spirv.mlir.merge

// DEFAULT-LABEL: spirv.func @sum100()
// DEFAULT: spirv.mlir.loop
// DEFAULT-COUNT-1: spirv.FAdd
// DEFAULT-NOT: spirv.FAdd
// DEFAULT: spirv.mlir.merge

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    func.func @sum100(%a: memref<1x100xf32>, %out: memref<1xf32>) attributes {fuel.kernel_id = "vulkan.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/gpu/per_element.mlir", fuel.workgroup_size = array<i64: 1, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>, fuel.workspace_bytes = 0 : i64} {
      linalg.reduce ins(%a : memref<1x100xf32>) outs(%out : memref<1xf32>) dimensions = [1]
        (%x: f32, %s: f32) {
          %t = arith.addf %x, %s : f32
          linalg.yield %t : f32
        }
      return
    }
    func.func @nested(%a: memref<1x4x7xf32>, %out: memref<1xf32>) attributes {fuel.kernel_id = "vulkan.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/gpu/per_element.mlir", fuel.workgroup_size = array<i64: 1, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>, fuel.workspace_bytes = 0 : i64} {
      linalg.reduce ins(%a : memref<1x4x7xf32>) outs(%out : memref<1xf32>) dimensions = [1, 2]
        (%x: f32, %s: f32) {
          %t = arith.addf %x, %s : f32
          linalg.yield %t : f32
        }
      return
    }
  }
}
