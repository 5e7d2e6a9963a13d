// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-only.json --fuel-plan-buffers --fuel-serialize-executable=output=%t.a.fuelx -o /dev/null
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-only.json --fuel-plan-buffers --fuel-serialize-executable=output=%t.b.fuelx -o /dev/null
// RUN: cmp %t.a.fuelx %t.b.fuelx
// RUN: fuel-run %t.a.fuelx --dump | FileCheck %s
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-only.json --fuel-plan-buffers | fuel-opt --fuel-serialize-executable=output=%t.c.fuelx -o /dev/null
// RUN: cmp %t.a.fuelx %t.c.fuelx

// Tests what fuel-serialize-executable writes: the same bytes for the same
// IR (also after a print and parse), the topology hash, a library kernel with
// its shim file, a splat constant expanded and a dense_resource blob as
// segments, an arena intermediate, input names from argument locations, and
// the reports of dispatches and copies.

fuel.executable @cpu on cpu {
  fuel.library_kernel @sgemm_0 "cpu.openblas.matmul_f32" shim "openblas"
      entry "fuel_shim_openblas_sgemm" grid [2, 1, 1]
      params [4, 4, 4, 4, 4, 4, 0, 0, 2] workspace 0 revision 3
}

func.func @f(%x: tensor<4x4xf32> loc("x")) -> (tensor<4x4xf32>, tensor<2xi32>) {
  %s = arith.constant dense<0.5> : tensor<4x4xf32>
  %r = arith.constant dense_resource<blob> : tensor<2xi32>
  %m = fuel.dispatch @cpu::@sgemm_0 (%x, %s) {node = 4 : i64, predicted_ns = 70 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %n = fuel.dispatch @cpu::@sgemm_0 (%m, %s) {node = 5 : i64, predicted_ns = 71 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %n, %r : tensor<4x4xf32>, tensor<2xi32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000700000009000000"
    }
  }
#-}

// CHECK: executable format 1 fuel "{{.+}}" kernel_abi 1
// CHECK-NEXT: function "f" topology_hash 0x{{[0-9a-f]+}} plan_hash 0x{{[0-9a-f]+}}
// CHECK-NOT: topology_hash 0x0000000000000000
// CHECK: devices 1
// CHECK-NEXT: [0] cpu arena 64 align 64
// CHECK-NEXT: modules 0
// CHECK-NEXT: library_kernels 1
// CHECK-NEXT: [0] cpu "cpu.openblas.matmul_f32" shim "libfuel-shim-openblas.so" entry "fuel_shim_openblas_sgemm" params [4, 4, 4, 4, 4, 4, 0, 0, 2] workspace 0
// CHECK-NEXT: constants 2
// CHECK-NEXT: [0] "cst_0" 64 bytes
// CHECK-NEXT: [1] "cst_1" 8 bytes
// CHECK-NEXT: buffers 6
// CHECK-NEXT: [0] cpu input 0 size 64
// CHECK-NEXT: [1] cpu output 0 size 64
// CHECK-NEXT: [2] cpu output 1 size 8
// CHECK-NEXT: [3] cpu constant 0 size 64
// CHECK-NEXT: [4] cpu constant 1 size 8
// CHECK-NEXT: [5] cpu arena offset 0 size 64
// CHECK-NEXT: inputs 1
// CHECK-NEXT: [0] "x" 4x4xf32 on cpu buffer 0
// CHECK-NEXT: outputs 2
// CHECK-NEXT: [0] "result0" 4x4xf32 on cpu buffer 1
// CHECK-NEXT: [1] "result1" 2xi32 on cpu buffer 2
// CHECK-NEXT: commands 3
// CHECK-NEXT: [0] dispatch library 0 on cpu grid 2x1x1 b0[0+64] b3[0+64] b5[0+64] | node 4 "matmul" "cpu.openblas.matmul_f32" "openblas" revision 0x0000000000000003 predicted 70 ns
// CHECK-NEXT: [1] dispatch library 0 on cpu grid 2x1x1 b5[0+64] b3[0+64] b1[0+64] after [0] | node 5 "matmul" "cpu.openblas.matmul_f32" "openblas" revision 0x0000000000000003 predicted 71 ns
// CHECK-NEXT: [2] copy b4[0+8] -> b2[0+8] 8 bytes | node -1 "copy" "" "copy" revision 0x0000000000000000 predicted 0 ns
