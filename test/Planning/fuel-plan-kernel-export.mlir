// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-only.json kernel-sources=openblas,generated export-plan=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON
// RUN: sed -e 's/fuel.kernel = "cpu.openblas.matmul_f32"//' %s \
// RUN:   | fuel-opt -mlir-print-op-on-diagnostic=false -mlir-print-local-scope --fuel-plan="topology=%topologies/cpu-only.json import-plan=%S/Inputs/import-plan-kernel.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REPLAY
// RUN: not fuel-opt %s --fuel-plan="topology=%topologies/cpu-only.json import-plan=%S/Inputs/import-plan-bad-kernel.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-KERNEL
// RUN: not fuel-opt %s --fuel-plan="topology=%topologies/cpu-only.json import-plan=%S/Inputs/import-plan-bad-sources.json" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-SOURCES

// Choosing a kernel in the plan file (docs/PLAN-FORMAT.md, version 3): the
// configuration records the kernel sources, each node its forced kernel
// (or null), and each candidate its kernel's revision, so a plan names
// exactly the kernel that runs. Importing a plan forces the kernels it
// lists and warns when it was made with other kernel sources.

// JSON:      "version": 3,
// JSON:      "config": {
// JSON-NEXT:   "price_transfers": true,
// JSON-NEXT:   "allow_cost_placement": true,
// JSON-NEXT:   "pinned_device": "cpu",
// JSON-NEXT:   "precision": "none",
// JSON-NEXT:   "kernel_sources": [
// JSON-NEXT:     "generated",
// JSON-NEXT:     "openblas"
// JSON-NEXT:   ]
// JSON-NEXT: },
// JSON:      "id": 0,
// JSON-NEXT: "kind": "matmul",
// JSON-NEXT: "kernel": "cpu.openblas.matmul_f32",
// JSON-NEXT: "placement": "cpu",
// JSON-NEXT: "winner": {
// JSON-NEXT:   "kernel": "cpu.openblas.matmul_f32",
// JSON-NEXT:   "source": "openblas",
// JSON-NEXT:   "revision": "0x{{[0-9a-f]+}}",
// JSON:      "id": 1,
// JSON-NEXT: "kind": "elementwise",
// JSON-NEXT: "kernel": null,
// JSON-NEXT: "placement": "cpu",
// JSON-NEXT: "winner": {
// JSON-NEXT:   "kernel": "cpu.generated.elementwise_f32",

// REPLAY: warning: plan file '{{.*}}import-plan-kernel.json' was made with kernel-sources=openblas,blis, this module is planned with kernel-sources=<all>
// REPLAY: fuel.node 0 matmul {{.*}} pin cpu kernel "cpu.blis.matmul_f32" on cpu
// REPLAY-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}]> {
// REPLAY: fuel.node 1 elementwise
// REPLAY-NOT: kernel "
// REPLAY-SAME: pin cpu on cpu

// BAD-KERNEL: error: invalid plan file '{{.*}}import-plan-bad-kernel.json': functions[0].nodes[0].kernel: kernel id 'blis_sgemm' does not have three dot-separated parts
// BAD-SOURCES: error: invalid plan file '{{.*}}import-plan-bad-sources.json': config.kernel_sources: unknown kernel source 'mkl'

func.func @layer(%x: tensor<64x128xf32>, %w: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %m = linalg.matmul {fuel.kernel = "cpu.openblas.matmul_f32"}
      ins(%x, %w : tensor<64x128xf32>, tensor<128x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.exp ins(%m : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
