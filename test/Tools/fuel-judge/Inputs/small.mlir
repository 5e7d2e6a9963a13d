// A small program for fuel-judge's tests: a matmul (three CPU kernels:
// generated, OpenBLAS, BLIS) and an elementwise add.
func.func @small(%a: tensor<32x64xf32>, %b: tensor<64x16xf32>,
                 %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x16xf32>)
                     outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  %r = linalg.add ins(%m, %c : tensor<32x16xf32>, tensor<32x16xf32>)
                  outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}
