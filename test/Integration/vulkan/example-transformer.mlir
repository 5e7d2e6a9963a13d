// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %S/../../../examples/transformer.mlir \
// RUN:   --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref transformer --input-range=-0.2,0.2 --rtol 1e-3 --atol 1e-4 --check-winners --expect-backend vulkan

// Tests that examples/transformer.mlir with every node pinned to vulkan:0 runs its
// SPIR-V kernels on the Vulkan device and matches numpy.
