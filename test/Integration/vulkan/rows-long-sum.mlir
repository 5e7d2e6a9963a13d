// REQUIRES: vulkan
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-lavapipe.json pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-outline-kernels --fuel-apply-schedules="vulkan-row-schedule=per-element" --fuel-bufferize-kernels --fuel-plan-buffers \
// RUN:   --convert-fuel-to-llvm --convert-fuel-to-spirv --fuel-serialize-executable=output=%t.fuelx -o /dev/null
// RUN: %python %S/../run-and-check.py --executable %t.fuelx --ref row_sums --rtol 1e-5 --atol 1e-2 --same-with-threads 2

// Tests that row sums over rows longer than lavapipe's 65535 loop iterations
// per invocation, through the per-element schedule (one invocation per row),
// match numpy: 1 x 65536 and 2 x 200003 (prime). Without the unrolling
// convert-fuel-to-spirv does, each sum stopped after 65535 columns (the
// first lost its last column, an error of up to 1, the second most of its
// row).

func.func @rows(%x0: tensor<1x65536xf32>, %x1: tensor<2x200003xf32>) -> (tensor<1xf32>, tensor<2xf32>) {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<1xf32>) -> tensor<1xf32>
  %r0 = linalg.reduce ins(%x0 : tensor<1x65536xf32>) outs(%f0 : tensor<1xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e1 = tensor.empty() : tensor<2xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %r1 = linalg.reduce ins(%x1 : tensor<2x200003xf32>) outs(%f1 : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r0, %r1 : tensor<1xf32>, tensor<2xf32>
}
