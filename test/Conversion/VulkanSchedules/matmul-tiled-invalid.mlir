// DEFINE: %{plan} = pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json --plan="%{plan}" --emit=host -o %t.host.mlir
// RUN: sed -e 's/tile = array<i64: 64, 64, 64>/tile = array<i64: 64, 64, 128>/' %t.host.mlir \
// RUN:   | not fuel-opt --convert-fuel-to-spirv 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: sed -e 's/fuel.workgroup_size = array<i64: 16, 16, 1>/fuel.workgroup_size = array<i64: 16, 8, 1>/' %t.host.mlir \
// RUN:   | not fuel-opt --convert-fuel-to-spirv 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: sed -e 's/block = array<i64: 4, 4>/block = array<i64: 3, 4>/' %t.host.mlir \
// RUN:   | not fuel-opt --convert-fuel-to-spirv 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: sed -e 's/m = 128 : i64/m = 100 : i64/' %t.host.mlir \
// RUN:   | not fuel-opt --convert-fuel-to-spirv 2>&1 | FileCheck %s --check-prefix=BINDING
// RUN: fuel-compile %s --topology=%S/Inputs/cpu-vulkan-32-invocations.json --plan="%{plan}" --emit=host -o %t.32.mlir
// RUN: head -n 1 %t.32.mlir > %t.small.mlir
// RUN: tail -n +2 %t.host.mlir >> %t.small.mlir
// RUN: not fuel-opt --convert-fuel-to-spirv %t.small.mlir 2>&1 | FileCheck %s --check-prefix=INVOCATIONS
// RUN: sed -e 's/, c = 2 : i64//' %t.host.mlir \
// RUN:   | not fuel-opt --convert-fuel-to-spirv 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: sed -e 's/layout = "nchw_fchw"/layout = "nchw"/' %t.host.mlir \
// RUN:   | not fuel-opt --convert-fuel-to-spirv 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: sed -e 's/shape = array<i64: 1, 3, 10, 10, 64, 3, 3>/shape = array<i64: 1, 3, 10, 12, 64, 3, 3>/' %t.host.mlir \
// RUN:   | not fuel-opt --convert-fuel-to-spirv 2>&1 | FileCheck %s --check-prefix=CONV-BINDING
// RUN: sed -e 's/target = "vulkan"/target = "cuda"/' %t.host.mlir \
// RUN:   | not fuel-opt --convert-fuel-to-spirv 2>&1 | FileCheck %s --check-prefix=TARGET

// Tests that convert-fuel-to-spirv checks a kernel's shared-memory matmul
// tiling before building it, with an error at the kernel naming the limit,
// the field or the binding: panels beyond the device's shared memory, a
// workgroup size that is not the tiling's, tiles that are not multiples of
// the block, a shape the bindings do not have, a workgroup beyond the
// device's invocations (lavapipe's kernel under a topology whose workgroups
// hold 32) and a missing field; for a convolution, an unknown layout and a
// shape its bindings do not have; and a record chosen for another target.

// SHARED: error: kernel @matmul_0 {{.*}}: its matmul panels take 65536 bytes of workgroup memory, more than the device's shared_memory_bytes (32768)
// SIZE: error: kernel @matmul_0 {{.*}}: 'fuel.workgroup_size' must be [16, 16, 1], the invocations of its matmul tiling
// BLOCK: error: kernel @matmul_0 {{.*}}: 'fuel.gpu_matmul' needs positive tiles that are multiples of the block
// BINDING: error: kernel @matmul_0 {{.*}}: binding #0 (A) has type 'memref<128x64xf32>', not the f32 operand of shape [100, 64] that 'fuel.gpu_matmul' describes
// INVOCATIONS: error: kernel @matmul_0 {{.*}}: its workgroup of 256 invocations exceeds the device's max_workgroup_invocations (32)
// LAYOUT: error: kernel @{{[a-z0-9_]+}} (vulkan.generated.conv2d_f32): 'fuel.gpu_conv2d' needs 'layout' ("nchw_fchw" or "nhwc_hwcf")
// CONV-BINDING: error: kernel @{{[a-z0-9_]+}} (vulkan.generated.conv2d_f32): binding #0 (the input) has type 'memref<1x3x10x10xf32>', not the f32 operand of shape [1, 3, 10, 12] that 'fuel.gpu_conv2d' describes
// FIELD: error: kernel @matmul_0 {{.*}}: 'fuel.gpu_matmul' needs 'c', an integer of at least 0
// TARGET: error: kernel @{{[a-z0-9_]+}} {{.*}}: 'fuel.gpu_{{matmul|conv2d}}' was scheduled for target 'cuda', not 'vulkan'

func.func @mm(%a: tensor<128x64xf32>, %b: tensor<64x96xf32>, %x: tensor<1x3x10x10xf32>,
              %w: tensor<64x3x3x3xf32>) -> (tensor<128x96xf32>, tensor<1x64x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x96xf32>) -> tensor<128x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x96xf32>)
                     outs(%f : tensor<128x96xf32>) -> tensor<128x96xf32>
  %ec = tensor.empty() : tensor<1x64x8x8xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<64x3x3x3xf32>)
      outs(%fc : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  return %c, %conv : tensor<128x96xf32>, tensor<1x64x8x8xf32>
}
