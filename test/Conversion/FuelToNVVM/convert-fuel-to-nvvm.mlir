// RUN: fuel-opt %s --split-input-file --convert-fuel-to-nvvm | FileCheck %s

// Tests that convert-fuel-to-nvvm makes each cuda kernel module one
// gpu.binary of PTX for the chip of the device's compute_capability (9.0
// without a topology), each kernel a private declaration naming its .entry,
// whose threads (block id and thread id) run the iterations of the forall,
// and leaves the cpu executables alone.

// CHECK-LABEL: fuel.executable @cpu on cpu
// CHECK: func.func @host
// CHECK-LABEL: fuel.executable @cuda_0 on cuda:0
// CHECK: func.func private @scale({{.*}}) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32", fuel.ptx_entry = "scale", fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 2, 1, 1>}
// CHECK: func.func private @first({{.*}}fuel.ptx_entry = "first"
// CHECK: gpu.binary @cuda_0_ptx [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, assembly = "
// CHECK-SAME: .target sm_90
// CHECK-SAME: .entry scale(
// CHECK-SAME: %ctaid.x
// CHECK-SAME: %tid.x
// CHECK-SAME: .entry first(
// CHECK-NOT: gpu.module
fuel.executable @cpu on cpu {
  builtin.module {
    func.func @host(%a: memref<4xf32>) attributes {fuel.kernel_id = "cpu.generated.elementwise_f32"} {
      return
    }
  }
}
fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    func.func @scale(%a: memref<300xf32>, %b: memref<300xf32>) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32", fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 2, 1, 1>} {
      %two = arith.constant 2.0 : f32
      scf.forall (%i) in (300) {
        %v = memref.load %a[%i] : memref<300xf32>
        %w = arith.mulf %v, %two : f32
        %r = math.sqrt %w : f32
        memref.store %r, %b[%i] : memref<300xf32>
      }
      return
    }
    func.func @first(%a: memref<4xf32>, %b: memref<1xf32>) attributes {fuel.kernel_id = "cuda.generated.host_extract_slice", fuel.workgroup_size = array<i64: 1, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      memref.store %v, %b[%c0] : memref<1xf32>
      return
    }
  }
}

// -----

// The chip follows the topology: compute_capability 8.6 is sm_86.
// CHECK-LABEL: module attributes
// CHECK: gpu.binary @cuda_0_ptx [#gpu.object<#nvvm.target<O = 3, chip = "sm_86", features = "+ptx80">
// CHECK-SAME: .target sm_86
module attributes {fuel.topology = #fuel.topology<devices = [<cpu, cpu_type>, <cuda:0, compute_capability = "8.6">]>} {
  fuel.executable @cuda_0 on cuda:0 {
    builtin.module {
      func.func @k(%a: memref<4xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "cuda.generated.elementwise_f32", fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
        scf.forall (%i) in (4) {
          %v = memref.load %a[%i] : memref<4xf32>
          memref.store %v, %b[%i] : memref<4xf32>
        }
        return
      }
    }
  }
}
