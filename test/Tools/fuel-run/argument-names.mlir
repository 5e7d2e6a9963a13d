// RUN: rm -rf %t && mkdir -p %t
// RUN: fuel-compile %s --topology=%topologies/cpu-only.json -o %t/names.fuelx
// RUN: fuel-run %t/names.fuelx --dump | FileCheck %s --check-prefix=DUMP
// RUN: fuel-run %t/names.fuelx --input=random:1 --output=@%t/four.npy \
// RUN:   --output=@%t/eight.npy > /dev/null
// RUN: not fuel-run %t/names.fuelx --input=@%t/eight.npy \
// RUN:   --input=@%t/eight.npy --input=@%t/eight.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARG0
// RUN: not fuel-run %t/names.fuelx --input=@%t/four.npy \
// RUN:   --input=@%t/four.npy --input=@%t/eight.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARG1
// RUN: not fuel-run %t/names.fuelx --input=@%t/four.npy \
// RUN:   --input=@%t/eight.npy --input=@%t/four.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARG2

// Tests that fuel-run names a wrong-shaped input by the executable's name
// for it: the argument's location name, its `onnx.name`, or `arg<i>` when
// it has neither (fuel-plan-buffers); the outputs are named likewise.

// DUMP:      inputs 3
// DUMP-NEXT:   [0] "x" 4xf32 on cpu
// DUMP-NEXT:   [1] "input.1" 8xf32 on cpu
// DUMP-NEXT:   [2] "arg2" 8xf32 on cpu
// DUMP-NEXT: outputs 2
// DUMP-NEXT:   [0] "doubled" 4xf32 on cpu
// DUMP-NEXT:   [1] "result1" 8xf32 on cpu

// ARG0: fuel-run: error: {{.*}}eight.npy: is 8xf32, argument 0 (x) expects 4xf32 (dimension 0 is 8, expected 4)
// ARG1: fuel-run: error: {{.*}}four.npy: is 4xf32, argument 1 (input.1) expects 8xf32 (dimension 0 is 4, expected 8)
// ARG2: fuel-run: error: {{.*}}four.npy: is 4xf32, argument 2 (arg2) expects 8xf32 (dimension 0 is 4, expected 8)

func.func @names(%x: tensor<4xf32> loc("x"),
                 %y: tensor<8xf32> {onnx.name = "input.1"},
                 %z: tensor<8xf32>)
    -> (tensor<4xf32> {onnx.name = "doubled"}, tensor<8xf32>) {
  %e4 = tensor.empty() : tensor<4xf32>
  %d = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>)
                  outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %s = linalg.add ins(%y, %z : tensor<8xf32>, tensor<8xf32>)
                  outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  return %d, %s : tensor<4xf32>, tensor<8xf32>
}
