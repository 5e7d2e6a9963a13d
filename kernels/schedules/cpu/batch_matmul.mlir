// CPU schedule for batch_matmul kernels (docs/CPU-CODEGEN.md, "Schedule files",
// "Packed B panels" and "Schedules per op kind"). Sequences @avx2, @avx512,
// @generic; the root argument is the kernel func.func.
//
// Packed form (as matmul.mlir, per batch entry). Each sequence carries
// `fuel.pack_b = P`: a linalg.batch_matmul whose N is a multiple of P
// becomes B panels [b][N/P][K][P] and a contraction linalg.generic
// (b, m, n1, n0, k) writing C through a view [b][M][N/P][P]. Workgroups
// (`panel_split(16)`): the batch in at most 16 equal blocks (when it is more
// than 1; else panels or M, as matmul.mlir); inside, one (batch entry,
// panel) per iteration with the panel's copy and the fill fused, rows by the
// register tile (4 avx2, 8 avx512, 4 generic; P = 16, 32, 8), K by 4, the
// remainders peeled, the accumulator hoisted into registers and the
// contraction lowered to FMAs.
//
// Other batched contractions. linalg.batch_matmul (b, m, n, k) with N not a
// multiple of P: the batch is the workgroup split (one batch entry per
// workgroup, the fill fused); the register tile is 4 rows x W columns (W =
// 16 avx2, 32 avx512, 8 generic), k by 1, the n and m loops peeled; the
// accumulator is hoisted into registers and the contraction lowered to
// outer products. Other batched contractions (generics) are tiled as
// reduce.mlir.
module attributes {transform.with_named_sequence} {

