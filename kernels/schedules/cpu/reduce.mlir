// CPU schedule for reduce kernels (docs/CPU-CODEGEN.md, "Schedule files" and
// "Schedules per op kind"). Sequences @avx2, @avx512, @generic; the root
// argument is the kernel func.func.
//
// Reductions (linalg.reduce, generics with reduction loops), any rank.
// Workgroups: the result op's outermost loop, when parallel, one index per
// workgroup (an scf.forall of extent(0)), its producers (the fill) fused.
// Inside: every loop but the innermost tiled by 1 (reduction loops too: a
// sequential loop in a fixed order, so every result is bit-identical for any
// thread count), the innermost by the vector width V (8 avx2, 16 avx512, 4
// generic) and peeled (the remainder is one static tile narrower than V).
module attributes {transform.with_named_sequence} {

  // Workgroups: the outermost loop of the kernel's result op, when parallel,
  // becomes an scf.forall of one row per workgroup; its producers are fused.
  transform.named_sequence @reduce_outer_parallel(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.dim %s[0] {parallel} : !transform.any_op
      %u = transform.match.structured.result %s[0] {single} : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %u ["bufferization.materialize_in_destination"] : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @reduce_split(%op: !transform.any_op {transform.consumed}) {
    %t, %l = transform.structured.fuse %op tile_sizes [1] {apply_cleanup, use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // Rank 1: every loop but the innermost by 1, the innermost by the vector
  // width; the innermost loop is peeled so every tile is static.
  transform.named_sequence @reduce_is_rank1(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @reduce_tile_rank1(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %t, %l:1 = transform.structured.tile_using_for %op tile_sizes [%v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %in = transform.cast %l#0 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  // Rank 2: every loop but the innermost by 1, the innermost by the vector
  // width; the innermost loop is peeled so every tile is static.
  transform.named_sequence @reduce_is_rank2(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @reduce_tile_rank2(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [1, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %l#1 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  // Rank 3: every loop but the innermost by 1, the innermost by the vector
  // width; the innermost loop is peeled so every tile is static.
  transform.named_sequence @reduce_is_rank3(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @reduce_tile_rank3(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %t, %l:3 = transform.structured.tile_using_for %op tile_sizes [1, 1, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %l#2 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  // Rank 4: every loop but the innermost by 1, the innermost by the vector
  // width; the innermost loop is peeled so every tile is static.
  transform.named_sequence @reduce_is_rank4(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 4 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @reduce_tile_rank4(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %t, %l:4 = transform.structured.tile_using_for %op tile_sizes [1, 1, 1, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %l#3 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  // Rank 5: every loop but the innermost by 1, the innermost by the vector
  // width; the innermost loop is peeled so every tile is static.
  transform.named_sequence @reduce_is_rank5(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 5 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @reduce_tile_rank5(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %t, %l:5 = transform.structured.tile_using_for %op tile_sizes [1, 1, 1, 1, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %l#4 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  // Rank 6: every loop but the innermost by 1, the innermost by the vector
  // width; the innermost loop is peeled so every tile is static.
  transform.named_sequence @reduce_is_rank6(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 6 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @reduce_tile_rank6(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %t, %l:6 = transform.structured.tile_using_for %op tile_sizes [1, 1, 1, 1, 1, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %l#5 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  // Vector lowering in stages (one pattern set at a time: together, the
  // multi-reduction, broadcast and shape_cast rewrites do not converge).
  // Row reductions: an op whose innermost loop is a reduction (rank 1 to 3)
  // accumulates column tiles of T elements (T = %v: 64 on avx2 and avx512,
  // 32 generic) into T partial results (tile_reduction_using_for: a neutral
  // fill, one elementwise accumulate per tile, a merge reduction of the T
  // lanes once per row), so that no step waits on the previous one's
  // horizontal add; its outer loops are tiled by 1 first and the tile loop
  // is peeled. Rank tiling below then tiles the merge and the tiles by T.
  transform.named_sequence @reduce_is_inner_reduction(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.dim %s[-1] {reduction} : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @reduce_is_inner_reduction_rank1_64(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %ct = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %v, %ct : !transform.param<i64>
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    %m = transform.include @reduce_is_inner_reduction failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %m : !transform.any_op
  }
  transform.named_sequence @reduce_tile_inner_reduction_rank1_64(%op: !transform.any_op {transform.consumed}) {
    %fill, %part, %merge, %loop = transform.structured.tile_reduction_using_for %op by tile_sizes = [64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  transform.named_sequence @reduce_is_inner_reduction_rank2_64(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %ct = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %v, %ct : !transform.param<i64>
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    %m = transform.include @reduce_is_inner_reduction failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %m : !transform.any_op
  }
  transform.named_sequence @reduce_tile_inner_reduction_rank2_64(%op: !transform.any_op {transform.consumed}) {
    %t, %l:1 = transform.structured.tile_using_for %op tile_sizes [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill, %part, %merge, %loop = transform.structured.tile_reduction_using_for %t by tile_sizes = [0, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  transform.named_sequence @reduce_is_inner_reduction_rank3_64(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %ct = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %v, %ct : !transform.param<i64>
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    %m = transform.include @reduce_is_inner_reduction failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %m : !transform.any_op
  }
  transform.named_sequence @reduce_tile_inner_reduction_rank3_64(%op: !transform.any_op {transform.consumed}) {
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [1, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %fill, %part, %merge, %loop = transform.structured.tile_reduction_using_for %t by tile_sizes = [0, 0, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  transform.named_sequence @reduce_is_inner_reduction_rank1_32(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %ct = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %v, %ct : !transform.param<i64>
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    %m = transform.include @reduce_is_inner_reduction failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %m : !transform.any_op
  }
  transform.named_sequence @reduce_tile_inner_reduction_rank1_32(%op: !transform.any_op {transform.consumed}) {
    %fill, %part, %merge, %loop = transform.structured.tile_reduction_using_for %op by tile_sizes = [32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  transform.named_sequence @reduce_is_inner_reduction_rank2_32(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %ct = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %v, %ct : !transform.param<i64>
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    %m = transform.include @reduce_is_inner_reduction failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %m : !transform.any_op
  }
  transform.named_sequence @reduce_tile_inner_reduction_rank2_32(%op: !transform.any_op {transform.consumed}) {
    %t, %l:1 = transform.structured.tile_using_for %op tile_sizes [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill, %part, %merge, %loop = transform.structured.tile_reduction_using_for %t by tile_sizes = [0, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  transform.named_sequence @reduce_is_inner_reduction_rank3_32(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %ct = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %v, %ct : !transform.param<i64>
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    %m = transform.include @reduce_is_inner_reduction failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %m : !transform.any_op
  }
  transform.named_sequence @reduce_tile_inner_reduction_rank3_32(%op: !transform.any_op {transform.consumed}) {
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [1, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %fill, %part, %merge, %loop = transform.structured.tile_reduction_using_for %t by tile_sizes = [0, 0, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  transform.named_sequence @reduce_lower_vectors(%f: !transform.any_op {transform.readonly}) {
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

  transform.named_sequence @reduce_impl(%root: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {

    %r1 = transform.foreach_match in %root @reduce_outer_parallel -> @reduce_split : (!transform.any_op) -> !transform.any_op
    // The result is written in place: a tensor.empty that becomes the
    // kernel's output is replaced by the output binding (after the fusion,
    // so that intermediates keep tensor.empty destinations of their own).
    transform.bufferization.eliminate_empty_tensors %r1 : !transform.any_op
    transform.apply_patterns to %r1 {
      transform.apply_patterns.tensor.fold_tensor_empty
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %r1b = transform.foreach_match in %r1, %v @reduce_is_inner_reduction_rank1_64 -> @reduce_tile_inner_reduction_rank1_64, @reduce_is_inner_reduction_rank2_64 -> @reduce_tile_inner_reduction_rank2_64, @reduce_is_inner_reduction_rank3_64 -> @reduce_tile_inner_reduction_rank3_64, @reduce_is_inner_reduction_rank1_32 -> @reduce_tile_inner_reduction_rank1_32, @reduce_is_inner_reduction_rank2_32 -> @reduce_tile_inner_reduction_rank2_32, @reduce_is_inner_reduction_rank3_32 -> @reduce_tile_inner_reduction_rank3_32 : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %r2 = transform.foreach_match in %r1b, %v @reduce_is_rank1 -> @reduce_tile_rank1, @reduce_is_rank2 -> @reduce_tile_rank2, @reduce_is_rank3 -> @reduce_tile_rank3, @reduce_is_rank4 -> @reduce_tile_rank4, @reduce_is_rank5 -> @reduce_tile_rank5, @reduce_is_rank6 -> @reduce_tile_rank6 : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.apply_patterns to %r2 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op

    %ops = transform.structured.match interface{LinalgOp} in %r2 : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops {vectorize_nd_extract} : !transform.any_op
    // Accumulators and other loop-invariant tiles become loop-carried vectors
    // (after canonicalization has folded the full-tile slices around them).
    transform.apply_patterns to %r2 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %r2 : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.include @reduce_lower_vectors failures(propagate) (%r2) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @avx2(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @reduce_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @avx512(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @reduce_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @generic(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @reduce_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
