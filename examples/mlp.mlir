// A three-layer perceptron with a softmax head, as a frontend would hand it
// to fuel: standard MLIR on tensors, weights as function arguments resident
// on the host. A batch of 64 rows of 784 features goes through two hidden
// layers of 1024 (bias + ReLU) to 10 class probabilities.
//
// Compile it for this machine and run it with random inputs, printing each
// command's predicted and measured time:
//
//   fuel-compile examples/mlp.mlir -o mlp.fuelx
//   fuel-run mlp.fuelx --input=random:1 --repeat=10 --report
//
// Inspect a stage of the lowering (planned, outlined, kernels, bufferized,
// host, llvm), or plan it for a CPU + GPU machine and see why each node's
// winner won:
//
//   fuel-compile examples/mlp.mlir --emit=outlined -o -
//   fuel-opt examples/mlp.mlir \
//     --fuel-plan="topology=test/topologies/cpu-cuda.json explain=true"
func.func @mlp(%x: tensor<64x784xf32> {fuel.residency = #fuel.device<cpu>},
               %w1: tensor<784x1024xf32> {fuel.residency = #fuel.device<cpu>},
               %b1: tensor<1024xf32> {fuel.residency = #fuel.device<cpu>},
               %w2: tensor<1024x1024xf32> {fuel.residency = #fuel.device<cpu>},
               %b2: tensor<1024xf32> {fuel.residency = #fuel.device<cpu>},
               %w3: tensor<1024x10xf32> {fuel.residency = #fuel.device<cpu>},
               %b3: tensor<10xf32> {fuel.residency = #fuel.device<cpu>})
    -> (tensor<64x10xf32> {fuel.residency = #fuel.device<cpu>}) {
  %zero = arith.constant 0.0 : f32
  %eh = tensor.empty() : tensor<64x1024xf32>
  %acch = linalg.fill ins(%zero : f32) outs(%eh : tensor<64x1024xf32>) -> tensor<64x1024xf32>

  // Layer 1: 784 -> 1024, then bias and ReLU in one elementwise generic with
  // a broadcast operand.
  %h1 = linalg.matmul ins(%x, %w1 : tensor<64x784xf32>, tensor<784x1024xf32>)
                      outs(%acch : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %a1 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h1, %b1 : tensor<64x1024xf32>, tensor<1024xf32>) outs(%eh : tensor<64x1024xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x1024xf32>

  // Layer 2: 1024 -> 1024, bias and ReLU.
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<64x1024xf32>, tensor<1024x1024xf32>)
                      outs(%acch : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %a2 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h2, %b2 : tensor<64x1024xf32>, tensor<1024xf32>) outs(%eh : tensor<64x1024xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x1024xf32>

  // Head: 1024 -> 10, bias, softmax over the classes.
  %eo = tensor.empty() : tensor<64x10xf32>
  %acco = linalg.fill ins(%zero : f32) outs(%eo : tensor<64x10xf32>) -> tensor<64x10xf32>
  %h3 = linalg.matmul ins(%a2, %w3 : tensor<64x1024xf32>, tensor<1024x10xf32>)
                      outs(%acco : tensor<64x10xf32>) -> tensor<64x10xf32>
  %logits = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h3, %b3 : tensor<64x10xf32>, tensor<10xf32>) outs(%eo : tensor<64x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x10xf32>
  %p = linalg.softmax dimension(1) ins(%logits : tensor<64x10xf32>)
                                   outs(%eo : tensor<64x10xf32>) -> tensor<64x10xf32>
  return %p : tensor<64x10xf32>
}
