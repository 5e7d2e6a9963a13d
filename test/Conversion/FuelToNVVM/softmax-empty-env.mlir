// RUN: env -i fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-lower --test-fuel-emit-ptx=output=%t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-lower --test-fuel-emit-ptx=output=%t.env.ptx -o /dev/null
// RUN: cmp %t.ptx %t.env.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// Tests that a softmax (max, exp, sum, divide) lowers to PTX with an empty
// environment (no CUDA_HOME, CUDA_PATH or PATH): exp is the polynomial of
// the CPU's lowering, so the PTX calls no libdevice function, and the text
// is the same as with this machine's environment.

// CHECK: .version 8.0
// CHECK: .target sm_90
// CHECK-NOT: __nv_
// CHECK: .visible .entry softmax_0(
// CHECK-NEXT: .param .u64 {{.*}}softmax_0_param_0,
// CHECK-NEXT: .param .u64 {{.*}}softmax_0_param_1
// CHECK-NOT: __nv_
// CHECK: ret;

func.func @softmax(%x: tensor<6x37xf32>) -> tensor<6x37xf32> {
  %e = tensor.empty() : tensor<6x37xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<6x37xf32>) outs(%e : tensor<6x37xf32>) -> tensor<6x37xf32>
  return %s : tensor<6x37xf32>
}
