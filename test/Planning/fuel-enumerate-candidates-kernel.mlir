// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   | FileCheck %s
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json kernel-sources=openblas,generated},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   | FileCheck %s --check-prefix=CONFIG
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json price-transfers=false},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   | FileCheck %s --check-prefix=FALLBACK

// Choosing a kernel (SEMANTICS §1 `fuel.kernel`, §3 step 3 `kernel-sources`):
// a node carrying `kernel` admits only that kernel, on the admitted devices
// that have it; the kernel sources, from the enumeration option or else the
// module's configuration, drop the candidates of every other source.

// Tests that `fuel.kernel` becomes the node's `kernel` clause and leaves
// exactly that kernel's candidate, while a free node keeps every source.

// CHECK-LABEL: func.func @forced
// CHECK: fuel.node 0 matmul {{.*}} kernel "cpu.openblas.matmul_f32" alternatives #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cpu>, [#fuel.candidate<"cpu.openblas.matmul_f32", source = "openblas", backend = cpu, device = cpu, revision = 0x{{[0-9a-f]+}}, priority = 20, {{[^#]*}}>]> {
// CHECK: fuel.node 1 matmul
// CHECK-SAME: #fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {

// The configuration records the sources in canonical order.
// CONFIG-LABEL: module
// CONFIG-SAME: fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none", kernel_sources = "generated,openblas">
// CONFIG-LABEL: func.func @forced
// CONFIG: fuel.node 0 matmul {{.*}} kernel "cpu.openblas.matmul_f32"
// CONFIG-SAME: [#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}]> {
// CONFIG: fuel.node 1 matmul
// CONFIG-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {

module {
func.func @forced(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %c: tensor<64x32xf32>)
    -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %m = linalg.matmul {fuel.kernel = "cpu.openblas.matmul_f32"}
      ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  %n = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m, %n : tensor<64x32xf32>, tensor<64x32xf32>
}
}

// -----

// Tests that a forced cuda kernel leaves the node on the one admitted device
// that has it: the cpu candidates are gone.

// CHECK-LABEL: func.func @forced_cuda
// CHECK: fuel.node 0 matmul {{.*}} kernel "cuda.generated.matmul_f32"
// CHECK-SAME: decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cpu>, [#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}]> {

// Without transfer pricing cuda:0 is a fallback device of the node: the
// forced kernel's candidate is there, tagged fallback.
// FALLBACK-LABEL: func.func @forced_cuda
// FALLBACK: fuel.node 0 matmul {{.*}} kernel "cuda.generated.matmul_f32"
// FALLBACK-SAME: [#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}, fallback>]> {

module {
func.func @forced_cuda(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %c: tensor<64x32xf32>)
    -> tensor<64x32xf32> {
  %m = linalg.matmul {fuel.kernel = "cuda.generated.matmul_f32"}
      ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
}

