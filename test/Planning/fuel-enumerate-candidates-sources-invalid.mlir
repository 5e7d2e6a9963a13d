// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-only.json kernel-sources=openblas},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   -o /dev/null
// RUN: not fuel-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{kernel-sources=generated,mkl})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ATTACH
// RUN: not fuel-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology,func.func(fuel-form-nodes,fuel-enumerate-candidates{kernel-sources=cuBLAS}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ENUMERATE
// RUN: not fuel-opt %s --split-input-file --fuel-plan="kernel-sources=," 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAN

// Errors of the `kernel-sources` option (SEMANTICS §3 step 3): an unknown
// source fails at the pass that reads the option; sources that leave a node
// nothing are an error at the node naming the sources and those registered.

// ATTACH: error: invalid 'kernel-sources' option 'generated,mkl': unknown kernel source 'mkl' (expected generated, openblas, blis, cublas)
// ENUMERATE: error: invalid 'kernel-sources' option 'cuBLAS': unknown kernel source 'cuBLAS' (expected generated, openblas, blis, cublas)
// PLAN: error: invalid 'kernel-sources' option ',': empty kernel source name in ','

// Tests that openblas alone leaves an elementwise node nothing, and that
// the message names the source list and the sources registered there.

func.func @sources_leave_nothing(%a: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+2 {{node 0 (elementwise): kernel-sources=openblas leaves no kernel for op 'elementwise' with dtypes (f32->f32) on the admitted devices (cpu); the sources registered there: generated}}
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.exp ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Tests that a forced kernel of an excluded source says so.

func.func @forced_excluded(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>)
    -> tensor<4x4xf32> {
  // expected-error @+1 {{node 0 (matmul): kernel 'cpu.blis.matmul_f32' is of source 'blis', which kernel-sources=openblas excludes}}
  %m = linalg.matmul {fuel.kernel = "cpu.blis.matmul_f32"}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
