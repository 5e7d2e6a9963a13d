// RUN: fuel-opt %s --split-input-file --fuel-form-nodes | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-form-nodes | fuel-opt --split-input-file | FileCheck %s
// RUN: fuel-opt %s --split-input-file --fuel-form-nodes > %t.once
// RUN: fuel-opt %t.once --split-input-file --fuel-form-nodes > %t.twice
// RUN: diff %t.once %t.twice

// The last three RUN lines check that a second run changes nothing.

// Tests that linalg.matmul becomes a matmul node whose body clones the
// tensor.empty init, and that the empty left outside is erased.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: tensor<4x16xf32>, %[[B:.+]]: tensor<16x8xf32>)
// CHECK-NOT: tensor.empty
// CHECK: %[[N:.+]] = fuel.node 0 matmul (%[[A]], %[[B]]) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<4x16xf32>, %[[Y:.+]]: tensor<16x8xf32>):
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %[[M:.+]] = linalg.matmul ins(%[[X]], %[[Y]] : tensor<4x16xf32>, tensor<16x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT: fuel.yield %[[M]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[N]]
func.func @matmul(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>)
                     outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// Tests that an accumulator that is a real value (a function argument, a
// node's result) is an operand, and that a contraction generic of matmul
// shape is a matmul node.

#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>

// CHECK-LABEL: func.func @accumulate
// CHECK-SAME: (%[[A:.+]]: tensor<4x16xf32>, %[[B:.+]]: tensor<16x8xf32>, %[[C:.+]]: tensor<4x8xf32>)
// CHECK: %[[M:.+]] = fuel.node 0 matmul (%[[A]], %[[B]], %[[C]]) : (tensor<4x16xf32>, tensor<16x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%{{.+}}: tensor<4x16xf32>, %{{.+}}: tensor<16x8xf32>, %[[ACC:.+]]: tensor<4x8xf32>):
// CHECK-NEXT: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x16xf32>, tensor<16x8xf32>) outs(%[[ACC]] : tensor<4x8xf32>)
// CHECK: %[[G:.+]] = fuel.node 1 matmul (%[[A]], %[[B]], %[[M]])
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: return %[[M]], %[[G]]
func.func @accumulate(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>)
                     outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%m : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %m, %g : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Tests that linalg.batch_matmul becomes a batch_matmul node.

// CHECK-LABEL: func.func @batch_matmul
// CHECK: fuel.node 0 batch_matmul (%{{.+}}, %{{.+}}) : (tensor<2x4x16xf32>, tensor<2x16x8xf32>) -> tensor<2x4x8xf32> {
// CHECK: tensor.empty() : tensor<2x4x8xf32>
// CHECK-NEXT: linalg.batch_matmul
func.func @batch_matmul(%a: tensor<2x4x16xf32>, %b: tensor<2x16x8xf32>) -> tensor<2x4x8xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x4x16xf32>, tensor<2x16x8xf32>)
                           outs(%e : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %m : tensor<2x4x8xf32>
}

// -----

// Tests that linalg.conv_2d_nhwc_hwcf and its generic form become conv2d
// nodes.

#img = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>
#flt = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
#res = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @conv2d
// CHECK: fuel.node 0 conv2d (%{{.+}}, %{{.+}}) : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: fuel.node 1 conv2d (%{{.+}}, %{{.+}}) : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
// CHECK: linalg.generic
func.func @conv2d(%img: tensor<1x8x8x3xf32>, %flt: tensor<3x3x3x16xf32>)
    -> (tensor<1x6x6x16xf32>, tensor<1x6x6x16xf32>) {
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
      strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>)
      outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %g = linalg.generic {indexing_maps = [#img, #flt, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel",
                                         "reduction", "reduction", "reduction"]}
      ins(%img, %flt : tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>)
      outs(%e : tensor<1x6x6x16xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x6x6x16xf32>
  return %c, %g : tensor<1x6x6x16xf32>, tensor<1x6x6x16xf32>
}

// -----

// Tests that linalg.pooling_nhwc_max becomes a pool node. Its window input
// only gives the window's shape, so its tensor.empty is made inside the node
// like a destination instead of becoming an operand that would be moved.

