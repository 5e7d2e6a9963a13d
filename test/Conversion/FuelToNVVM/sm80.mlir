// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda-sm80.json pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --fuel-lower --test-fuel-emit-ptx=output=%t.ptx | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.ptx -o %t.cubin %}

// Tests that the chip comes from the topology: cpu-cuda-sm80.json's cuda:0
// has compute_capability 8.0, so the PTX targets sm_80 (and ptxas assembles
// it for sm_80).

// IR: gpu.binary @cuda_0_ptx [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">
// CHECK: .version 8.0
// CHECK: .target sm_80
// CHECK-NOT: sm_90
// CHECK: .entry matmul_0(

func.func @mm(%a: tensor<33x17xf32>, %b: tensor<17x29xf32>) -> tensor<33x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<33x29xf32>) -> tensor<33x29xf32>
  %m = linalg.matmul ins(%a, %b : tensor<33x17xf32>, tensor<17x29xf32>) outs(%f : tensor<33x29xf32>) -> tensor<33x29xf32>
  return %m : tensor<33x29xf32>
}
