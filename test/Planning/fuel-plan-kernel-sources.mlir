// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json kernel-sources=openblas,generated},func.func(fuel-form-nodes,fuel-enumerate-candidates{kernel-sources=blis,cublas}))' \
// RUN:   | FileCheck %s --check-prefix=OPTION
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%topologies/cpu-cuda.json kernel-sources=generated" \
// RUN:   | FileCheck %s --check-prefix=PLAN
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%topologies/cpu-cuda.json kernel-sources=openblas,blis" \
// RUN:   | FileCheck %s --check-prefix=LIBS

// The `kernel-sources` option (SEMANTICS §3 step 3) of
// fuel-enumerate-candidates and fuel-plan.

// The pass option takes precedence over the configuration's sources.
// OPTION-LABEL: func.func @free
// OPTION: fuel.node 0 matmul
// OPTION-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}]> {

// fuel-plan records the option and enumerates with it: the winner (and
// every retained candidate) is generated.
// PLAN-LABEL: module
// PLAN-SAME: kernel_sources = "generated"
// PLAN-LABEL: func.func @free
// PLAN: fuel.node 0 matmul
// PLAN-NOT: openblas
// PLAN-NOT: blis
// PLAN-SAME: on cpu
// PLAN-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}]> {

// With only the cpu libraries the node stays on cpu, and both survive.
// LIBS-LABEL: module
// LIBS-SAME: kernel_sources = "openblas,blis"
// LIBS-LABEL: func.func @free
// LIBS: fuel.node 0 matmul
// LIBS-SAME: on cpu
// LIBS-SAME: [#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}]> {

func.func @free(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %c: tensor<64x32xf32>)
    -> tensor<64x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
