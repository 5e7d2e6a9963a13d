// RUN: fuel-compile %S/../../../examples/mlp.mlir --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="kernel-sources=generated" -o %t.mlp.fuelx
// RUN: fuel-run %t.mlp.fuelx --dump | FileCheck %s --check-prefix=PLACED
// RUN: fuel-compile %S/../../../examples/mlp.mlir --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.mlp-pinned.fuelx
// RUN: fuel-run %t.mlp-pinned.fuelx --dump | FileCheck %s
// RUN: fuel-compile %S/../../../examples/convnet.mlir --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.convnet.fuelx
// RUN: fuel-run %t.convnet.fuelx --dump | FileCheck %s
// RUN: fuel-compile %S/../../../examples/transformer.mlir --topology=%topologies/cpu-cuda.json \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.transformer.fuelx
// RUN: fuel-run %t.transformer.fuelx --dump | FileCheck %s
// RUN: fuel-compile %S/../../../examples/transformer.mlir --topology=%topologies/cpu-cuda-sm80.json \
// RUN:   --plan="pinned-device=cuda:0 allow-cost-placement=false kernel-sources=generated" -o %t.transformer80.fuelx
// RUN: fuel-run %t.transformer80.fuelx --dump | FileCheck %s --check-prefix=SM80

// Tests that the three examples compiled for a cpu + cuda:0 topology (the
// planner placing them, and every node pinned to cuda:0) give executables
// whose CUDA segment the runtime's loader accepts: PTX text for the
// topology's chip with an .entry for every kernel the module lists, each
// with its block size (fuel-run --dump loads and verifies the file): 256
// threads for the per-element kernels, 32 x 16 for the shared-memory
// matmuls and convolutions, 256 for a warp row kernel.

// PLACED: cuda:0 ptx {{[0-9]+}} bytes
// PLACED-NEXT: ptx version 8.0 target sm_90 entries

// CHECK: modules 1
// CHECK-NEXT: [0] cuda:0 ptx {{[0-9]+}} bytes, {{[0-9]+}} kernels
// CHECK-NEXT: ptx version 8.0 target sm_90 entries "
// CHECK-NEXT: kernel [0] "{{[a-z0-9_]+}}_0" workspace 0 workgroup [{{256, 1|32, 16}}, 1]
// CHECK: dispatch module 0 kernel {{[0-9]+}} on cuda:0

// SM80: ptx version 8.0 target sm_80 entries
