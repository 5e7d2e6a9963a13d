// Two dense layers, as a frontend hands them to fuel: 8x16 -> 32 (bias +
// ReLU) -> 4 (bias). The C API tests compile it from text and from a module
// parsed through the MLIR C API, run it and compare with numpy.
func.func @two_layer(%x: tensor<8x16xf32> {fuel.residency = #fuel.device<cpu>},
                     %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
                     %w2: tensor<32x4xf32>, %b2: tensor<4xf32>)
    -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x32xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>)
                      outs(%acc1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %a1 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h1, %b1 : tensor<8x32xf32>, tensor<32xf32>) outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<8x32xf32>, tensor<32x4xf32>)
                      outs(%acc2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h2, %b2 : tensor<8x4xf32>, tensor<4xf32>) outs(%e2 : tensor<8x4xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