// CHECK-LABEL: func.func @pool
// CHECK-SAME: (%[[IMG:.+]]: tensor<1x8x8x3xf32>)
// CHECK-NOT: tensor.empty
// CHECK: fuel.node 0 pool (%[[IMG]]) : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
// CHECK: tensor.empty() : tensor<1x4x4x3xf32>
// CHECK-NEXT: %[[WIN:.+]] = tensor.empty() : tensor<2x2xf32>
// CHECK-NEXT: linalg.pooling_nhwc_max {{.*}} ins(%{{.*}}, %[[WIN]] :
func.func @pool(%img: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x3xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>,
      strides = dense<2> : tensor<2xi64>}
      ins(%img, %win : tensor<1x8x8x3xf32>, tensor<2x2xf32>)
      outs(%e : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %p : tensor<1x4x4x3xf32>
}

// -----

// Tests that linalg.reduce and a generic with a reduction iterator become
// reduce nodes, with ids in program order.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @reduce
// CHECK: fuel.node 0 reduce (%{{.+}}) : (tensor<4x16xf32>) -> tensor<4xf32> {
// CHECK: linalg.reduce
// CHECK: fuel.node 1 reduce (%{{.+}}) : (tensor<4x16xf32>) -> tensor<4xf32> {
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
func.func @reduce(%a: tensor<4x16xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.reduce ins(%a : tensor<4x16xf32>) outs(%e : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %g = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x16xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests that linalg.softmax becomes a softmax node.

// CHECK-LABEL: func.func @softmax
// CHECK-NOT: tensor.empty
// CHECK: fuel.node 0 softmax (%{{.+}}) : (tensor<4x16xf32>) -> tensor<4x16xf32> {
// CHECK: tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT: linalg.softmax dimension(1)
func.func @softmax(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<4x16xf32>)
                                   outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}

// -----

// Tests that named elementwise ops, all-parallel generics with identity
// and broadcast maps (a dropped dimension, a unit dimension indexed by 0) and
// linalg.map become elementwise nodes, and that one tensor.empty used as the
// init of several nodes is cloned into each.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
#unit_row = affine_map<(d0, d1) -> (0, d1)>

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[C:.+]]: tensor<4x8xf32>, %[[V:.+]]: tensor<8xf32>, %[[U:.+]]: tensor<1x8xf32>)
// CHECK-NOT: tensor.empty
// CHECK: %[[ADD:.+]] = fuel.node 0 elementwise (%[[C]]) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK: tensor.empty
// CHECK-NEXT: linalg.add
// CHECK: %[[EXP:.+]] = fuel.node 1 elementwise (%[[ADD]]) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK: tensor.empty
// CHECK-NEXT: linalg.exp
// CHECK: %[[BC:.+]] = fuel.node 2 elementwise (%[[EXP]], %[[V]]) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK: tensor.empty
// CHECK-NEXT: linalg.generic
// CHECK: %[[NEG:.+]] = fuel.node 3 elementwise (%[[BC]]) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK: tensor.empty
// CHECK-NEXT: linalg.map { arith.negf }
// CHECK: fuel.node 4 elementwise (%[[NEG]], %[[U]]) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32> {
// CHECK: linalg.generic
func.func @elementwise(%c: tensor<4x8xf32>, %v: tensor<8xf32>, %u: tensor<1x8xf32>)
    -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %add = linalg.add ins(%c, %c : tensor<4x8xf32>, tensor<4x8xf32>)
                    outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %exp = linalg.exp ins(%add : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %bc = linalg.generic {indexing_maps = [#id2, #cols, #id2],
      iterator_types = ["parallel", "parallel"]}
      ins(%exp, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %neg = linalg.map { arith.negf } ins(%bc : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
  %unit = linalg.generic {indexing_maps = [#id2, #unit_row, #id2],
      iterator_types = ["parallel", "parallel"]}
      ins(%neg, %u : tensor<4x8xf32>, tensor<1x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %unit : tensor<4x8xf32>
}

// -----

// Tests that linalg.transpose becomes a transpose node.

// CHECK-LABEL: func.func @transpose
// CHECK: fuel.node 0 transpose (%{{.+}}) : (tensor<4x8xf32>) -> tensor<8x4xf32> {
// CHECK: linalg.transpose
func.func @transpose(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  return %t : tensor<8x4xf32>
}

// -----

// Tests that a contraction that is not matmul-shaped (linalg.matvec), a
// parallel generic with a permutation map and one reading row 0 of a longer
// dimension become generic nodes.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#perm = affine_map<(d0, d1) -> (d1, d0)>
#row0 = affine_map<(d0, d1) -> (0, d1)>

// CHECK-LABEL: func.func @generic
// CHECK: fuel.node 0 generic (%{{.+}}, %{{.+}}) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4xf32> {
// CHECK: linalg.matvec
// CHECK: fuel.node 1 generic (%{{.+}}) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK: linalg.generic
// CHECK: fuel.node 2 generic (%{{.+}}) : (tensor<3x8xf32>) -> tensor<8x8xf32> {
// CHECK: linalg.generic
func.func @generic(%a: tensor<4x16xf32>, %x: tensor<16xf32>, %sq: tensor<8x8xf32>,
                   %w: tensor<3x8xf32>) -> (tensor<4xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ev = tensor.empty() : tensor<4xf32>
  %mv = linalg.matvec ins(%a, %x : tensor<4x16xf32>, tensor<16xf32>)
                      outs(%ev : tensor<4xf32>) -> tensor<4xf32>
  %es = tensor.empty() : tensor<8x8xf32>
  %pg = linalg.generic {indexing_maps = [#perm, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<8x8xf32>) outs(%es : tensor<8x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  } -> tensor<8x8xf32>
  %rg = linalg.generic {indexing_maps = [#row0, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<3x8xf32>) outs(%es : tensor<8x8xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  } -> tensor<8x8xf32>
  return %mv, %pg, %rg : tensor<4xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Tests that the init chain tensor.empty + linalg.fill of a scalar constant
// is cloned into the node, constant first, and erased outside.

// CHECK-LABEL: func.func @fill_init
// CHECK-NOT: arith.constant
// CHECK-NOT: linalg.fill
// CHECK: fuel.node 0 matmul (%{{.+}}, %{{.+}}) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<4x16xf32>, %[[Y:.+]]: tensor<16x8xf32>):
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT: %[[M:.+]] = linalg.matmul ins(%[[X]], %[[Y]] : {{.*}}) outs(%[[F]] : tensor<4x8xf32>)
// CHECK-NEXT: fuel.yield %[[M]]
// CHECK-NOT: arith.constant
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @fill_init(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>)
                     outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// Tests that a fill of a scalar that is not a constant keeps its chain in
// the node and passes the scalar as an operand.

// CHECK-LABEL: func.func @fill_argument
// CHECK-SAME: (%[[A:.+]]: tensor<4x16xf32>, %[[B:.+]]: tensor<16x8xf32>, %[[S:.+]]: f32)
// CHECK: fuel.node 0 matmul (%[[S]], %[[A]], %[[B]]) : (f32, tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[T:.+]]: f32, %{{.+}}: tensor<4x16xf32>, %{{.+}}: tensor<16x8xf32>):
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: linalg.fill ins(%[[T]] : f32) outs(%[[E]] : tensor<4x8xf32>)
func.func @fill_argument(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %s: f32) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>)
                     outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// Tests that a splat constant is cloned into the node while a non-splat
// dense constant stays outside and becomes an operand.

// CHECK-LABEL: func.func @constants
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NOT: dense<1.000000e+00>
// CHECK: %[[DENSE:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NOT: dense<1.000000e+00>
// CHECK: %[[ADD:.+]] = fuel.node 0 elementwise (%[[X]]) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[P:.+]]: tensor<4xf32>):
// CHECK-NEXT: %[[SPLAT:.+]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: linalg.add ins(%[[P]], %[[SPLAT]] : tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: fuel.node 1 elementwise (%[[ADD]], %[[DENSE]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NOT: arith.constant
// CHECK: linalg.mul
func.func @constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %splat = arith.constant dense<1.0> : tensor<4xf32>
  %dense = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %add = linalg.add ins(%x, %splat : tensor<4xf32>, tensor<4xf32>)
                    outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %mul = linalg.mul ins(%add, %dense : tensor<4xf32>, tensor<4xf32>)
                    outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %mul : tensor<4xf32>
}

// -----

// Tests that a constant used by two nodes is cloned into both and erased
// outside.

// CHECK-LABEL: func.func @shared_constant
// CHECK-NOT: arith.constant
// CHECK: fuel.node 0 elementwise
// CHECK: arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK: linalg.add
// CHECK: fuel.node 1 elementwise
// CHECK: arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK: linalg.mul
// CHECK: }
// CHECK-NOT: arith.constant
// CHECK: return
func.func @shared_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %add = linalg.add ins(%x, %two : tensor<4xf32>, tensor<4xf32>)
                    outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %mul = linalg.mul ins(%add, %two : tensor<4xf32>, tensor<4xf32>)
                    outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %mul : tensor<4xf32>
}

// -----

// Tests that a constant also used by a host op stays outside for that op,
// while the node still clones it.

func.func private @consume(tensor<4xf32>)

// CHECK-LABEL: func.func @constant_host_use
// CHECK: %[[TWO:.+]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK: fuel.node 0 elementwise (%{{.+}}) : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK: arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK: linalg.add
// CHECK: call @consume(%[[TWO]])
func.func @constant_host_use(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %add = linalg.add ins(%x, %two : tensor<4xf32>, tensor<4xf32>)
                    outs(%e : tensor<4xf32>) -> tensor<4xf32>
  func.call @consume(%two) : (tensor<4xf32>) -> ()
  return %add : tensor<4xf32>
}

// -----

// Tests that views between nodes stay outside and that their results are
// the next node's operands.

// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[A:.+]]: tensor<8x16xf32>, %[[B:.+]]: tensor<16x8xf32>)
// CHECK: %[[S:.+]] = tensor.extract_slice %[[A]][0, 0] [4, 16] [1, 1]
// CHECK: %[[M:.+]] = fuel.node 0 matmul (%[[S]], %[[B]])
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[M]] {{\[\[}}0, 1]]
// CHECK: %[[X:.+]] = fuel.node 1 elementwise (%[[C]]) : (tensor<32xf32>) -> tensor<32xf32> {
// CHECK: linalg.exp
// CHECK: %[[R:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [4, 8]
// CHECK: fuel.node 2 transpose (%[[R]]) : (tensor<4x8xf32>) -> tensor<8x4xf32> {
func.func @views(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x4xf32> {
  %s = tensor.extract_slice %a[0, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %m = linalg.matmul ins(%s, %b : tensor<4x16xf32>, tensor<16x8xf32>)
                     outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = tensor.collapse_shape %m [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e1 = tensor.empty() : tensor<32xf32>
  %x = linalg.exp ins(%c : tensor<32xf32>) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  %r = tensor.expand_shape %x [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%r : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) permutation = [1, 0]
  return %t : tensor<8x4xf32>
}

// -----

// Tests that host ops between nodes (a call to an external function,
// tensor.concat, tensor.insert_slice) stay outside, and that their results
// are the next node's operands.

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @host_ops
// CHECK: %[[N0:.+]] = fuel.node 0 elementwise
// CHECK: linalg.exp
// CHECK: %[[CALL:.+]] = call @external(%[[N0]])
// CHECK: %[[CAT:.+]] = tensor.concat dim(0) %[[CALL]], %[[N0]]
// CHECK: %[[N1:.+]] = fuel.node 1 elementwise (%[[CAT]]) : (tensor<8xf32>) -> tensor<8xf32> {
// CHECK: linalg.negf
// CHECK: %[[INS:.+]] = tensor.insert_slice %[[CALL]] into %[[N1]][0] [4] [1]
// CHECK: fuel.node 2 elementwise (%[[INS]]) : (tensor<8xf32>) -> tensor<8xf32> {
// CHECK: linalg.abs
func.func @host_ops(%x: tensor<4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %h = func.call @external(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = tensor.concat dim(0) %h, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %n = linalg.negf ins(%c : tensor<8xf32>) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %i = tensor.insert_slice %h into %n[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %b = linalg.abs ins(%i : tensor<8xf32>) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// Tests that scalars a payload captures from outside are cloned into the
// node when constant and passed as operands otherwise.

#id1 = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @capture
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[S:.+]]: f32)
// CHECK-NOT: arith.constant
// CHECK: fuel.node 0 elementwise (%[[X]], %[[S]]) : (tensor<4xf32>, f32) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[P:.+]]: tensor<4xf32>, %[[T:.+]]: f32):
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[P]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[MUL:.+]] = arith.mulf %[[IN]], %[[TWO]] : f32
// CHECK-NEXT: arith.addf %[[MUL]], %[[T]] : f32
func.func @capture(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %two : f32
    %a = arith.addf %m, %s : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// Tests that fuel.pin, fuel.destructive and fuel.coupling on an ingress op
// become the node's pin, destructive and coupling clauses and leave the op.

// CHECK-LABEL: func.func @annotations
// CHECK: fuel.node 0 elementwise (%{{.+}}) : (tensor<4xf32>) -> tensor<4xf32> pin cuda:0 destructive {
// CHECK-NOT: fuel.pin
// CHECK-NOT: fuel.destructive
// CHECK: linalg.exp ins
// CHECK: fuel.node 1 elementwise (%{{.+}}) : (tensor<4xf32>) -> tensor<4xf32> coupling [#fuel.coupling<on = cpu, node = 0, backend = cuda, delta_ns = -7>] {
// CHECK-NOT: fuel.coupling
// CHECK: linalg.negf ins
// CHECK: fuel.node 2 elementwise (%{{.+}}) : (tensor<4xf32>) -> tensor<4xf32> pin cpu {
func.func @annotations(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp {fuel.pin = #fuel.device<cuda:0>, fuel.destructive}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = linalg.negf {fuel.coupling = [#fuel.coupling<on = cpu, node = 0, backend = cuda,
      delta_ns = -7>]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c = linalg.abs {fuel.pin = #fuel.device<cpu>}
      ins(%b : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// Tests that an existing node keeps its id and that new nodes take ids after
// the largest one, in program order.

// CHECK-LABEL: func.func @existing
// CHECK: %[[A:.+]] = fuel.node 8 elementwise
// CHECK: linalg.exp
// CHECK: %[[N:.+]] = fuel.node 7 elementwise (%[[A]])
// CHECK: linalg.negf
// CHECK: fuel.node 9 elementwise (%[[N]])
// CHECK: linalg.abs
func.func @existing(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %n = fuel.node 7 elementwise (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%p: tensor<4xf32>):
    %q = tensor.empty() : tensor<4xf32>
    %r = linalg.negf ins(%p : tensor<4xf32>) outs(%q : tensor<4xf32>) -> tensor<4xf32>
    fuel.yield %r : tensor<4xf32>
  }
  %b = linalg.abs ins(%n : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

// Tests that a linalg.fill whose result is used by anything but an init
// (here returned) is an elementwise node of its own.

// CHECK-LABEL: func.func @fill_result
// CHECK-NOT: linalg.fill
// CHECK: %[[F:.+]] = fuel.node 0 elementwise () : () -> tensor<4xf32> {
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[R:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: fuel.yield %[[R]]
// CHECK: return %[[F]]
func.func @fill_result() -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}

// -----

// Tests that node ids are unique per function: each function starts at 0.

// CHECK-LABEL: func.func @first
// CHECK: fuel.node 0 elementwise
// CHECK: fuel.node 1 elementwise
// CHECK-LABEL: func.func @second
// CHECK: fuel.node 0 elementwise
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// tensor.pad and tensor.generate carry a scalar body, not control flow: they
// stay host ops (the lowering compiles them as CPU kernels) and the node
// reading them forms as usual.
// CHECK-LABEL: func.func @host_regions
// CHECK: %[[P:.+]] = tensor.pad
// CHECK: %[[G:.+]] = tensor.generate
// CHECK: fuel.node 0 elementwise (%[[P]], %[[G]])
func.func @host_regions(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %c = arith.constant 1.0 : f32
  %p = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<4x3xf32>
  %g = tensor.generate {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %t = arith.index_cast %s : index to i32
    %f = arith.sitofp %t : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.add ins(%p, %g : tensor<4x3xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
