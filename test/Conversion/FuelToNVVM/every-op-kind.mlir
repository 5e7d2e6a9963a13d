// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-lower --test-fuel-emit-ptx=output=%t.ptx | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// Tests that a program with a node of every op kind the registry lists for
// cuda.generated (matmul, batch_matmul, conv2d, pool, elementwise, reduce,
// softmax, transpose, generic), each pinned to cuda:0, lowers to one PTX
// module for sm_90 (the topology's compute_capability 9.0) with an .entry
// per kernel, which needs no libdevice and which ptxas assembles, and that
// every launch runs a cuda.generated kernel.

// CHECK-LABEL: fuel.executable @cuda_0 on cuda:0
// CHECK-DAG: fuel.kernel_id = "cuda.generated.matmul_f32"
// CHECK-DAG: fuel.kernel_id = "cuda.generated.batch_matmul_f32"
// CHECK-DAG: fuel.kernel_id = "cuda.generated.conv2d_f32"
// CHECK-DAG: fuel.kernel_id = "cuda.generated.pool_f32"
// CHECK-DAG: fuel.kernel_id = "cuda.generated.elementwise_f32"
// CHECK-DAG: fuel.kernel_id = "cuda.generated.reduce_f32"
// CHECK-DAG: fuel.kernel_id = "cuda.generated.softmax_f32"
// CHECK-DAG: fuel.kernel_id = "cuda.generated.transpose_f32"
// CHECK-DAG: fuel.kernel_id = "cuda.generated.generic_f32"
// CHECK-DAG: fuel.ptx_entry = "matmul_0"
// CHECK-DAG: fuel.workgroup_size = array<i64: 256, 1, 1>
// CHECK: gpu.binary @cuda_0_ptx [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, assembly = "
// CHECK: fuel.program @kinds
// CHECK-COUNT-9: fuel.launch @cuda_0::

// PTX: .version 8.0
// PTX: .target sm_90
// PTX-NOT: __nv_
// PTX-DAG: .entry matmul_0(
// PTX-DAG: .entry batch_matmul_{{[0-9]+}}(
// PTX-DAG: .entry conv2d_{{[0-9]+}}(
// PTX-DAG: .entry pool_{{[0-9]+}}(
// PTX-DAG: .entry elementwise_{{[0-9]+}}(
// PTX-DAG: .entry reduce_{{[0-9]+}}(
// PTX-DAG: .entry softmax_{{[0-9]+}}(
// PTX-DAG: .entry transpose_{{[0-9]+}}(
// PTX-DAG: .entry generic_{{[0-9]+}}(
// PTX-NOT: __nv_

func.func @kinds(%a: tensor<7x5xf32>, %b: tensor<5x3xf32>, %ba: tensor<2x7x5xf32>,
                 %bb: tensor<2x5x3xf32>, %x: tensor<1x2x11x13xf32>,
                 %w: tensor<3x2x3x3xf32>, %bias: tensor<5xf32>, %t: tensor<5x7xf32>)
    -> (tensor<7x3xf32>, tensor<2x7x3xf32>, tensor<1x3x9x11xf32>, tensor<1x2x5x6xf32>,
        tensor<7x5xf32>, tensor<7xf32>, tensor<7x5xf32>, tensor<5x7xf32>, tensor<5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32

  %e0 = tensor.empty() : tensor<7x3xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<7x3xf32>) -> tensor<7x3xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<7x5xf32>, tensor<5x3xf32>) outs(%f0 : tensor<7x3xf32>) -> tensor<7x3xf32>

  %e1 = tensor.empty() : tensor<2x7x3xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
  %bmm = linalg.batch_matmul ins(%ba, %bb : tensor<2x7x5xf32>, tensor<2x5x3xf32>) outs(%f1 : tensor<2x7x3xf32>) -> tensor<2x7x3xf32>

  %e2 = tensor.empty() : tensor<1x3x9x11xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x3x9x11xf32>) -> tensor<1x3x9x11xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x11x13xf32>, tensor<3x2x3x3xf32>) outs(%f2 : tensor<1x3x9x11xf32>) -> tensor<1x3x9x11xf32>

  %window = tensor.empty() : tensor<3x3xf32>
  %e3 = tensor.empty() : tensor<1x2x5x6xf32>
  %f3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<1x2x5x6xf32>) -> tensor<1x2x5x6xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x2x11x13xf32>, tensor<3x3xf32>) outs(%f3 : tensor<1x2x5x6xf32>) -> tensor<1x2x5x6xf32>

  %e4 = tensor.empty() : tensor<7x5xf32>
  %ew = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %bias : tensor<7x5xf32>, tensor<5xf32>) outs(%e4 : tensor<7x5xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %m = arith.maximumf %s, %zero : f32
    %x1 = math.exp %m : f32
    linalg.yield %x1 : f32
  } -> tensor<7x5xf32>

  %e5 = tensor.empty() : tensor<7xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<7xf32>) -> tensor<7xf32>
  %red = linalg.reduce ins(%a : tensor<7x5xf32>) outs(%f5 : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }

  %e6 = tensor.empty() : tensor<7x5xf32>
  %sm = linalg.softmax dimension(1) ins(%a : tensor<7x5xf32>) outs(%e6 : tensor<7x5xf32>) -> tensor<7x5xf32>

  %e7 = tensor.empty() : tensor<5x7xf32>
  %tr = linalg.transpose ins(%a : tensor<7x5xf32>) outs(%e7 : tensor<5x7xf32>) permutation = [1, 0]

  %e8 = tensor.empty() : tensor<5x7xf32>
  %gen = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : tensor<7x5xf32>, tensor<5x7xf32>) outs(%e8 : tensor<5x7xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<5x7xf32>

  return %mm, %bmm, %conv, %pool, %ew, %red, %sm, %tr, %gen
      : tensor<7x3xf32>, tensor<2x7x3xf32>, tensor<1x3x9x11xf32>, tensor<1x2x5x6xf32>,
        tensor<7x5xf32>, tensor<7xf32>, tensor<7x5xf32>, tensor<5x7xf32>, tensor<5x7xf32>
}
