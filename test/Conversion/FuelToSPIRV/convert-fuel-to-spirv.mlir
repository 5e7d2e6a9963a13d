// RUN: fuel-opt %s --convert-fuel-to-spirv | FileCheck %s
// RUN: fuel-opt %s --convert-fuel-to-spirv --test-fuel-emit-spirv=output=%t.spv -o /dev/null
// RUN: %if spirv-tools %{ %spirv-val --target-env vulkan1.1 %t.spv %}

// Tests that convert-fuel-to-spirv makes one spirv.module of a vulkan
// kernel module: an entry point per kernel with its workgroup size, the
// forall's iteration of each invocation (the linear id bounded by the
// iterations, delinearized), bindings as runtime arrays read from the
// element offset in push constant i, scratch in the Function storage class,
// linalg ops as loops, views folded into the accesses, and a kernel without
// a forall run by invocation 0. The binary validates with spirv-val.

// CHECK-LABEL: fuel.executable @vulkan_0 on vulkan:0
// CHECK: func.func private @row_sum(memref<5x7xf32>, memref<5xf32>) attributes {{{.*}}fuel.spirv_entry = "row_sum"
// CHECK: func.func private @scale(memref<3xf32>, memref<3xf32>) attributes {{{.*}}fuel.spirv_entry = "scale"
// CHECK: spirv.module @__spv__vulkan_0_spirv Logical GLSL450
// CHECK-DAG: spirv.GlobalVariable @__push_constant_var__ : !spirv.ptr<!spirv.struct<(!spirv.array<2 x i32, stride=4> [0])>, PushConstant>
// CHECK-DAG: spirv.GlobalVariable @row_sum_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// CHECK-DAG: spirv.GlobalVariable @row_sum_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// CHECK: spirv.func @row_sum()
// CHECK: spirv.Variable : !spirv.ptr<!spirv.struct<(!spirv.array<1 x f32>)>, Function>
// CHECK: spirv.mlir.loop
// CHECK: spirv.GL.Sqrt
// CHECK: spirv.func @scale()
// CHECK-DAG: spirv.EntryPoint "GLCompute" @row_sum
// CHECK-DAG: spirv.ExecutionMode @row_sum "LocalSize", 64, 1, 1
// CHECK-DAG: spirv.EntryPoint "GLCompute" @scale
// CHECK-DAG: spirv.ExecutionMode @scale "LocalSize", 1, 1, 1
// CHECK-NOT: gpu.module

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // Per row of 5x7: the square root of the sum of the row, accumulated in
    // a scratch buffer.
    func.func @row_sum(%a: memref<5x7xf32>, %out: memref<5xf32>) attributes {fuel.kernel_id = "vulkan.generated.reduce_f32", fuel.op_kind = "reduce", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/gpu/per_element.mlir", fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>, fuel.workspace_bytes = 0 : i64} {
      %zero = arith.constant 0.0 : f32
      %acc = memref.alloca() : memref<1xf32>
      scf.forall (%i) in (5) {
        %row = memref.subview %a[%i, 0] [1, 7] [1, 1] : memref<5x7xf32> to memref<1x7xf32, strided<[7, 1], offset: ?>>
        linalg.fill ins(%zero : f32) outs(%acc : memref<1xf32>)
        linalg.reduce ins(%row : memref<1x7xf32, strided<[7, 1], offset: ?>>) outs(%acc : memref<1xf32>) dimensions = [1]
          (%x: f32, %s: f32) {
            %t = arith.addf %x, %s : f32
            linalg.yield %t : f32
          }
        %c0 = arith.constant 0 : index
        %v = memref.load %acc[%c0] : memref<1xf32>
        %r = math.sqrt %v : f32
        memref.store %r, %out[%i] : memref<5xf32>
      }
      return
    }
    // No forall: one invocation doubles 3 elements.
    func.func @scale(%a: memref<3xf32>, %b: memref<3xf32>) attributes {fuel.kernel_id = "vulkan.generated.host_extract_slice", fuel.op_kind = "host", fuel.revision = 2 : i64, fuel.schedule = "kernels/schedules/gpu/host.mlir", fuel.workgroup_size = array<i64: 1, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>, fuel.workspace_bytes = 0 : i64} {
      linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
          ins(%a : memref<3xf32>) outs(%b : memref<3xf32>) {
      ^bb0(%x: f32, %o: f32):
        %d = arith.addf %x, %x : f32
        linalg.yield %d : f32
      }
      return
    }
  }
}
