// DEFINE: %{plan} = pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated
// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json --plan="%{plan}" --emit=kernels -o - \
// RUN:   | FileCheck %s --check-prefix=KERNELS
// RUN: fuel-compile %s --topology=%S/Inputs/cpu-cuda-no-limits.json --plan="%{plan}" --emit=kernels -o - \
// RUN:   | FileCheck %s --check-prefix=KERNELS
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda.json %{plan}" \
// RUN:   --fuel-lower --test-fuel-emit-ptx=output=%t.ptx -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-cuda-sm80.json %{plan}" \
// RUN:   --fuel-lower --test-fuel-emit-ptx=output=%t.sm80.ptx -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.sm80.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json --plan="%{plan}" -o %t.a.fuelx
// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json --plan="%{plan}" -o %t.b.fuelx
// RUN: cmp %t.a.fuelx %t.b.fuelx

// Tests that cuda matmul, batch_matmul and conv2d kernels take the
// shared-memory schedule with tiles from the device's limits: warps of 32
// and 48 KiB of static shared memory (stated in cpu-cuda.json; from CUDA's
// table for the compute capability in cpu-cuda-no-limits.json, which
// gives the same tiles): 32 x 16 threads of 4 x 4 elements, 64 x 128 tiles
// of C, K panels of 64 (8 for a K of 5, 32 for the convolution's 27). None
// of the shapes is a multiple of its tiles. The PTX declares the two panels
// `.shared` (64 x 64 and 64 x 128 floats: 48 KiB), synchronizes with
// `bar.sync`, and ptxas assembles it for sm_90 and sm_80; the executable is
// the same bytes twice.

// KERNELS-LABEL: fuel.executable @cuda_0 on cuda:0
// KERNELS: func.func @matmul_0(
// KERNELS-SAME: fuel.gpu_matmul = {a = 0 : i64, b = 1 : i64, batch = 1 : i64, block = array<i64: 4, 4>, c = 2 : i64, init = 0.000000e+00 : f32, k = 67 : i64, m = 130 : i64, n = 200 : i64, target = "cuda", tile = array<i64: 64, 128, 64>}
// KERNELS-SAME: fuel.workgroup_size = array<i64: 32, 16, 1>
// KERNELS-SAME: fuel.workgroups = array<i64: 2, 3, 1>
// KERNELS-NOT: scf.forall
// KERNELS: linalg.matmul
// KERNELS: func.func @batch_matmul_1(
// KERNELS-SAME: fuel.gpu_matmul = {a = 0 : i64, b = 1 : i64, batch = 3 : i64, block = array<i64: 4, 4>, c = 2 : i64, init = 0.000000e+00 : f32, k = 5 : i64, m = 67 : i64, n = 130 : i64, target = "cuda", tile = array<i64: 64, 128, 8>}
// KERNELS-SAME: fuel.workgroup_size = array<i64: 32, 16, 1>
// KERNELS-SAME: fuel.workgroups = array<i64: 2, 2, 3>
// KERNELS: func.func @conv2d_2(
// KERNELS-SAME: fuel.gpu_conv2d = {block = array<i64: 4, 4>, dilations = array<i64: 1, 1>, filter = 1 : i64, init = 0.000000e+00 : f32, input = 0 : i64, layout = "nchw_fchw", output = 2 : i64, shape = array<i64: 2, 3, 20, 21, 70, 3, 3>, strides = array<i64: 1, 1>, target = "cuda", tile = array<i64: 64, 128, 32>}
// KERNELS-SAME: fuel.workgroup_size = array<i64: 32, 16, 1>
// KERNELS-SAME: fuel.workgroups = array<i64: 3, 2, 2>

// PTX: .entry matmul_0(
// PTX: .maxntid 32, 16, 1
// PTX-DAG: .shared .align 4 .b8 {{.*}}[16384];
// PTX-DAG: .shared .align 4 .b8 {{.*}}[32768];
// PTX: st.shared
// PTX: bar.sync
// PTX: ld.shared
// PTX: bar.sync
// PTX: .entry batch_matmul_1(
// PTX: .maxntid 32, 16, 1
// PTX: bar.sync
// PTX: .entry conv2d_2(
// PTX: .maxntid 32, 16, 1
// PTX-DAG: .shared .align 4 .b8 {{.*}}[8192];
// PTX-DAG: .shared .align 4 .b8 {{.*}}[16384];
// PTX: bar.sync

func.func @mm(%a: tensor<130x67xf32>, %b: tensor<67x200xf32>,
              %ba: tensor<3x67x5xf32>, %bb: tensor<3x5x130xf32>,
              %x: tensor<2x3x20x21xf32>, %w: tensor<70x3x3x3xf32>)
    -> (tensor<130x200xf32>, tensor<3x67x130xf32>, tensor<2x70x18x19xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<130x200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<130x200xf32>) -> tensor<130x200xf32>
  %m = linalg.matmul ins(%a, %b : tensor<130x67xf32>, tensor<67x200xf32>) outs(%f : tensor<130x200xf32>) -> tensor<130x200xf32>
  %be = tensor.empty() : tensor<3x67x130xf32>
  %bf = linalg.fill ins(%zero : f32) outs(%be : tensor<3x67x130xf32>) -> tensor<3x67x130xf32>
  %bm = linalg.batch_matmul ins(%ba, %bb : tensor<3x67x5xf32>, tensor<3x5x130xf32>) outs(%bf : tensor<3x67x130xf32>) -> tensor<3x67x130xf32>
  %ce = tensor.empty() : tensor<2x70x18x19xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x70x18x19xf32>) -> tensor<2x70x18x19xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x20x21xf32>, tensor<70x3x3x3xf32>) outs(%cf : tensor<2x70x18x19xf32>) -> tensor<2x70x18x19xf32>
  return %m, %bm, %c : tensor<130x200xf32>, tensor<3x67x130xf32>, tensor<2x70x18x19xf32>
}