  // Workgroups: the outermost loop of the kernel's result op, when parallel,
  // becomes an scf.forall of one row per workgroup; its producers are fused.
  transform.named_sequence @batch_matmul_outer_parallel(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.dim %s[0] {parallel} : !transform.any_op
      %u = transform.match.structured.result %s[0] {single} : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %u ["bufferization.materialize_in_destination"] : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @batch_matmul_split(%op: !transform.any_op {transform.consumed}) {
    %t, %l = transform.structured.fuse %op tile_sizes [1] {apply_cleanup, use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // Rank 1: every loop but the innermost by 1, the innermost by the vector
  // width; the innermost loop is peeled so every tile is static.
  transform.named_sequence @batch_matmul_is_rank1(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @batch_matmul_tile_rank1(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @batch_matmul_is_rank2(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @batch_matmul_tile_rank2(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @batch_matmul_is_rank3(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @batch_matmul_tile_rank3(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @batch_matmul_is_rank4(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 4 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @batch_matmul_tile_rank4(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @batch_matmul_is_rank5(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 5 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @batch_matmul_tile_rank5(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @batch_matmul_is_rank6(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 6 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @batch_matmul_tile_rank6(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %t, %l:6 = transform.structured.tile_using_for %op tile_sizes [1, 1, 1, 1, 1, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %in = transform.cast %l#5 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %in : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  // linalg.batch_matmul (b, m, n, k): the batch is the workgroup split; the
  // register tile is 4 rows by two vectors of columns, k by 1 (an outer
  // product per step, the accumulator hoisted into registers); n and m are
  // peeled.
  transform.named_sequence @batch_matmul_is_named(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.operation_name %op ["linalg.batch_matmul"] : !transform.any_op
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @batch_matmul_tile(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    %t, %l:4 = transform.structured.tile_using_for %op tile_sizes [1, 4, %v, 1] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %n = transform.cast %l#2 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %n : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    %m = transform.cast %l#1 : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %m : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%pl: !transform.op<"scf.for">):
      transform.loop.peel %pl {fail_if_already_divisible = true} : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
  // Vector lowering in stages (one pattern set at a time: together, the
  // multi-reduction, broadcast and shape_cast rewrites do not converge).
  transform.named_sequence @batch_matmul_lower_vectors(%f: !transform.any_op {transform.readonly}) {
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

  transform.named_sequence @batch_matmul_impl(%root: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {

    %r1 = transform.foreach_match in %root @batch_matmul_outer_parallel -> @batch_matmul_split : (!transform.any_op) -> !transform.any_op
    // The result is written in place: a tensor.empty that becomes the
    // kernel's output is replaced by the output binding (after the fusion,
    // so that intermediates keep tensor.empty destinations of their own).
    transform.bufferization.eliminate_empty_tensors %r1 : !transform.any_op
    transform.apply_patterns to %r1 {
      transform.apply_patterns.tensor.fold_tensor_empty
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %r2 = transform.foreach_match in %r1, %v @batch_matmul_is_named -> @batch_matmul_tile, @batch_matmul_is_rank1 -> @batch_matmul_tile_rank1, @batch_matmul_is_rank2 -> @batch_matmul_tile_rank2, @batch_matmul_is_rank3 -> @batch_matmul_tile_rank3, @batch_matmul_is_rank4 -> @batch_matmul_tile_rank4, @batch_matmul_is_rank5 -> @batch_matmul_tile_rank5, @batch_matmul_is_rank6 -> @batch_matmul_tile_rank6 : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.apply_patterns to %r2 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // Unit loops (the batch, k) are dropped: a tile is then an outer
    // product, C[m, n] += A[m] * B[n], vectorized as broadcasts and FMAs.
    %bm = transform.structured.match ops{["linalg.batch_matmul"]} in %r2 : (!transform.any_op) -> !transform.any_op
    %bmg = transform.structured.generalize %bm : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %r2 {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %ops = transform.structured.match interface{LinalgOp} in %r2 : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops {vectorize_nd_extract} : !transform.any_op
    // Accumulators and other loop-invariant tiles become loop-carried vectors.
    %loops = transform.structured.match ops{["scf.for"]} in %r2 : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.include @batch_matmul_lower_vectors failures(propagate) (%r2) : (!transform.any_op) -> ()
    transform.yield
  }

  // The packed path: chosen for the kernel (the func.func itself) when the
  // driver packed it (%pk, `packed()`, is 1).
  transform.named_sequence @bm_is_packed(
      %op: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly},
      %kt: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly},
      %pk: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    transform.match.operation_name %op ["func.func"] : !transform.any_op
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %pk, %one : !transform.param<i64>
    transform.yield %op, %split, %kt, %mr, %nr : !transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @bm_packed(
      %fn: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly},
      %kt: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %fn : (!transform.any_op) -> !transform.any_op
    %tr0 = transform.structured.match ops{["linalg.transpose"]} in %fn : (!transform.any_op) -> !transform.any_op
    %fill0 = transform.structured.match ops{["linalg.fill"]} in %fn : (!transform.any_op) -> !transform.any_op
    %gf, %forall = transform.structured.tile_using_forall %g tile_sizes *(%split) : (!transform.any_op, !transform.any_param) -> (!transform.any_op, !transform.any_op)
    %trf, %forall1 = transform.structured.fuse_into_containing_op %tr0 into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %flf, %forall2 = transform.structured.fuse_into_containing_op %fill0 into %forall1 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // One (batch entry, panel) per iteration, its copy and fill fused; the
    // scratch is one panel.
    %g1, %lb, %ln = transform.structured.fuse %gf tile_sizes [1, 0, 1, 0, 0] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.apply_patterns to %fn { transform.apply_patterns.tensor.fold_tensor_empty } : !transform.any_op
    // The copy in K-row tiles (none when B is a constant packed at compile
    // time).
    %tr = transform.structured.match ops{["linalg.transpose"]} in %fn : (!transform.any_op) -> !transform.any_op
    transform.foreach %tr : !transform.any_op {
    ^bb0(%t: !transform.any_op):
      %t1, %tl = transform.structured.tile_using_for %t tile_sizes [0, 0, %kt, 0] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    }
    %g2, %lm = transform.structured.fuse %g1 tile_sizes [0, %mr, 0, 0, 0] {apply_cleanup} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %g3, %lk = transform.structured.tile_using_for %g2 tile_sizes [0, 0, 0, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.sequence %fn : !transform.any_op failures(suppress) {
    ^bb0(%unused: !transform.any_op):
      %l = transform.cast %lk : !transform.any_op to !transform.op<"scf.for">
      %l0, %l1 = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.sequence %fn : !transform.any_op failures(suppress) {
    ^bb0(%unused: !transform.any_op):
      %l = transform.cast %lm : !transform.any_op to !transform.op<"scf.for">
      %l0, %l1 = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.apply_patterns to %fn { transform.apply_patterns.canonicalization } : !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %fn : (!transform.any_op) -> !transform.any_op
    %fv = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %fv : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.apply_patterns to %fv {
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %fv {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    transform.yield
  }
  // Any other kernel: the schedule below.
  transform.named_sequence @bm_is_kernel(
      %op: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly},
      %kt: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly},
      %pk: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.param<i64>) {
    transform.match.operation_name %op ["func.func"] : !transform.any_op
    transform.yield %op, %nr : !transform.any_op, !transform.param<i64>
  }

  transform.named_sequence @batch_matmul_select(
      %root: !transform.any_op {transform.consumed},
      %split: !transform.any_param {transform.readonly},
      %kt: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly},
      %pk: !transform.param<i64> {transform.readonly}) {
    %r = transform.foreach_match restrict_root in %root, %split, %kt, %mr, %nr, %pk
        @bm_is_packed -> @bm_packed, @bm_is_kernel -> @batch_matmul_impl
        : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }

  transform.named_sequence @avx2(
      %kernel: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly, fuel.param = "panel_split(16)"},
      %kt: !transform.param<i64> {transform.readonly, fuel.param = "divisor(-1, 8)"},
      %pk: !transform.param<i64> {transform.readonly, fuel.param = "packed()"})
      attributes {fuel.pack_b = 16 : i64} {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mr = transform.param.constant 4 : i64 -> !transform.param<i64>
    %v = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @batch_matmul_select failures(propagate) (%root, %split, %kt, %mr, %v, %pk) : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @avx512(
      %kernel: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly, fuel.param = "panel_split(16)"},
      %kt: !transform.param<i64> {transform.readonly, fuel.param = "divisor(-1, 8)"},
      %pk: !transform.param<i64> {transform.readonly, fuel.param = "packed()"})
      attributes {fuel.pack_b = 32 : i64} {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %v = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @batch_matmul_select failures(propagate) (%root, %split, %kt, %mr, %v, %pk) : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @generic(
      %kernel: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly, fuel.param = "panel_split(16)"},
      %kt: !transform.param<i64> {transform.readonly, fuel.param = "divisor(-1, 8)"},
      %pk: !transform.param<i64> {transform.readonly, fuel.param = "packed()"})
      attributes {fuel.pack_b = 8 : i64} {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mr = transform.param.constant 4 : i64 -> !transform.param<i64>
    %v = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @batch_matmul_select failures(propagate) (%root, %split, %kt, %mr, %v, %pk) : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
