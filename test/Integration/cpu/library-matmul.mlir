// RUN: fuel-opt %s --fuel-plan-buffers --fuel-serialize-executable=output=%t.fuelx -o /dev/null
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.a.npy 5x3 7
// RUN: fuel-run %t.fuelx --input=@%t.a.npy --output=@%t.c1.npy --output=@%t.c1b.npy --output=@%t.c1flat.npy --output=@%t.c2.npy
// RUN: /usr/bin/python3 %s.py %t
// RUN: fuel-run %t.fuelx --dump | FileCheck %s

// Tests library kernels end to end: C1 = A·B through the OpenBLAS shim (three
// row blocks), C2 = C1·E through the BLIS shim, both constants as segments;
// C1 is written straight into its output and read from there by the second
// kernel, returned twice (one copy) and as a flat view (a copy). Every result
// is compared with numpy (library-matmul.mlir.py, rtol 1e-5).

fuel.executable @cpu on cpu {
  fuel.library_kernel @sgemm_0 "cpu.openblas.matmul_f32" shim "openblas"
      entry "fuel_shim_openblas_sgemm" grid [3, 1, 1]
      params [5, 7, 3, 3, 7, 7, 0, 0, 2] workspace 0 revision 11
  fuel.library_kernel @sgemm_1 "cpu.blis.matmul_f32" shim "blis"
      entry "fuel_shim_blis_sgemm" grid [1, 1, 1]
      params [5, 2, 7, 7, 2, 2, 0, 0, 5] workspace 0 revision 12
}

func.func @mm(%a: tensor<5x3xf32>) -> (tensor<5x7xf32>, tensor<5x7xf32>, tensor<35xf32>, tensor<5x2xf32>) {
  %b = arith.constant dense<[[-2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5], [-0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25], [1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0]]> : tensor<3x7xf32>
  %e = arith.constant dense<[[-2.0, -1.0], [0.0, 1.0], [2.0, -2.0], [-1.0, 0.0], [1.0, 2.0], [-2.0, -1.0], [0.0, 1.0]]> : tensor<7x2xf32>
  %c1 = fuel.dispatch @cpu::@sgemm_0 (%a, %b) {node = 0 : i64, predicted_ns = 900 : i64} : (tensor<5x3xf32>, tensor<3x7xf32>) -> tensor<5x7xf32>
  %c2 = fuel.dispatch @cpu::@sgemm_1 (%c1, %e) {node = 1 : i64, predicted_ns = 800 : i64} : (tensor<5x7xf32>, tensor<7x2xf32>) -> tensor<5x2xf32>
  %flat = tensor.collapse_shape %c1 [[0, 1]] : tensor<5x7xf32> into tensor<35xf32>
  return %c1, %c1, %flat, %c2 : tensor<5x7xf32>, tensor<5x7xf32>, tensor<35xf32>, tensor<5x2xf32>
}

// CHECK: function "mm"
// CHECK: library_kernels 2
// CHECK-NEXT: [0] cpu "cpu.openblas.matmul_f32" shim "libfuel-shim-openblas.so" entry "fuel_shim_openblas_sgemm" params [5, 7, 3, 3, 7, 7, 0, 0, 2] workspace 0
// CHECK-NEXT: [1] cpu "cpu.blis.matmul_f32" shim "libfuel-shim-blis.so" entry "fuel_shim_blis_sgemm" params [5, 2, 7, 7, 2, 2, 0, 0, 5] workspace 0
// CHECK-NEXT: constants 2
// CHECK-NEXT: [0] "cst_0" 84 bytes
// CHECK-NEXT: [1] "cst_1" 56 bytes
// CHECK: buffers 7
// CHECK-NEXT: [0] cpu input 0 size 60
// CHECK-NEXT: [1] cpu output 0 size 140
// CHECK-NEXT: [2] cpu output 1 size 140
// CHECK-NEXT: [3] cpu output 2 size 140
// CHECK-NEXT: [4] cpu output 3 size 40
// CHECK-NEXT: [5] cpu constant 0 size 84
// CHECK-NEXT: [6] cpu constant 1 size 56
// CHECK: commands 4
// CHECK-NEXT: [0] dispatch library 0 on cpu grid 3x1x1 b0[0+60] b5[0+84] b1[0+140] | node 0 "matmul" "cpu.openblas.matmul_f32" "library" revision 0x000000000000000b predicted 900 ns
// CHECK-NEXT: [1] dispatch library 1 on cpu grid 1x1x1 b1[0+140] b6[0+56] b4[0+40] after [0] | node 1 "matmul" "cpu.blis.matmul_f32" "library" revision 0x000000000000000c predicted 800 ns
// CHECK-NEXT: [2] copy b1[0+140] -> b2[0+140] 140 bytes after [0] | node -1 "copy" "" "copy"
// CHECK-NEXT: [3] copy b1[0+140] -> b3[0+140] 140 bytes after [0] | node -1 "copy" "" "copy"
