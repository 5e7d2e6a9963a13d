// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-lower --test-fuel-emit-spirv=output=%t.spv | FileCheck %s
// RUN: %if spirv-tools %{ %spirv-val --target-env vulkan1.1 %t.spv %}

// Tests that a program with a node of every op kind the registry lists for
// vulkan.generated (matmul, batch_matmul, conv2d, pool, elementwise, reduce,
// softmax, transpose, generic), each pinned to vulkan:0, lowers to one
// SPIR-V module with an entry point per kernel that spirv-val accepts, and
// that every launch runs a vulkan.generated kernel with its grid.

// CHECK-LABEL: fuel.executable @vulkan_0 on vulkan:0
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.matmul_f32"
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.batch_matmul_f32"
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.conv2d_f32"
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.pool_f32"
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.elementwise_f32"
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.reduce_f32"
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.softmax_f32"
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.transpose_f32"
// CHECK-DAG: fuel.kernel_id = "vulkan.generated.generic_f32"
// CHECK: spirv.module @__spv__vulkan_0_spirv
// CHECK-COUNT-9: spirv.EntryPoint "GLCompute"
// CHECK: fuel.program @kinds
// CHECK-COUNT-9: fuel.launch @vulkan_0::

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
