// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.a.fuelx
// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.b.fuelx
// RUN: cmp %t.a.fuelx %t.b.fuelx
// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json --mlir-disable-threading \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.c.fuelx
// RUN: cmp %t.a.fuelx %t.c.fuelx
// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json --cuda-toolkit= \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.d.fuelx
// RUN: cmp %t.a.fuelx %t.d.fuelx
// RUN: not fuel-compile %s --topology=%topologies/cpu-cuda.json --cuda-toolkit=%t.no-toolkit \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.e.fuelx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOOLKIT
// RUN: fuel-run %t.a.fuelx --dump | FileCheck %s
// RUN: fuel-compile %s --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" --emit=ptx -o - \
// RUN:   | FileCheck %s --check-prefix=IR

// Tests that fuel-serialize-executable writes a cuda executable's kernels as
// one PTX module (format ptx) whose text the loader reads back (version,
// target sm_90, an .entry per kernel), each kernel with its block size and
// no binding layout; byte-identical when compiled twice and with one
// thread, and without a toolkit (no kernel needs libdevice); that a
// --cuda-toolkit without libdevice is an error naming it; and that a binding at an offset (row 1 of a 5x7 input: byte 28)
// is bound at that offset, with no push constants (CUDA kernels take
// pointers).

// CHECK: modules 1
// CHECK-NEXT: [0] cuda:0 ptx {{[0-9]+}} bytes, 1 kernels
// CHECK-NEXT: ptx version 8.0 target sm_90 entries "elementwise_0"
// CHECK-NEXT: kernel [0] "elementwise_0" workspace 0 workgroup [256, 1, 1]{{$}}
// CHECK: commands
// CHECK: dispatch module 0 kernel 0 on cuda:0 grid 1x1x1 b0[28+28] b1[0+28] b2[0+28] | node 0 "elementwise" "cuda.generated.elementwise_f32"

// TOOLKIT: error: convert-fuel-to-nvvm: option cuda-toolkit='{{.*}}no-toolkit' has no libdevice (expected {{.*}}no-toolkit/nvvm/libdevice/libdevice.10.bc)

// IR: fuel.executable @cuda_0 on cuda:0
// IR: func.func private @elementwise_0({{.*}}fuel.ptx_entry = "elementwise_0"{{.*}}fuel.workgroup_size = array<i64: 256, 1, 1>
// IR: gpu.binary @cuda_0_ptx
// IR-SAME: .entry elementwise_0

func.func @row_add(%a: tensor<5x7xf32>, %b: tensor<1x7xf32>) -> tensor<1x7xf32> {
  %row = tensor.extract_slice %a[1, 0] [1, 7] [1, 1] : tensor<5x7xf32> to tensor<1x7xf32>
  %e = tensor.empty() : tensor<1x7xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%row, %b : tensor<1x7xf32>, tensor<1x7xf32>) outs(%e : tensor<1x7xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x7xf32>
  return %r : tensor<1x7xf32>
}
