// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   | FileCheck %s
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json precision=deterministic},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   | FileCheck %s --check-prefix=DET
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json precision=bit-stable},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   | FileCheck %s --check-prefix=DET
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates{prefer-bit-stable=true}))' \
// RUN:   | FileCheck %s --check-prefix=BITSTABLE
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json price-transfers=false},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   | FileCheck %s --check-prefix=NOPRICE
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json price-transfers=false pinned-device=cuda:0 precision=deterministic},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   | FileCheck %s --check-prefix=NOPRICE-CUDA-DET
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json allow-cost-placement=false pinned-device=cuda:0 precision=deterministic},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   | FileCheck %s --check-prefix=NOPRICE-CUDA-DET
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json pinned-device=cuda:0 precision=deterministic},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates))' \
// RUN:   | FileCheck %s --check-prefix=CUDA-DET

// The filter chain of SEMANTICS §3 step 5 under several configurations. The
// matmul variants: on cpu openblas and blis (unaudited) and generated
// (deterministic, cap strided_input); on cuda:0 cublas (unaudited) and
// generated (unaudited, cap strided_input).

// Tests that a contiguous matmul keeps every candidate by default, and how
// each configuration narrows it:
//  - deterministic, or the list 'bit-stable': the hard floor leaves
//    cpu.generated only; cuda:0 leaves the admitted set;
//  - prefer-bit-stable: cpu keeps its bit-stable generated kernel; cuda:0 has
//    none, so the soft filter is skipped there and both stay;
//  - price-transfers=false: cpu survives, so the cuda:0 fallbacks are dropped;
//  - price-transfers=false or allow-cost-placement=false, with decision
//    device cuda:0 and deterministic: cuda:0 has no survivor, so the
//    fallback cpu.generated is used, tagged `fallback`;
//  - the same with pricing on: cpu is a regular admitted device, no tag.

// CHECK-LABEL: func.func @contiguous
// CHECK: fuel.node 0 matmul
// CHECK-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {

// DET-LABEL: func.func @contiguous
// DET: fuel.node 0 matmul
// DET-SAME: decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cpu>, [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}device_bytes = 0>]> {

// BITSTABLE-LABEL: func.func @contiguous
// BITSTABLE: fuel.node 0 matmul
// BITSTABLE-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {

// NOPRICE-LABEL: func.func @contiguous
// NOPRICE: fuel.node 0 matmul
// NOPRICE-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}device_bytes = 0>]> {

// NOPRICE-CUDA-DET-LABEL: func.func @contiguous
// NOPRICE-CUDA-DET: fuel.node 0 matmul
// NOPRICE-CUDA-DET-SAME: decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cuda:0>, [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}device_bytes = 0, fallback>]> {

// CUDA-DET-LABEL: func.func @contiguous
// CUDA-DET: fuel.node 0 matmul
// CUDA-DET-SAME: decision = <{{.*}}device = cuda:0>, [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}device_bytes = 0>]> {
func.func @contiguous(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// Tests that a matmul reading a strided tensor.extract_slice keeps only the
// kernels with the strided_input cap on each device: the generated ones.

// CHECK-LABEL: func.func @strided
// CHECK: tensor.extract_slice
// CHECK: fuel.node 0 matmul
// CHECK-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}caps = [strided_input]{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}caps = [strided_input]{{[^#]*}}]> {

// With prefer-bit-stable as well, cuda.generated survives both soft filters
// (the bit-stable one is skipped there).
// BITSTABLE-LABEL: func.func @strided
// BITSTABLE: fuel.node 0 matmul
// BITSTABLE-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {
func.func @strided(%a: tensor<64x256xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %a[0, 0] [64, 128] [1, 2] : tensor<64x256xf32> to tensor<64x128xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%s, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// Tests that a unit-stride slice of some columns of every row is
// non-contiguous too, even behind a contiguous reshape of it.

// CHECK-LABEL: func.func @partial_columns
// CHECK: fuel.node 0 matmul
// CHECK-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {
func.func @partial_columns(%a: tensor<64x2x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %a[0, 0, 0] [64, 1, 128] [1, 1, 1] : tensor<64x2x128xf32> to tensor<64x1x128xf32>
  %c = tensor.collapse_shape %s [[0, 1], [2]] : tensor<64x1x128xf32> into tensor<64x128xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%c, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// Tests that a contiguous slice (whole rows) and an expand_shape do not
// trigger the strided-input preference: every candidate stays.

// CHECK-LABEL: func.func @contiguous_views
// CHECK: fuel.node 0 matmul
// CHECK-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {
// CHECK: fuel.node 1 matmul
// CHECK-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {
func.func @contiguous_views(%a: tensor<128x128xf32>, %flat: tensor<8192xf32>,
    %b: tensor<128x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.extract_slice %a[64, 0] [64, 128] [1, 1] : tensor<128x128xf32> to tensor<64x128xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%rows, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %x = tensor.expand_shape %flat [[0, 1]] output_shape [64, 128] : tensor<8192xf32> into tensor<64x128xf32>
  %n = linalg.matmul ins(%x, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m, %n : tensor<64x32xf32>, tensor<64x32xf32>
}
