// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=cublas" -o %t.fuelx
// RUN: fuel-run %t.fuelx --dump | FileCheck %s

// Tests that a matmul and a batch_matmul whose winners are cuBLAS kernels on
// cuda:0 are serialized as library kernels on the cuda device (shim
// libfuel-shim-cublas.so, the registry's entry and 4 MiB workspace, the
// sgemm params of docs/LOWERING.md "Library params"), and that the loader
// accepts them.

// CHECK: modules 0
// CHECK: library_kernels 2
// CHECK-DAG: cuda:0 "cuda.cublas.matmul_f32" shim "libfuel-shim-cublas.so" entry "fuel_shim_cublas_sgemm" params [8, 16, 32, 32, 16, 16, 0, 0, 8] workspace 4194304
// CHECK-DAG: cuda:0 "cuda.cublas.batch_matmul_f32" shim "libfuel-shim-cublas.so" entry "fuel_shim_cublas_sgemm_strided_batched" params [3, 8, 16, 32, 32, 16, 16, 256, 512, 128, 0, 0] workspace 4194304

func.func @mm(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>, %ba: tensor<3x8x32xf32>,
              %bb: tensor<3x32x16xf32>) -> (tensor<8x16xf32>, tensor<3x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e3 = tensor.empty() : tensor<3x8x16xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x8x16xf32>) -> tensor<3x8x16xf32>
  %bm = linalg.batch_matmul ins(%ba, %bb : tensor<3x8x32xf32>, tensor<3x32x16xf32>) outs(%f3 : tensor<3x8x16xf32>) -> tensor<3x8x16xf32>
  return %m, %bm : tensor<8x16xf32>, tensor<3x8x16xf32>
}
