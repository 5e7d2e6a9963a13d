// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --plan="pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" -o %t.a.fuelx
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --plan="pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" -o %t.b.fuelx
// RUN: cmp %t.a.fuelx %t.b.fuelx
// RUN: fuel-run %t.a.fuelx --dump | FileCheck %s
// RUN: fuel-compile %s --topology=%topologies/cpu-lavapipe.json \
// RUN:   --plan="pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" --emit=spirv -o - \
// RUN:   | FileCheck %s --check-prefix=IR

// Tests that fuel-serialize-executable writes a vulkan executable's kernels
// as one SPIR-V module (format spirv) with an entry per kernel, its
// workgroup size and binding slots, byte-identical when compiled twice; and
// that a binding at an offset the alignment does not divide (row 1 of a
// 5x7 input: byte 28) is bound from the aligned offset below it (0, 56
// bytes) with the remainder, 7 elements, as its push constant.

// CHECK: modules 1
// CHECK-NEXT: [0] vulkan:0 spirv {{[0-9]+}} bytes, 1 kernels
// CHECK-NEXT: entry points "elementwise_0"
// CHECK-NEXT: kernel [0] "elementwise_0" workspace 0 workgroup [64, 1, 1] (set 0, binding 0) (set 0, binding 1) (set 0, binding 2)
// CHECK: commands
// CHECK: dispatch module 0 kernel 0 on vulkan:0 grid 1x1x1 b0[0+56] b1[0+28] b2[0+28] push [7, 0, 0] | node 0 "elementwise" "vulkan.generated.elementwise_f32"

// IR: fuel.executable @vulkan_0 on vulkan:0
// IR: func.func private @elementwise_0({{.*}}fuel.spirv_entry = "elementwise_0"{{.*}}fuel.workgroup_size = array<i64: 64, 1, 1>
// IR: spirv.module
// IR: spirv.EntryPoint "GLCompute" @elementwise_0

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
