// One pre-norm transformer block: sequence 128, width 256, 4 heads of 64,
// feed-forward 1024.
//
//   h = x + Wo · attention(LN1(x))      y = h + W2 · gelu(W1 · LN2(h) + b1) + b2
//
// Layer norm is written as linalg generics (two row reductions and two
// elementwise ops, eps 1e-5), attention as batch matmuls over the heads
// (expand_shape views + transposes), the softmax as linalg.softmax and gelu
// in its tanh form (math.tanh). Standard MLIR on tensors, weights as
// function arguments.
//
// Compile it for this machine and run it with random inputs:
//
//   fuel-compile examples/transformer.mlir -o transformer.fuelx
//   fuel-run transformer.fuelx --input=random:1 --repeat=10 --report
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
func.func @transformer(
    %x: tensor<128x256xf32> {fuel.residency = #fuel.device<cpu>},
    %g1: tensor<256xf32> {fuel.residency = #fuel.device<cpu>},
    %be1: tensor<256xf32> {fuel.residency = #fuel.device<cpu>},
    %wq: tensor<256x256xf32> {fuel.residency = #fuel.device<cpu>},
    %wk: tensor<256x256xf32> {fuel.residency = #fuel.device<cpu>},
    %wv: tensor<256x256xf32> {fuel.residency = #fuel.device<cpu>},
    %wo: tensor<256x256xf32> {fuel.residency = #fuel.device<cpu>},
    %g2: tensor<256xf32> {fuel.residency = #fuel.device<cpu>},
    %be2: tensor<256xf32> {fuel.residency = #fuel.device<cpu>},
    %w1: tensor<256x1024xf32> {fuel.residency = #fuel.device<cpu>},
    %b1: tensor<1024xf32> {fuel.residency = #fuel.device<cpu>},
    %w2: tensor<1024x256xf32> {fuel.residency = #fuel.device<cpu>},
    %b2: tensor<256xf32> {fuel.residency = #fuel.device<cpu>})
    -> (tensor<128x256xf32> {fuel.residency = #fuel.device<cpu>}) {
  %zero = arith.constant 0.0 : f32
  %width = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %erow = tensor.empty() : tensor<128xf32>
  %zrow = linalg.fill ins(%zero : f32) outs(%erow : tensor<128xf32>) -> tensor<128xf32>
  %e = tensor.empty() : tensor<128x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>

  // LN1: row sums, centring, sums of squares, normalisation.
  %s1 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x256xf32>) outs(%zrow : tensor<128xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %d1 = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s1 : tensor<128x256xf32>, tensor<128xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %width : f32
    %r = arith.subf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  %q1 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%d1 : tensor<128x256xf32>) outs(%zrow : tensor<128xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %n1 = linalg.generic {indexing_maps = [#id2, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%d1, %q1, %g1, %be1 : tensor<128x256xf32>, tensor<128xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%e : tensor<128x256xf32>) {
  ^bb0(%v: f32, %q: f32, %g: f32, %b: f32, %o: f32):
    %var = arith.divf %q, %width : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %nv = arith.mulf %v, %rs : f32
    %sc = arith.mulf %nv, %g : f32
    %r = arith.addf %sc, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>

  // Projections and heads: [128, 256] -> [4, 128, 64] (keys [4, 64, 128]).
  %q = linalg.matmul ins(%n1, %wq : tensor<128x256xf32>, tensor<256x256xf32>)
                     outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
  %k = linalg.matmul ins(%n1, %wk : tensor<128x256xf32>, tensor<256x256xf32>)
                     outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
  %v = linalg.matmul ins(%n1, %wv : tensor<128x256xf32>, tensor<256x256xf32>)
                     outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
  %qs = tensor.expand_shape %q [[0], [1, 2]] output_shape [128, 4, 64] : tensor<128x256xf32> into tensor<128x4x64xf32>
  %ks = tensor.expand_shape %k [[0], [1, 2]] output_shape [128, 4, 64] : tensor<128x256xf32> into tensor<128x4x64xf32>
  %vs = tensor.expand_shape %v [[0], [1, 2]] output_shape [128, 4, 64] : tensor<128x256xf32> into tensor<128x4x64xf32>
  %eh = tensor.empty() : tensor<4x128x64xf32>
  %ekt = tensor.empty() : tensor<4x64x128xf32>
  %qh = linalg.transpose ins(%qs : tensor<128x4x64xf32>) outs(%eh : tensor<4x128x64xf32>) permutation = [1, 0, 2]
  %kt = linalg.transpose ins(%ks : tensor<128x4x64xf32>) outs(%ekt : tensor<4x64x128xf32>) permutation = [1, 2, 0]
  %vh = linalg.transpose ins(%vs : tensor<128x4x64xf32>) outs(%eh : tensor<4x128x64xf32>) permutation = [1, 0, 2]

  // Scaled dot-product attention per head.
  %escore = tensor.empty() : tensor<4x128x128xf32>
  %zscore = linalg.fill ins(%zero : f32) outs(%escore : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %scores = linalg.batch_matmul ins(%qh, %kt : tensor<4x128x64xf32>, tensor<4x64x128xf32>)
                                outs(%zscore : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %scale = arith.constant 0.125 : f32
  %scaled = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : tensor<4x128x128xf32>) outs(%escore : tensor<4x128x128xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.mulf %s, %scale : f32
    linalg.yield %r : f32
  } -> tensor<4x128x128xf32>
  %probs = linalg.softmax dimension(2) ins(%scaled : tensor<4x128x128xf32>)
                                       outs(%escore : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %zh = linalg.fill ins(%zero : f32) outs(%eh : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %ctx = linalg.batch_matmul ins(%probs, %vh : tensor<4x128x128xf32>, tensor<4x128x64xf32>)
                             outs(%zh : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %es = tensor.empty() : tensor<128x4x64xf32>
  %ctxs = linalg.transpose ins(%ctx : tensor<4x128x64xf32>) outs(%es : tensor<128x4x64xf32>) permutation = [1, 0, 2]
  %ctxf = tensor.collapse_shape %ctxs [[0], [1, 2]] : tensor<128x4x64xf32> into tensor<128x256xf32>
  %att = linalg.matmul ins(%ctxf, %wo : tensor<128x256xf32>, tensor<256x256xf32>)
                       outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %att : tensor<128x256xf32>, tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>

  // LN2.
  %s2 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<128x256xf32>) outs(%zrow : tensor<128xf32>) {
  ^bb0(%v2: f32, %acc: f32):
    %r = arith.addf %acc, %v2 : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %d2 = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h, %s2 : tensor<128x256xf32>, tensor<128xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%v2: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %width : f32
    %r = arith.subf %v2, %m : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  %q2 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%d2 : tensor<128x256xf32>) outs(%zrow : tensor<128xf32>) {
  ^bb0(%v2: f32, %acc: f32):
    %sq = arith.mulf %v2, %v2 : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %n2 = linalg.generic {indexing_maps = [#id2, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%d2, %q2, %g2, %be2 : tensor<128x256xf32>, tensor<128xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%e : tensor<128x256xf32>) {
  ^bb0(%v2: f32, %qq: f32, %g: f32, %b: f32, %o: f32):
    %var = arith.divf %qq, %width : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %nv = arith.mulf %v2, %rs : f32
    %sc = arith.mulf %nv, %g : f32
    %r = arith.addf %sc, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>

  // Feed-forward: 256 -> 1024 (bias + gelu) -> 256 (bias), residual.
  %eff = tensor.empty() : tensor<128x1024xf32>
  %zff = linalg.fill ins(%zero : f32) outs(%eff : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %f1 = linalg.matmul ins(%n2, %w1 : tensor<128x256xf32>, tensor<256x1024xf32>)
                      outs(%zff : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.7978845608 : f32
  %a3 = arith.constant 0.044715 : f32
  %gl = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%f1, %b1 : tensor<128x1024xf32>, tensor<1024xf32>) outs(%eff : tensor<128x1024xf32>) {
  ^bb0(%u0: f32, %b: f32, %o: f32):
    %u = arith.addf %u0, %b : f32
    %u2 = arith.mulf %u, %u : f32
    %u3 = arith.mulf %u2, %u : f32
    %t0 = arith.mulf %u3, %a3 : f32
    %t1 = arith.addf %u, %t0 : f32
    %t2 = arith.mulf %t1, %c : f32
    %t = math.tanh %t2 : f32
    %p = arith.addf %t, %one : f32
    %hu = arith.mulf %u, %half : f32
    %r = arith.mulf %hu, %p : f32
    linalg.yield %r : f32
  } -> tensor<128x1024xf32>
  %f2 = linalg.matmul ins(%gl, %w2 : tensor<128x1024xf32>, tensor<1024x256xf32>)
                      outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
  %y = linalg.generic {indexing_maps = [#id2, #col, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%f2, %b2, %h : tensor<128x256xf32>, tensor<256xf32>, tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%a: f32, %b: f32, %r0: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.addf %s, %r0 : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  return %y : tensor<128x256xf32>
}
