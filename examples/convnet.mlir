// A small convolutional classifier on a batch of 8 RGB 32x32 images (NCHW),
// LeNet-shaped: a 5x5 convolution (3 -> 16 channels, 32x32 -> 28x28) + bias
// + ReLU + 2x2 max pooling (-> 14x14), a 3x3 convolution (16 -> 32
// channels, -> 12x12) + bias + ReLU + 2x2 max pooling (-> 6x6), then the
// 32x6x6 features flattened to 1152 and a dense head to 10 class logits.
// Standard MLIR on tensors, weights as function arguments (filters FCHW).
//
// Compile it for this machine and run it with random inputs:
//
//   fuel-compile examples/convnet.mlir -o convnet.fuelx
//   fuel-run convnet.fuelx --input=random:1 --repeat=10 --report
//
// The flattening is a view of the pooled buffer, not a copy.
func.func @convnet(%x: tensor<8x3x32x32xf32> {fuel.residency = #fuel.device<cpu>},
                   %w1: tensor<16x3x5x5xf32> {fuel.residency = #fuel.device<cpu>},
                   %b1: tensor<16xf32> {fuel.residency = #fuel.device<cpu>},
                   %w2: tensor<32x16x3x3xf32> {fuel.residency = #fuel.device<cpu>},
                   %b2: tensor<32xf32> {fuel.residency = #fuel.device<cpu>},
                   %wd: tensor<1152x10xf32> {fuel.residency = #fuel.device<cpu>},
                   %bd: tensor<10xf32> {fuel.residency = #fuel.device<cpu>})
    -> (tensor<8x10xf32> {fuel.residency = #fuel.device<cpu>}) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<2x2xf32>

  // Stage 1: 3 -> 16 channels, 5x5 filters: 32x32 -> 28x28, pooled to 14x14.
  %e1 = tensor.empty() : tensor<8x16x28x28xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x16x28x28xf32>) -> tensor<8x16x28x28xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<8x3x32x32xf32>, tensor<16x3x5x5xf32>)
      outs(%f1 : tensor<8x16x28x28xf32>) -> tensor<8x16x28x28xf32>
  %r1 = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>,
                       affine_map<(n, c, h, w) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %b1 : tensor<8x16x28x28xf32>, tensor<16xf32>) outs(%e1 : tensor<8x16x28x28xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x16x28x28xf32>
  %ep1 = tensor.empty() : tensor<8x16x14x14xf32>
  %fp1 = linalg.fill ins(%ninf : f32) outs(%ep1 : tensor<8x16x14x14xf32>) -> tensor<8x16x14x14xf32>
  %p1 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r1, %window : tensor<8x16x28x28xf32>, tensor<2x2xf32>)
      outs(%fp1 : tensor<8x16x14x14xf32>) -> tensor<8x16x14x14xf32>

  // Stage 2: 16 -> 32 channels, 3x3 filters: 14x14 -> 12x12, pooled to 6x6.
  %e2 = tensor.empty() : tensor<8x32x12x12xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x32x12x12xf32>) -> tensor<8x32x12x12xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w2 : tensor<8x16x14x14xf32>, tensor<32x16x3x3xf32>)
      outs(%f2 : tensor<8x32x12x12xf32>) -> tensor<8x32x12x12xf32>
  %r2 = linalg.generic {
      indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>,
                       affine_map<(n, c, h, w) -> (n, c, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %b2 : tensor<8x32x12x12xf32>, tensor<32xf32>) outs(%e2 : tensor<8x32x12x12xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32x12x12xf32>
  %ep2 = tensor.empty() : tensor<8x32x6x6xf32>
  %fp2 = linalg.fill ins(%ninf : f32) outs(%ep2 : tensor<8x32x6x6xf32>) -> tensor<8x32x6x6xf32>
  %p2 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r2, %window : tensor<8x32x12x12xf32>, tensor<2x2xf32>)
      outs(%fp2 : tensor<8x32x6x6xf32>) -> tensor<8x32x6x6xf32>

  // Dense head: flatten (a view) and 1152 -> 10 with a bias.
  %flat = tensor.collapse_shape %p2 [[0], [1, 2, 3]] : tensor<8x32x6x6xf32> into tensor<8x1152xf32>
  %eo = tensor.empty() : tensor<8x10xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x10xf32>) -> tensor<8x10xf32>
  %d = linalg.matmul ins(%flat, %wd : tensor<8x1152xf32>, tensor<1152x10xf32>)
                     outs(%fo : tensor<8x10xf32>) -> tensor<8x10xf32>
  %logits = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%d, %bd : tensor<8x10xf32>, tensor<10xf32>) outs(%eo : tensor<8x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x10xf32>
  return %logits : tensor<8x10xf32>
}
