// REQUIRES: vulkan
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=per-element" --fuel-bufferize-kernels --fuel-plan-buffers \
// RUN:   --convert-fuel-to-llvm --convert-fuel-to-spirv --fuel-serialize-executable=output=%t.fuelx -o /dev/null
// RUN: fuel-run %t.fuelx --dump | FileCheck %s
// RUN: %python %S/../run-and-check.py --executable %t.fuelx --ref row_softmaxes --rtol 1e-4 --atol 1e-9 --same-with-threads 2

// Tests that softmaxes over long rows through the per-element schedule (one
// invocation per row, four passes over it) match numpy on lavapipe: 1 x 65536
// (262144 loop iterations in one invocation), 3 x 20000 and 2 x 16384 (65536,
// one more than lavapipe runs before it leaves every loop). Without the
// unrolling convert-fuel-to-spirv does to keep an invocation within 65535
// iterations, the first came out as one 1.0 and zeros, the others with their
// last columns unnormalized.

// CHECK-DAG: dispatch {{.*}} on vulkan:0 {{.*}}grid 1x1x1
// CHECK-NOT: row_kernel

func.func @rows(%x0: tensor<1x65536xf32>, %x1: tensor<3x20000xf32>, %x2: tensor<2x16384xf32>)
    -> (tensor<1x65536xf32>, tensor<3x20000xf32>, tensor<2x16384xf32>) {
  %e0 = tensor.empty() : tensor<1x65536xf32>
  %r0 = linalg.softmax dimension(1) ins(%x0 : tensor<1x65536xf32>) outs(%e0 : tensor<1x65536xf32>) -> tensor<1x65536xf32>
  %e1 = tensor.empty() : tensor<3x20000xf32>
  %r1 = linalg.softmax dimension(1) ins(%x1 : tensor<3x20000xf32>) outs(%e1 : tensor<3x20000xf32>) -> tensor<3x20000xf32>
  %e2 = tensor.empty() : tensor<2x16384xf32>
  %r2 = linalg.softmax dimension(1) ins(%x2 : tensor<2x16384xf32>) outs(%e2 : tensor<2x16384xf32>) -> tensor<2x16384xf32>
  return %r0, %r1, %r2 : tensor<1x65536xf32>, tensor<3x20000xf32>, tensor<2x16384xf32>
}
