// REQUIRES: vulkan
// RUN: %python %S/../run-and-check.py %S/../../../examples/mlp.mlir \
// RUN:   --topology %topologies/cpu-lavapipe.json \
// RUN:   --plan "pinned-device=vulkan:0 allow-cost-placement=false kernel-sources=generated" \
// RUN:   --ref mlp --input-range=-0.1,0.1 --rtol 1e-4 --atol 1e-5 --check-winners --expect-backend vulkan

// Tests that examples/mlp.mlir with every node pinned to vulkan:0 runs its
// SPIR-V kernels on the Vulkan device and matches numpy.
