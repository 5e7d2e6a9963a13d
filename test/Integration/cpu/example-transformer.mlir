// RUN: %python %S/../run-and-check.py %S/../../../examples/transformer.mlir \
// RUN:   --topology %topologies/cpu-only.json --ref transformer --input-range=-0.2,0.2 \
// RUN:   --rtol 1e-3 --atol 1e-4 --check-winners --same-with-threads 1

// Tests that examples/transformer.mlir (one pre-norm block: sequence 128,
// width 256, 4 heads, feed-forward 1024; layer norm, softmax, gelu) compiles
// for the CPU, runs the plan's winners and gives numpy's block output.
