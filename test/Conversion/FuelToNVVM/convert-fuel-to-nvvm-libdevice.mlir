// REQUIRES: libdevice
// RUN: fuel-opt %s --convert-fuel-to-nvvm="cuda-toolkit=%cuda_toolkit" --test-fuel-emit-ptx=output=%t.ptx | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// Tests that with a cuda-toolkit a math function that has neither a
// polynomial nor an NVPTX instruction (tan) is linked from the toolkit's
// libdevice into the PTX: no extern __nv_tanf is left for ptxas to resolve
// (without a toolkit it is an error, convert-fuel-to-nvvm-invalid.mlir).

// IR: gpu.binary @cuda_0_ptx
// CHECK: .target sm_90
// CHECK-NOT: .extern
// CHECK-NOT: __nv_tanf
// CHECK: .entry k(
// CHECK-NOT: .extern
// CHECK-NOT: __nv_tanf

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32", fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      scf.forall (%i) in (4) {
        %v = memref.load %a[%i] : memref<4xf32>
        %t = math.tan %v : f32
        memref.store %t, %b[%i] : memref<4xf32>
      }
      return
    }
  }
}
