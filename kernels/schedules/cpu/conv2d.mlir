// CPU schedule for conv2d kernels (docs/CPU-CODEGEN.md, "Schedule files" and
// "Schedules per op kind"). Sequences @avx2, @avx512, @generic; the root
// argument is the kernel func.func.
//
// 2-D convolutions (linalg.conv_2d_nchw_fchw, linalg.conv_2d_nhwc_hwcf).
//
// Unit strides and dilations: a direct convolution in register tiles.
// Workgroups are (n, oh), one output row each, the fill fused. Inside, the
// register tile is M x W: M filters x W output columns for NCHW (lanes along
// the output row), M output columns x W filters for NHWC (lanes along the
// filters); its reduction loops (c, kh, kw or kh, kw, c) run by 1 inside it.
// Each step is an outer product: W lanes of the input row (NCHW) or filter
// row (NHWC) times M broadcast scalars, accumulated in M x W/V vector
// registers hoisted out of the reduction loops. The tile loops are peeled;
// a lane remainder is split again by V, so every lane tile is a multiple of
// V or shorter than V. M x W: NCHW 8 x 8 on AVX2 (8 ymm accumulators, also
// in a lane remainder), 8 x 32 on AVX-512 (16 zmm), 8 x 4 generic (8 xmm);
// NHWC 4 x 16 on AVX2, 8 x 32 on AVX-512, 4 x 8 generic.
//
// Other strides or dilations: workgroups (n, f) for NCHW, (n, oh) for NHWC,
// the fill fused. Inside: oh and kh by 1; NCHW tiles ow and c by V, NHWC ow
// by 4, f and c by V, each peeled innermost first; the 2-D convolution is
// decomposed to 1-D and vectorized by the convolution vectorizer.
module attributes {transform.with_named_sequence} {
  // Unit strides and dilations (every window offset a unit step along the
  // image) take the register-tile path.
  transform.named_sequence @conv2d_unit_window(%op: !transform.any_op {transform.readonly}) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %b, %oi, %oc, %fl, %ic, %d, %st, %di = transform.match.structured.classify_convolution_dims %s : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      %one = transform.param.constant 1 : i64 -> !transform.param<i64>
      %ones = transform.merge_handles %one, %one : !transform.param<i64>
      transform.match.param.cmpi eq %st, %ones : !transform.param<i64>
      transform.match.param.cmpi eq %di, %ones : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield
  }
  transform.named_sequence @conv2d_is_nchw_unit(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    transform.match.operation_name %op ["linalg.conv_2d_nchw_fchw"] : !transform.any_op
    transform.include @conv2d_unit_window failures(propagate) (%op) : (!transform.any_op) -> ()
    transform.yield %op, %v, %m, %w, %mh, %wh : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @conv2d_is_nhwc_unit(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    transform.match.operation_name %op ["linalg.conv_2d_nhwc_hwcf"] : !transform.any_op
    transform.include @conv2d_unit_window failures(propagate) (%op) : (!transform.any_op) -> ()
    transform.yield %op, %v, %m, %w, %mh, %wh : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  // Peels the lane loop of a register tile (tiled by 2 or more vectors) and
  // splits its remainder again by one vector, peeled: every lane tile is then
  // a multiple of the vector width or shorter than one vector (a width of
  // 12 on AVX2, say, would be rebuilt lane by lane by LLVM's legalization).
  transform.named_sequence @conv2d_peel_lanes(%lanes: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) {
    %pl = transform.cast %lanes : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %pl : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%l: !transform.op<"scf.for">):
      %main, %rem = transform.loop.peel %l {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
      // (A remainder of one iteration may have been folded away: foreach.)
      transform.foreach %rem : !transform.any_op {
      ^bb1(%r: !transform.any_op):
        %rc = transform.structured.match ops{["linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf"]} in %r : (!transform.any_op) -> !transform.any_op
        %t, %l2 = transform.structured.fuse %rc tile_sizes [0, 0, 0, %v] {apply_cleanup} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
        %pl2 = transform.cast %l2 : !transform.any_op to !transform.op<"scf.for">
        %main2, %rem2 = transform.loop.peel %pl2 {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
      }
    }
    transform.yield
  }
  // Peels a loop of the register tile whose remainder needs no split.
  transform.named_sequence @conv2d_peel(%loop: !transform.any_op {transform.readonly}) {
    %pl = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %pl : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%l: !transform.op<"scf.for">):
      transform.loop.peel %l {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  // The reduction loops of every register tile, by 1 (in program order: the
  // result does not depend on the workgroup split or the thread count).
  transform.named_sequence @conv2d_tile_reductions(%f: !transform.any_op {transform.readonly}) {
    %convs = transform.structured.match ops{["linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf"]} in %f : (!transform.any_op) -> !transform.any_op
    %t, %lr:3 = transform.structured.tile_using_for %convs tile_sizes [0, 0, 0, 0, 1, 1, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
  // NCHW (n, f, oh, ow, c, kh, kw), unit window steps: workgroups are (n,
  // oh), one output row of every filter; the register tile is %m filters x
  // %w output columns (the fill fused), the reduction loops c, kh, kw by 1
  // inside it; ow then f peeled.
  transform.named_sequence @conv2d_nchw_unit(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) {
    %f = transform.get_parent_op %op {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    %wg, %forall = transform.structured.fuse %op tile_sizes [1, 0, 1] {apply_cleanup, use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %lf, %low = transform.structured.fuse %wg tile_sizes [0, %m, 0, %w] {apply_cleanup} : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @conv2d_peel_lanes failures(propagate) (%low, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.include @conv2d_peel failures(propagate) (%lf) : (!transform.any_op) -> ()
    transform.include @conv2d_tile_reductions failures(propagate) (%f) : (!transform.any_op) -> ()
    transform.include @conv2d_outer_products failures(propagate) (%f) : (!transform.any_op) -> ()
    transform.yield
  }
  // NHWC (n, oh, ow, f, kh, kw, c), unit window steps: workgroups are (n,
  // oh); the register tile is %mh output columns x %wh filters (the fill
  // fused), the reduction loops kh, kw, c by 1 inside it; f then ow peeled.
  transform.named_sequence @conv2d_nhwc_unit(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) {
    %f = transform.get_parent_op %op {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    %wg, %forall = transform.structured.fuse %op tile_sizes [1, 1] {apply_cleanup, use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %low, %lf = transform.structured.fuse %wg tile_sizes [0, 0, %mh, %wh] {apply_cleanup} : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @conv2d_peel_lanes failures(propagate) (%lf, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.include @conv2d_peel failures(propagate) (%low) : (!transform.any_op) -> ()
    transform.include @conv2d_tile_reductions failures(propagate) (%f) : (!transform.any_op) -> ()
    transform.include @conv2d_outer_products failures(propagate) (%f) : (!transform.any_op) -> ()
    transform.yield
  }
  // A register tile whose reduction loops are all unit: the tile is
  // generalized and its unit dimensions dropped, which leaves an outer
  // product out[i, j] += a[i] * b[j] (one operand broadcast along the lanes,
  // the other a row of lanes); the accumulator is hoisted out of the
  // reduction loops into registers and the multiply-add may contract into
  // an FMA.
  transform.named_sequence @conv2d_outer_products(%f: !transform.any_op {transform.readonly}) {
    transform.bufferization.eliminate_empty_tensors %f : !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.fold_tensor_empty
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %convs = transform.structured.match ops{["linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf"]} in %f : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.generalize %convs : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %ops = transform.structured.match interface{LinalgOp} in %f : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops : !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %f : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    %ar = transform.structured.match ops{["arith.mulf", "arith.addf"]} in %f : (!transform.any_op) -> !transform.any_op
    %contract = transform.param.constant #arith.fastmath<contract> -> !transform.any_param
    transform.annotate %ar "fastmath" = %contract : !transform.any_op, !transform.any_param
    // The operand read along the non-lane dimension stays a transfer_read
    // with a broadcast permutation map: unrolled per row by the lowering, it
    // is a scalar load and a splat (transfer_permutation_patterns would make
    // it a transposed broadcast, which LLVM rebuilds lane by lane for widths
    // that are not a power of two).
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
  transform.named_sequence @conv2d_is_nchw_strided(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    transform.match.operation_name %op ["linalg.conv_2d_nchw_fchw"] : !transform.any_op
    transform.yield %op, %v, %m, %w, %mh, %wh : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @conv2d_is_nhwc_strided(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    transform.match.operation_name %op ["linalg.conv_2d_nhwc_hwcf"] : !transform.any_op
    transform.yield %op, %v, %m, %w, %mh, %wh : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @conv2d_nchw_strided(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) {
    %f = transform.get_parent_op %op {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    %wg, %forall = transform.structured.fuse %op tile_sizes [1, 1] {apply_cleanup, use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill = transform.structured.match ops{["linalg.fill"]} in %forall : (!transform.any_op) -> !transform.any_op
    %ft, %fl:4 = transform.structured.tile_using_for %fill tile_sizes [1, 1, 1, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %fp = transform.cast %fl#3 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %fp : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    %t, %l:6 = transform.structured.tile_using_for %wg tile_sizes [1, 1, 1, %v, %v, 1, 0] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %p4 = transform.cast %l#4 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %p4 : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    %p3 = transform.cast %l#3 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %p3 : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.include @conv2d_decomposed failures(propagate) (%f) : (!transform.any_op) -> ()
    transform.yield
  }
  transform.named_sequence @conv2d_nhwc_strided(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) {
    %f = transform.get_parent_op %op {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    %wg, %forall = transform.structured.fuse %op tile_sizes [1, 1] {apply_cleanup, use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill = transform.structured.match ops{["linalg.fill"]} in %forall : (!transform.any_op) -> !transform.any_op
    %ft, %fl:4 = transform.structured.tile_using_for %fill tile_sizes [1, 1, 1, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %fp = transform.cast %fl#3 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %fp : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    %t, %l:6 = transform.structured.tile_using_for %wg tile_sizes [1, 1, 4, %v, 1, 0, %v] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %p5 = transform.cast %l#5 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %p5 : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    %p3 = transform.cast %l#3 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %p3 : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    %p2 = transform.cast %l#2 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %p2 : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.include @conv2d_decomposed failures(propagate) (%f) : (!transform.any_op) -> ()
    transform.yield
  }
  // Vector lowering in stages (one pattern set at a time: together, the
  // multi-reduction, broadcast and shape_cast rewrites do not converge).
  transform.named_sequence @conv2d_lower_vectors(%f: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.reduction_to_contract
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_transpose lowering_strategy = "shuffle_1d"
    } : !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
  // The strided path: the tiled 2-D convolution is decomposed to 1-D
  // convolutions, which the convolution vectorizer handles.
  transform.named_sequence @conv2d_decomposed(%f: !transform.any_op {transform.readonly}) {
    // The result is written in place: a tensor.empty that becomes the
    // kernel's output is replaced by the output binding.
    transform.bufferization.eliminate_empty_tensors %f : !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %convs = transform.structured.match ops{["linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf"]} in %f : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose %convs : (!transform.any_op) -> !transform.any_op
    %ops = transform.structured.match interface{LinalgOp} in %f : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops {vectorize_nd_extract} : !transform.any_op
    transform.include @conv2d_lower_vectors failures(propagate) (%f) : (!transform.any_op) -> ()
    transform.yield
  }
  transform.named_sequence @conv2d_impl(%root: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}, %m: !transform.param<i64> {transform.readonly}, %w: !transform.param<i64> {transform.readonly}, %mh: !transform.param<i64> {transform.readonly}, %wh: !transform.param<i64> {transform.readonly}) {
    %r1 = transform.foreach_match in %root, %v, %m, %w, %mh, %wh @conv2d_is_nchw_unit -> @conv2d_nchw_unit, @conv2d_is_nhwc_unit -> @conv2d_nhwc_unit, @conv2d_is_nchw_strided -> @conv2d_nchw_strided, @conv2d_is_nhwc_strided -> @conv2d_nhwc_strided : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  // AVX2 (16 ymm), 8 accumulators: NCHW 8 x 8 register tiles (one vector of
  // lanes per row: a remainder of the lanes keeps 8 accumulators), NHWC
  // 4 x 16.
  transform.named_sequence @avx2(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 8 : i64 -> !transform.param<i64>
    %m = transform.param.constant 8 : i64 -> !transform.param<i64>
    %w = transform.param.constant 8 : i64 -> !transform.param<i64>
    %mh = transform.param.constant 4 : i64 -> !transform.param<i64>
    %wh = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @conv2d_impl failures(propagate) (%root, %v, %m, %w, %mh, %wh) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // AVX-512 (32 zmm): 8 x 32 register tiles, 16 zmm accumulators (NCHW and
  // NHWC).
  transform.named_sequence @avx512(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 16 : i64 -> !transform.param<i64>
    %m = transform.param.constant 8 : i64 -> !transform.param<i64>
    %w = transform.param.constant 32 : i64 -> !transform.param<i64>
    %mh = transform.param.constant 8 : i64 -> !transform.param<i64>
    %wh = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @conv2d_impl failures(propagate) (%root, %v, %m, %w, %mh, %wh) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // Baseline x86-64 (16 xmm), 8 accumulators: NCHW 8 x 4 register tiles,
  // NHWC 4 x 8.
  transform.named_sequence @generic(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 4 : i64 -> !transform.param<i64>
    %m = transform.param.constant 8 : i64 -> !transform.param<i64>
    %w = transform.param.constant 4 : i64 -> !transform.param<i64>
    %mh = transform.param.constant 4 : i64 -> !transform.param<i64>
    %wh = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @conv2d_impl failures(propagate) (%root, %v, %m, %w, %mh, %wh) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
