// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX2 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu" \
// RUN:   | FileCheck %s --check-prefixes=CHECK,AVX512 --implicit-check-not=linalg.
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=haswell target-triple=x86_64-unknown-linux-gnu" \
// RUN:   --fuel-bufferize-kernels | FileCheck %s --check-prefix=BUF --implicit-check-not=linalg. \
// RUN:   --implicit-check-not='memref.alloc(' --implicit-check-not=memref.copy

// Tests that every host-op kernel is vectorized and bufferized by its
// schedule: pad, concat, insert_slice (into an input), generate, a strided
// extract_slice and from_elements (scalars).

// Host kernels are bufferized by their schedule already: fuel-bufferize-kernels
// leaves them as they are.
// CHECK-LABEL: func.func @host_pad_0
// CHECK-SAME: fuel.workgroups = array<i64: 1, 1, 1>
// AVX2: vector.transfer_write {{.*}} : vector<8xf32>, memref<1x1x1x8xf32, strided<[1083, 361, 19, 1], offset: ?>>
// AVX512: vector.transfer_write {{.*}} : vector<16xf32>, memref<1x1x1x16xf32, strided<[1083, 361, 19, 1], offset: ?>>
// CHECK: vector.transfer_read {{.*}} : memref<1x1x1x{{[0-9]+}}xf32, strided<[867, 289, 17, 1], offset: ?>>
// CHECK-LABEL: func.func @host_concat_1
// AVX2: vector.transfer_write {{.*}} : vector<7xf32>, memref<1x7xf32, strided<[16, 1], offset: ?>>
// AVX2: vector.transfer_write {{.*}} : vector<8xf32>, memref<1x8xf32, strided<[16, 1], offset: ?>>
// CHECK-LABEL: func.func @host_insert_slice_2
// CHECK: vector.transfer_read
// CHECK-LABEL: func.func @host_generate_3
// CHECK: vector.transfer_write
// CHECK-LABEL: func.func @host_extract_slice_4
// CHECK: vector.transfer_read {{.*}} : memref<{{.*}}strided<[244, 122, 3], offset: ?>>, vector<{{[0-9]+}}xf32>
// CHECK-LABEL: func.func @host_from_elements_5
// CHECK: memref.store

// BUF-LABEL: func.func @host_pad_0
// BUF-LABEL: func.func @host_concat_1
// BUF-LABEL: func.func @host_insert_slice_2
// BUF-LABEL: func.func @host_generate_3
// BUF-LABEL: func.func @host_extract_slice_4
// BUF-LABEL: func.func @host_from_elements_5

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @host_pad_0(%im0: memref<2x3x17x17xf32>, %om0: memref<2x3x19x19xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_pad", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<2x3x17x17xf32> to tensor<2x3x17x17xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<2x3x19x19xf32> to tensor<2x3x19x19xf32>
        %cst = arith.constant 0.5 : f32
        %r = tensor.pad %i0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
        ^bb0(%a0: index, %a1: index, %a2: index, %a3: index):
          tensor.yield %cst : f32
        } : tensor<2x3x17x17xf32> to tensor<2x3x19x19xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<2x3x19x19xf32>, memref<2x3x19x19xf32>) -> ()
        return
      }

    func.func @host_concat_1(%im0: memref<3x7xf32>, %im1: memref<3x9xf32>, %om0: memref<3x16xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_concat", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<3x7xf32> to tensor<3x7xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<3x9xf32> to tensor<3x9xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<3x16xf32> to tensor<3x16xf32>
        %r = tensor.concat dim(1) %i0, %i1 : (tensor<3x7xf32>, tensor<3x9xf32>) -> tensor<3x16xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<3x16xf32>, memref<3x16xf32>) -> ()
        return
      }

    func.func @host_insert_slice_2(%im0: memref<37x61xf32>, %im1: memref<17x30xf32>, %om0: memref<37x61xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_insert_slice", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<37x61xf32> to tensor<37x61xf32>
        %i1 = bufferization.to_tensor %im1 restrict : memref<17x30xf32> to tensor<17x30xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<37x61xf32> to tensor<37x61xf32>
        %r = tensor.insert_slice %i1 into %i0[1, 3] [17, 30] [1, 1] : tensor<17x30xf32> into tensor<37x61xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<37x61xf32>, memref<37x61xf32>) -> ()
        return
      }

    func.func @host_generate_3(%im0: memref<17x37xf32>, %om0: memref<17x37xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_generate", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<17x37xf32> to tensor<17x37xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<17x37xf32> to tensor<17x37xf32>
        %r = tensor.generate {
        ^bb0(%x0: index, %x1: index):
          %s = arith.addi %x0, %x1 : index
          %t = arith.index_cast %s : index to i32
          %f = arith.sitofp %t : i32 to f32
          %e = tensor.extract %i0[%x0, %x1] : tensor<17x37xf32>
          %y = arith.mulf %f, %e : f32
          tensor.yield %y : f32
        } : tensor<17x37xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<17x37xf32>, memref<17x37xf32>) -> ()
        return
      }

    func.func @host_extract_slice_4(%im0: memref<3x4x61xf32>, %om0: memref<3x2x20xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_extract_slice", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %i0 = bufferization.to_tensor %im0 restrict : memref<3x4x61xf32> to tensor<3x4x61xf32>
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<3x2x20xf32> to tensor<3x2x20xf32>
        %r = tensor.extract_slice %i0[0, 1, 0] [3, 2, 20] [1, 2, 3] : tensor<3x4x61xf32> to tensor<3x2x20xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<3x2x20xf32>, memref<3x2x20xf32>) -> ()
        return
      }

    func.func @host_from_elements_5(%om0: memref<1x7xf32>)
        attributes {fuel.kernel_id = "cpu.generated.host_from_elements", fuel.op_kind = "host", fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/host.mlir"} {
        %o0 = bufferization.to_tensor %om0 restrict writable : memref<1x7xf32> to tensor<1x7xf32>
        %cst = arith.constant 2.0 : f32
        %x0 = arith.constant 0.25 : f32
        %x1 = arith.constant 1.25 : f32
        %x2 = arith.constant 2.25 : f32
        %x3 = arith.constant 3.25 : f32
        %x4 = arith.constant 4.25 : f32
        %x5 = arith.constant 5.25 : f32
        %x6 = arith.constant 6.25 : f32
        %r = tensor.from_elements %x0, %x1, %x2, %x3, %x4, %x5, %x6 : tensor<1x7xf32>
        bufferization.materialize_in_destination %r in restrict writable %om0 : (tensor<1x7xf32>, memref<1x7xf32>) -> ()
        return
      }
  }
}
