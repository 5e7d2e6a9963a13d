// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref strided_slice --param 'offsets=(1,0)' --param 'shape=(4,4)' --param 'strides=(2,3)' --rtol 0 --atol 0

// Tests that a strided slice returned as a result (rows 1, 3, 5, 7 and
// columns 0, 3, 6, 9 of a 9x10 input) is materialised by a CPU host-op kernel
// (cpu.generated.host_extract_slice).

func.func @strided(%a: tensor<9x10xf32>) -> tensor<4x4xf32> {
  %s = tensor.extract_slice %a[1, 0] [4, 4] [2, 3] : tensor<9x10xf32> to tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
