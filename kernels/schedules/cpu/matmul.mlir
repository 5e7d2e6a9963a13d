// Schedules of the matmul kernels (linalg.matmul, with its fill), one named
// sequence per ISA class (docs/CPU-CODEGEN.md, "Schedule files" and "Packed
// B panels").
//
// Packed form. Each sequence carries `fuel.pack_b = P`, the panel width (two
// vectors of the ISA): when N is a multiple of P the driver rewrites the
// matmul into B panels [N/P][K][P] (a linalg.transpose of a view of B) and a
// contraction linalg.generic (m, n1, n0, k) writing C through a view
// [M][N/P][P]. The schedule then takes one panel per iteration, fuses the
// panel's copy and the fill into that iteration (the panel lives in K*P*4
// bytes of stack scratch), tiles M by the register tile's rows and K by 4,
// peels the remainders, vectorizes, hoists the accumulator into registers
// (`hoist_loop_invariant_subsets`) and lowers the contraction to FMAs.
// Register tiles (rows x P): 6 x 16 on AVX2 (12 ymm accumulators, 2 panel
// loads and a broadcast: 15 of 16 ymm), 8 x 32 on AVX-512 (16 zmm), 4 x 8
// generic (8 xmm).
//
// Other N (not a multiple of P), a panel over the stack scratch, or on
// AVX-512 a B that is not a constant (`fuel.pack_b_if_constant`): the
// matmul as it is, tiled into the same register tile, every loop peeled so
// that the remainders of any static shape (prime sizes too) are static
// vector tiles.
//
// Workgroups (`panel_split(16)`, fixed at compile time): whole panels (P
// columns; at most 16 workgroups, each packing or reading only its own
// columns of B) when N is a multiple of P and more than 2 panels; else
// (narrow N, or N not a multiple of P) M in at most 16 equal static blocks
// of at least 8 rows.
module attributes {transform.with_named_sequence} {
  // Peels the loops of a nest, innermost first (so every remainder is a
  // static tile), vectorizes, hoists the accumulator and lowers
  // contractions to FMAs.
  transform.named_sequence @peel_and_vectorize(
      %fn: !transform.any_op {transform.readonly},
      %outer: !transform.any_op {transform.readonly},
      %middle: !transform.any_op {transform.readonly},
      %inner: !transform.any_op {transform.readonly}) {
    // A loop whose step divides its range has nothing to peel: that
    // (silenceable) failure is suppressed.
    transform.sequence %fn : !transform.any_op failures(suppress) {
    ^bb0(%unused: !transform.any_op):
      %l = transform.cast %inner : !transform.any_op to !transform.op<"scf.for">
      %l0, %l1 = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.sequence %fn : !transform.any_op failures(suppress) {
    ^bb0(%unused: !transform.any_op):
      %l = transform.cast %middle : !transform.any_op to !transform.op<"scf.for">
      %l0, %l1 = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.sequence %fn : !transform.any_op failures(suppress) {
    ^bb0(%unused: !transform.any_op):
      %l = transform.cast %outer : !transform.any_op to !transform.op<"scf.for">
      %l0, %l1 = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.apply_patterns to %fn { transform.apply_patterns.canonicalization } : !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %fn : (!transform.any_op) -> !transform.any_op
    %fv = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %fv : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.apply_patterns to %fv {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    transform.yield
  }

  // The packed path: chosen for the kernel (the func.func itself) when the
  // driver packed it (%pk, `packed()`, is 1).
  transform.named_sequence @is_packed(
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
  // Workgroups over panels (or M), one panel per iteration with its copy
  // and the fill fused, rows by %mr, K by 4.
  transform.named_sequence @packed(
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
    %g1, %ln = transform.structured.fuse %gf tile_sizes [0, 1, 0, 0] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // extract_slice(tensor.empty) -> a panel-sized tensor.empty: the scratch
    // is one panel, not all of them.
    transform.apply_patterns to %fn { transform.apply_patterns.tensor.fold_tensor_empty } : !transform.any_op
    // The copy in K-row tiles (none when B is a constant packed at compile
    // time: the kernel then reads the panels).
    %tr = transform.structured.match ops{["linalg.transpose"]} in %fn : (!transform.any_op) -> !transform.any_op
    transform.foreach %tr : !transform.any_op {
    ^bb0(%t: !transform.any_op):
      %t1, %tl = transform.structured.tile_using_for %t tile_sizes [0, %kt, 0] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    }
    %g2, %lm = transform.structured.fuse %g1 tile_sizes [%mr, 0, 0, 0] {apply_cleanup} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %g3, %lk = transform.structured.tile_using_for %g2 tile_sizes [0, 0, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @peel_and_vectorize failures(propagate) (%fn, %ln, %lm, %lk) : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  // Any other kernel: the matmul as the outliner wrote it (N not a
  // multiple of the panel), its root found through the output it writes.
  transform.named_sequence @is_kernel(
      %op: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly},
      %kt: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly},
      %pk: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    transform.match.operation_name %op ["func.func"] : !transform.any_op
    transform.yield %op, %split, %kt, %mr, %nr : !transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  // Workgroups over M, the fill fused into an %mr x %nr register tile, K by 4.
  transform.named_sequence @unpacked(
      %fn: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly},
      %kt: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly}) {
    %mat = transform.structured.match ops{["bufferization.materialize_in_destination"]} in %fn : (!transform.any_op) -> !transform.any_op
    %mm = transform.get_producer_of_operand %mat[0] : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %fn : (!transform.any_op) -> !transform.any_op
    %mm1, %forall = transform.structured.tile_using_forall %mm tile_sizes *(%split) : (!transform.any_op, !transform.any_param) -> (!transform.any_op, !transform.any_op)
    %fill1, %forall1 = transform.structured.fuse_into_containing_op %fill into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm2, %lm, %ln = transform.structured.fuse %mm1 tile_sizes [%mr, %nr, 0] {apply_cleanup} : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm3, %lk = transform.structured.tile_using_for %mm2 tile_sizes [0, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @peel_and_vectorize failures(propagate) (%fn, %lm, %ln, %lk) : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @matmul_impl(
      %root: !transform.any_op {transform.consumed},
      %split: !transform.any_param {transform.readonly},
      %kt: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly},
      %pk: !transform.param<i64> {transform.readonly}) {
    %r = transform.foreach_match restrict_root in %root, %split, %kt, %mr, %nr, %pk
        @is_packed -> @packed, @is_kernel -> @unpacked
        : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }

  // AVX2 (16 ymm): 6 x 16, 12 ymm accumulators (measured against 4 x 16:
  // 0.90-0.99 against 0.90-1.07 of OpenBLAS's time; docs/PERFORMANCE.md).
  transform.named_sequence @avx2(
      %kernel: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly, fuel.param = "panel_split(16)"},
      %kt: !transform.param<i64> {transform.readonly, fuel.param = "divisor(-1, 8)"},
      %pk: !transform.param<i64> {transform.readonly, fuel.param = "packed()"})
      attributes {fuel.pack_b = 16 : i64} {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mr = transform.param.constant 6 : i64 -> !transform.param<i64>
    %nr = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @matmul_impl failures(propagate) (%root, %split, %kt, %mr, %nr, %pk) : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // AVX-512 (32 zmm): 8 x 32, 16 zmm accumulators. B is packed only when it
  // is a constant (at compile time): on the measured AVX-512 core (1 MiB
  // L2) the per-call copy costs more than the strided reads of a 32-column
  // strip it saves (docs/PERFORMANCE.md), so a B read at run time keeps its
  // layout and the workgroups take N/16-column strips of it.
  transform.named_sequence @avx512(
      %kernel: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly, fuel.param = "panel_split(16)"},
      %kt: !transform.param<i64> {transform.readonly, fuel.param = "divisor(-1, 8)"},
      %pk: !transform.param<i64> {transform.readonly, fuel.param = "packed()"})
      attributes {fuel.pack_b = 32 : i64, fuel.pack_b_if_constant} {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %nr = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @matmul_impl failures(propagate) (%root, %split, %kt, %mr, %nr, %pk) : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // Baseline x86-64 (16 xmm): 4 x 8, 8 xmm accumulators.
  transform.named_sequence @generic(
      %kernel: !transform.any_op {transform.readonly},
      %split: !transform.any_param {transform.readonly, fuel.param = "panel_split(16)"},
      %kt: !transform.param<i64> {transform.readonly, fuel.param = "divisor(-1, 8)"},
      %pk: !transform.param<i64> {transform.readonly, fuel.param = "packed()"})
      attributes {fuel.pack_b = 8 : i64} {
    %root = transform.structured.match ops{["func.func"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %mr = transform.param.constant 4 : i64 -> !transform.param<i64>
    %nr = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @matmul_impl failures(propagate) (%root, %split, %kt, %mr, %nr, %pk) : (!transform.any_op, !transform.any_param, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
