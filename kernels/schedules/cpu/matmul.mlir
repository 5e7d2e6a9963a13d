// Schedules of the matmul kernels (linalg.matmul, with its fill), one named
// sequence per ISA class (docs/CPU-CODEGEN.md, "Schedule files").
//
// Workgroups split N into at most 16 equal panels (`chunk(1, 16)`: the
// smallest divisor of N giving at most 16 panels, so every panel is static).
// Inside a panel the fill is fused into an M x N register tile, K is tiled
// by 4, and every loop is peeled so that the remainders of any static shape
// (prime sizes too) are static tiles; the accumulator is hoisted into
// registers and contractions become outer products (vector.fma).
module attributes {transform.with_named_sequence} {
  // The workgroup split: the matmul and its fill, one N panel per workgroup.
  transform.named_sequence @tile_matmul(
      %kernel: !transform.any_op {transform.readonly},
      %n_wg: !transform.param<i64> {transform.readonly}) {
    %mat = transform.structured.match ops{["bufferization.materialize_in_destination"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mm = transform.get_producer_of_operand %mat[0] : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mm1, %forall = transform.structured.tile_using_forall %mm tile_sizes [0, %n_wg] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill1, %forall1 = transform.structured.fuse_into_containing_op %fill into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // Peels the register-tile loops (innermost first, so every remainder is a
  // static tile), vectorizes, hoists the accumulator and lowers contractions
  // to FMAs.
  transform.named_sequence @peel_and_vectorize(
      %kernel: !transform.any_op {transform.readonly},
      %lm: !transform.any_op {transform.readonly},
      %ln: !transform.any_op {transform.readonly},
      %lk: !transform.any_op {transform.readonly}) {
    // A loop whose step divides its range has nothing to peel: that
    // (silenceable) failure is suppressed.
    transform.sequence %kernel : !transform.any_op failures(suppress) {
    ^bb0(%unused: !transform.any_op):
      %lkf = transform.cast %lk : !transform.any_op to !transform.op<"scf.for">
      %k0, %k1 = transform.loop.peel %lkf : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.sequence %kernel : !transform.any_op failures(suppress) {
    ^bb0(%unused: !transform.any_op):
      %lnf = transform.cast %ln : !transform.any_op to !transform.op<"scf.for">
      %n0, %n1 = transform.loop.peel %lnf : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.sequence %kernel : !transform.any_op failures(suppress) {
    ^bb0(%unused: !transform.any_op):
      %lmf = transform.cast %lm : !transform.any_op to !transform.op<"scf.for">
      %m0, %m1 = transform.loop.peel %lmf : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.apply_patterns to %kernel { transform.apply_patterns.canonicalization } : !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %fv = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %fv : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.apply_patterns to %fv {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    transform.yield
  }

  // AVX2 (16 ymm): a 4 x 16 tile, 8 ymm accumulators (the best measured tile).
  transform.named_sequence @avx2(
      %kernel: !transform.any_op {transform.readonly},
      %n_wg: !transform.param<i64> {transform.readonly, fuel.param = "chunk(1, 16)"}) {
    transform.include @tile_matmul failures(propagate) (%kernel, %n_wg) : (!transform.any_op, !transform.param<i64>) -> ()
    %forall = transform.structured.match ops{["scf.forall"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mms = transform.structured.match ops{["linalg.matmul", "linalg.generic"]} in %forall : (!transform.any_op) -> !transform.any_op
    %mm2, %lm, %ln = transform.structured.fuse %mms tile_sizes [4, 16, 0] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm3, %lk = transform.structured.tile_using_for %mm2 tile_sizes [0, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @peel_and_vectorize failures(propagate) (%kernel, %lm, %ln, %lk) : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // AVX-512 (32 zmm): an 8 x 32 tile, 16 zmm accumulators.
  transform.named_sequence @avx512(
      %kernel: !transform.any_op {transform.readonly},
      %n_wg: !transform.param<i64> {transform.readonly, fuel.param = "chunk(1, 16)"}) {
    transform.include @tile_matmul failures(propagate) (%kernel, %n_wg) : (!transform.any_op, !transform.param<i64>) -> ()
    %forall = transform.structured.match ops{["scf.forall"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mms = transform.structured.match ops{["linalg.matmul", "linalg.generic"]} in %forall : (!transform.any_op) -> !transform.any_op
    %mm2, %lm, %ln = transform.structured.fuse %mms tile_sizes [8, 32, 0] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm3, %lk = transform.structured.tile_using_for %mm2 tile_sizes [0, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @peel_and_vectorize failures(propagate) (%kernel, %lm, %ln, %lk) : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // Baseline x86-64 (16 xmm): a 4 x 8 tile, 8 xmm accumulators.
  transform.named_sequence @generic(
      %kernel: !transform.any_op {transform.readonly},
      %n_wg: !transform.param<i64> {transform.readonly, fuel.param = "chunk(1, 16)"}) {
    transform.include @tile_matmul failures(propagate) (%kernel, %n_wg) : (!transform.any_op, !transform.param<i64>) -> ()
    %forall = transform.structured.match ops{["scf.forall"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mms = transform.structured.match ops{["linalg.matmul", "linalg.generic"]} in %forall : (!transform.any_op) -> !transform.any_op
    %mm2, %lm, %ln = transform.structured.fuse %mms tile_sizes [4, 8, 0] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm3, %lk = transform.structured.tile_using_for %mm2 tile_sizes [0, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @peel_and_vectorize failures(propagate) (%kernel, %lm, %ln, %lk) : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.yield
  }
}
