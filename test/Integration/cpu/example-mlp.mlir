// RUN: %python %S/../run-and-check.py %S/../../../examples/mlp.mlir \
// RUN:   --topology %topologies/cpu-only.json --ref mlp --input-range=-0.1,0.1 \
// RUN:   --rtol 1e-4 --atol 1e-5 --check-winners --same-with-threads 1

// Tests that examples/mlp.mlir (64x784 -> 1024 -> 1024 -> 10, bias + ReLU,
// softmax) compiles for the CPU, runs the plan's winners and gives numpy's
// class probabilities. Inputs in [-0.1, 0.1] keep the logits small enough
// that the softmax is not saturated, so every probability is checked.
