// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-only.json \
// RUN:   --ref exp --input-range=-87,88 --rtol 3e-7 --atol 0 --check-winners
// RUN: %python %S/../run-and-check.py %s --topology %topologies/cpu-target.json \
// RUN:   --ref exp --input-range=-87,88 --rtol 3e-7 --atol 0 --check-winners

// Tests that the generated f32 exp (fuel's polynomial, docs/CPU-CODEGEN.md
// "f32 exp") is within 2 ulp (a relative error of 2.4e-7) over 4x1000
// inputs spread across the range where exp is a normal float, for the host's
// ISA class and for AVX2 (cpu-target.json: x86-64-v3).

func.func @exp(%a: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %e = tensor.empty() : tensor<4x1000xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x1000xf32>) outs(%e : tensor<4x1000xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x1000xf32>
  return %r : tensor<4x1000xf32>
}
