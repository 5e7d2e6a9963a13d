// Two functions of f32 nodes, unplanned: a matmul in @first, two
// exponentials in @second.
func.func @first(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>)
                     outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}

func.func @second(%a: tensor<128xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %0 = linalg.exp ins(%a : tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %1 = linalg.exp ins(%0 : tensor<128xf32>) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  return %1 : tensor<128xf32>
}
