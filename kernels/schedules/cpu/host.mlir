// CPU schedule for host kernels (docs/CPU-CODEGEN.md, "Schedule files" and
// "Schedules per op kind"). Sequences @avx2, @avx512, @generic; the root
// argument is the kernel func.func.
//
// Host-op kernels (fuel.op_kind = "host"): tensor.pad, tensor.concat,
// tensor.insert_slice, tensor.generate, tensor.from_elements, a materialised
// strided tensor.extract_slice, linalg.fill. Rewritten into destination-passing
// form (pad -> fill + insert_slice, generate -> linalg.generic, concat ->
// insert_slices, every insert_slice -> linalg.copy), tiled and vectorized on
// tensors, then bufferized here with copies as linalg.copy (so a strided or
// input-destination copy is vectorized too, never a call), tiled and
// vectorized again. No workgroup split (grid [1, 1, 1]).
module attributes {transform.with_named_sequence} {
  // Rank 1: every loop but the innermost by 1, the innermost by the vector
  // width; the innermost loop is peeled so every tile is static.
  transform.named_sequence @host_is_rank1(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @host_tile_rank1(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @host_is_rank2(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @host_tile_rank2(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @host_is_rank3(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @host_tile_rank3(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @host_is_rank4(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 4 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @host_tile_rank4(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @host_is_rank5(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 5 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @host_tile_rank5(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @host_is_rank6(%op: !transform.any_op {transform.readonly}, %v: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %c = transform.param.constant 6 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %r, %c : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op, %v : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @host_tile_rank6(%op: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
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
  transform.named_sequence @host_lower_vectors(%f: !transform.any_op {transform.readonly}) {
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
  transform.named_sequence @host_impl(%root: !transform.any_op {transform.consumed}, %v: !transform.param<i64> {transform.readonly}) {
    // Destination-passing form: tensor.pad becomes a fill and an
    // insert_slice, tensor.generate a linalg.generic, tensor.from_elements
    // inserts into a tensor.empty, tensor.concat insert_slices.
    %pads = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    %pads2 = transform.structured.rewrite_in_destination_passing_style %pads : (!transform.any_op) -> !transform.any_op
    %gens = transform.structured.match ops{["tensor.generate"]} in %root : (!transform.any_op) -> !transform.any_op
    %gens2 = transform.structured.rewrite_in_destination_passing_style %gens : (!transform.any_op) -> !transform.any_op
    %elts = transform.structured.match ops{["tensor.from_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %elts2 = transform.structured.rewrite_in_destination_passing_style %elts : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %root {
      transform.apply_patterns.tensor.decompose_concat
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // Every insert_slice copies through a linalg.copy, vectorized below.
    %ins = transform.structured.match ops{["tensor.insert_slice"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %ins : !transform.any_op {
    ^bb0(%i: !transform.any_op):
      %c = transform.structured.insert_slice_to_copy %i : (!transform.any_op) -> !transform.any_op
    }
    // Tiles of every linalg op, vectorized on tensors (tensor.extract in a
    // tensor.generate body becomes a vector load or gather).
    transform.bufferization.eliminate_empty_tensors %root : !transform.any_op
    %r1 = transform.foreach_match in %root, %v @host_is_rank1 -> @host_tile_rank1, @host_is_rank2 -> @host_tile_rank2, @host_is_rank3 -> @host_tile_rank3, @host_is_rank4 -> @host_tile_rank4, @host_is_rank5 -> @host_tile_rank5, @host_is_rank6 -> @host_tile_rank6 : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.apply_patterns to %r1 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %ops1 = transform.structured.match interface{LinalgOp} in %r1 : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops1 {vectorize_nd_extract} : !transform.any_op
    // The kernel is bufferized here, copies as linalg.copy (a memref.copy of
    // a strided view would become a call), and the copies that
    // bufferization adds (a strided slice, an insert_slice destination that
    // is an input) are vectorized like the rest.
    %b = transform.bufferization.one_shot_bufferize %r1 {memcpy_op = "linalg.copy"} : (!transform.any_op) -> !transform.any_op
    %r2 = transform.foreach_match in %b, %v @host_is_rank1 -> @host_tile_rank1, @host_is_rank2 -> @host_tile_rank2, @host_is_rank3 -> @host_tile_rank3, @host_is_rank4 -> @host_tile_rank4, @host_is_rank5 -> @host_tile_rank5, @host_is_rank6 -> @host_tile_rank6 : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.apply_patterns to %r2 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %ops = transform.structured.match interface{LinalgOp} in %r2 : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops {vectorize_nd_extract} : !transform.any_op
    transform.include @host_lower_vectors failures(propagate) (%r2) : (!transform.any_op) -> ()
    transform.yield
  }
  transform.named_sequence @avx2(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @host_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @avx512(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @host_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @generic(%kernel: !transform.any_op {transform.readonly}) {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %v = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @host_impl failures(propagate) (%root, %v) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
