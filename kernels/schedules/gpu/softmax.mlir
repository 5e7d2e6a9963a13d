// GPU schedule of the softmax kernels (linalg.softmax, any rank and
// dimension), sequence @gpu, shared by the GPU backends (Vulkan and CUDA;
// docs/LOWERING.md, "GPU schedules"). The first argument is the kernel
// func.func.
//
// Correct for every shape first: the softmax is tiled by 1 along every
// dimension but the one it normalises (`parallel(1)`: that dimension counts
// as the reduction), one scf.forall iteration per row, and the tile is then
// decomposed (decompose_interface) into max-reduce, exp, sum-reduce and
// divide over its row. Each iteration of the forall is one thread of the
// kernel; the row's exponentials live in the thread's private memory.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @gpu(
      %kernel: !transform.any_op {transform.readonly},
      %tiles: !transform.any_param {transform.readonly, fuel.param = "parallel(1)"}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %t, %forall = transform.structured.tile_using_forall %sm tile_sizes *(%tiles) : (!transform.any_op, !transform.any_param) -> (!transform.any_op, !transform.any_op)
    %d = transform.structured.decompose_interface %t : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %kernel { transform.apply_patterns.canonicalization } : !transform.any_op
    transform.yield
  }
}
