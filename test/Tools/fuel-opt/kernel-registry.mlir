// fuel-opt --fuel-kernel-registry=FILE plans with the registry in FILE
// instead of the built-in one: with only BLIS's matmul registered, BLIS wins
// the node; without the option the built-in registry's kernels compete.
// RUN: fuel-opt %s --fuel-kernel-registry=%S/Inputs/blis-only.json -mlir-print-local-scope \
// RUN:   --fuel-plan="topology=%topologies/cpu-only.json" | FileCheck %s --check-prefix=FILE
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-only.json" -mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=BUILTIN
// A file that is missing or not a registry is an error naming it, before
// any input is read.
// RUN: not fuel-opt %s --fuel-kernel-registry=%S/Inputs/missing.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: not fuel-opt %s --fuel-kernel-registry=%S/Inputs/bad-registry.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// FILE: fuel.node 0 matmul
// FILE-NOT: cpu.generated.matmul_f32
// FILE-NOT: cpu.openblas.matmul_f32
// FILE: "cpu.blis.matmul_f32"
// FILE-NOT: cpu.generated.matmul_f32
// FILE-NOT: cpu.openblas.matmul_f32
// BUILTIN-DAG: "cpu.generated.matmul_f32"
// BUILTIN-DAG: "cpu.openblas.matmul_f32"
// MISSING: fuel-opt: error: cannot read kernel registry '{{.*}}missing.json': No such file or directory
// BAD: fuel-opt: {{.*}}bad-registry.json: error: $.kernels[0]: missing key "op"

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>)
                     outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
