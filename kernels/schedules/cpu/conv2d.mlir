// CPU schedule for conv2d kernels (docs/CPU-CODEGEN.md, "Schedule files" and
// "Schedules per op kind"). Sequences @avx2, @avx512, @generic; the root
// argument is the kernel func.func.
//
// 2-D convolutions (linalg.conv_2d_nchw_fchw, linalg.conv_2d_nhwc_hwcf).
// Workgroups: (n, f) for NCHW, (n, oh) for NHWC, the fill fused. Inside: oh
// and kh by 1; NCHW tiles ow and c by V, NHWC ow by 4, f and c by V, each
// peeled innermost first; the 2-D convolution is decomposed to 1-D and
// vectorized by the convolution vectorizer.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @conv2d_is_nchw(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.operation_name %op ["linalg.conv_2d_nchw_fchw"] : !transform.any_op
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @conv2d_is_nhwc(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.operation_name %op ["linalg.conv_2d_nhwc_hwcf"] : !transform.any_op
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @conv2d_nchw(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
    transform.yield
  }
  transform.named_sequence @conv2d_nhwc(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @conv2d_impl(%root: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %r1 = transform.foreach_match in %root, %v @conv2d_is_nchw -> @conv2d_nchw, @conv2d_is_nhwc -> @conv2d_nhwc : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    // The result is written in place: a tensor.empty that becomes the
    // kernel's output is replaced by the output binding.
    transform.bufferization.eliminate_empty_tensors %r1 : !transform.any_op
    transform.apply_patterns to %r1 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %convs = transform.structured.match ops{["linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf"]} in %r1 : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose %convs : (!transform.any_op) -> !transform.any_op
    %ops = transform.structured.match interface{LinalgOp} in %r1 : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops {vectorize_nd_extract} : !transform.any_op
    transform.include @conv2d_lower_vectors failures(propagate) (%r1) : (!transform.any_op) -> ()
    transform.yield
  }
  transform.named_sequence @avx2(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @conv2d_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @avx512(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @conv2d_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @generic(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @conv2d_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
