// Schedules of the elementwise kernels (a chain of all-parallel linalg ops of
// any rank, with broadcasts), one named sequence per ISA class
// (docs/CPU-CODEGEN.md, "Schedule files").
//
// Row-fused: workgroups split the outermost dimension into
// at most 16 equal static blocks (`split(16)`; rank 1 is not split); inside,
// the whole chain is fused per row of the innermost dimension, in column
// tiles of up to 64 (AVX2, AVX-512) or 32 (generic) elements that divide it
// (`rows(N)`; a row without such a divisor is one tile), and vectorized.
module attributes {transform.with_named_sequence} {
  // A linalg op whose first result feeds another linalg op: a producer of
  // the chain, not its root.
  transform.named_sequence @match_chain_producer(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %user = transform.match.structured failures(propagate) %op : (!transform.any_op) -> !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %u = transform.match.structured.result %s[0] {any} : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield %u : !transform.any_op
    }
    transform.match.structured failures(propagate) %user : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }

  // The whole schedule; %wg and %inner are the packed tile sizes, one per
  // loop dimension of the root op.
  transform.named_sequence @row_fused(
      %kernel: !transform.any_op {transform.readonly},
      %wg: !transform.any_param {transform.readonly},
      %inner: !transform.any_param {transform.readonly}) {
    %mat = transform.structured.match ops{["bufferization.materialize_in_destination"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %root = transform.get_producer_of_operand %mat[0] : (!transform.any_op) -> !transform.any_op
    %prod = transform.collect_matching @match_chain_producer in %kernel : (!transform.any_op) -> !transform.any_op
    %r1, %forall = transform.structured.tile_using_forall %root tile_sizes *(%wg) : (!transform.any_op, !transform.any_param) -> (!transform.any_op, !transform.any_op)
    %p1, %forall1 = transform.structured.fuse_into_containing_op %prod into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %r2, %row = transform.structured.tile_using_forall %r1 tile_sizes *(%inner) : (!transform.any_op, !transform.any_param) -> (!transform.any_op, !transform.any_op)
    %p2, %row1 = transform.structured.fuse_into_containing_op %p1 into %row : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %kernel { transform.apply_patterns.canonicalization } : !transform.any_op
    // Only linalg ops (docs/CPU-CODEGEN.md trap 12: not tensor.insert_slice).
    %ops = transform.structured.match interface{LinalgOp} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops : !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }

  transform.named_sequence @avx2(
      %kernel: !transform.any_op {transform.readonly},
      %wg: !transform.any_param {transform.readonly, fuel.param = "split(16)"},
      %inner: !transform.any_param {transform.readonly, fuel.param = "rows(64)"}) {
    transform.include @row_fused failures(propagate) (%kernel, %wg, %inner) : (!transform.any_op, !transform.any_param, !transform.any_param) -> ()
    transform.yield
  }

  transform.named_sequence @avx512(
      %kernel: !transform.any_op {transform.readonly},
      %wg: !transform.any_param {transform.readonly, fuel.param = "split(16)"},
      %inner: !transform.any_param {transform.readonly, fuel.param = "rows(64)"}) {
    transform.include @row_fused failures(propagate) (%kernel, %wg, %inner) : (!transform.any_op, !transform.any_param, !transform.any_param) -> ()
    transform.yield
  }

  transform.named_sequence @generic(
      %kernel: !transform.any_op {transform.readonly},
      %wg: !transform.any_param {transform.readonly, fuel.param = "split(16)"},
      %inner: !transform.any_param {transform.readonly, fuel.param = "rows(32)"}) {
    transform.include @row_fused failures(propagate) (%kernel, %wg, %inner) : (!transform.any_op, !transform.any_param, !transform.any_param) -> ()
    transform.yield
  }
}
