// RUN: %python %S/../run-and-check.py %S/../../../examples/convnet.mlir \
// RUN:   --topology %topologies/cpu-only.json --ref convnet --input-range=-0.5,0.5 \
// RUN:   --rtol 1e-4 --atol 1e-4 --check-winners --same-with-threads 1

// Tests that examples/convnet.mlir (two conv + bias + ReLU + 2x2 max-pool
// stages on 8x3x32x32 images, 5x5 then 3x3 filters, a flattening view and a
// dense head to 10 classes) compiles for the CPU, runs the plan's winners
// and gives numpy's logits.
