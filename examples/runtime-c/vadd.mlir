// c = a + b over 1000 f32 elements: the executable the C consumer of the
// runtime (main.c) runs and checks.
//
//   fuel-compile vadd.mlir -o vadd.fuelx
func.func @vadd(%a: tensor<1000xf32> {fuel.residency = #fuel.device<cpu>},
                %b: tensor<1000xf32> {fuel.residency = #fuel.device<cpu>})
    -> (tensor<1000xf32> {fuel.residency = #fuel.device<cpu>}) {
  %e = tensor.empty() : tensor<1000xf32>
  %c = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                       affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%a, %b : tensor<1000xf32>, tensor<1000xf32>)
      outs(%e : tensor<1000xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  return %c : tensor<1000xf32>
}
