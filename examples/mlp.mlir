// A two-layer perceptron with a softmax head, as a frontend would hand it to
// fuel: standard MLIR on tensors, weights resident on the host.
//
//   fuel-opt examples/mlp.mlir \
//     --fuel-plan="topology=test/topologies/cpu-cuda.json explain=true"
//
// forms one node per kernel-bearing op and gives each its ranked candidates
// on the host and on the GPU, with a remark per node saying why its winner
// won.
func.func @mlp(%x: tensor<64x256xf32> {fuel.residency = #fuel.device<cpu>},
               %w1: tensor<256x512xf32> {fuel.residency = #fuel.device<cpu>},
               %b1: tensor<512xf32> {fuel.residency = #fuel.device<cpu>},
               %w2: tensor<512x128xf32> {fuel.residency = #fuel.device<cpu>})
    -> (tensor<64x128xf32> {fuel.residency = #fuel.device<cpu>}) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x512xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<64x256xf32>, tensor<256x512xf32>)
                     outs(%acc1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  // Bias and ReLU in one elementwise generic with a broadcast operand.
  %a = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<64x512xf32>, tensor<512xf32>) outs(%e1 : tensor<64x512xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x512xf32>
  %e2 = tensor.empty() : tensor<64x128xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %logits = linalg.matmul ins(%a, %w2 : tensor<64x512xf32>, tensor<512x128xf32>)
                          outs(%acc2 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %p = linalg.softmax dimension(1) ins(%logits : tensor<64x128xf32>)
                                   outs(%e2 : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %p : tensor<64x128xf32>
}
