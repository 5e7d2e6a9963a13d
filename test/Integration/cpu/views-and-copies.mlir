// RUN: fuel-opt %s --fuel-plan-buffers --fuel-serialize-executable=output=%t.fuelx -o /dev/null
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.x.npy 2x3 3
// RUN: fuel-run %t.fuelx --input=@%t.x.npy --output=@%t.o0.npy --output=@%t.o1.npy --output=@%t.o2.npy --output=@%t.o3.npy --output=@%t.o4.npy
// RUN: /usr/bin/python3 %s.py %t

// Tests a program that needs no kernel, end to end: an input returned
// unchanged, a view of it returned twice, a contiguous slice of that view
// (a chain of views, at byte offset 12) and a constant returned; each output
// is a copy. Results are compared with numpy (views-and-copies.mlir.py,
// exact).

func.func @views(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<3xf32>, tensor<4xf32>) {
  %v = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %s = tensor.extract_slice %v[3] [3] [1] : tensor<6xf32> to tensor<3xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %x, %v, %v, %s, %c : tensor<2x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<3xf32>, tensor<4xf32>
}
