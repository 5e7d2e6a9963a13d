// GPU schedule of every op kind but softmax (elementwise, matmul,
// batch_matmul, conv2d, pool, reduce, transpose, generic), sequence @gpu,
// shared by the GPU backends: the registry's vulkan and cuda records of
// those kinds name this file (docs/LOWERING.md, "GPU schedules"). The first
// argument is the kernel func.func.
//
// Correct for every shape first: the kernel's root op is tiled by 1 along
// each of its parallel loops (`parallel(1)`: reduction loops stay whole
// inside the tile) into one scf.forall, and every linalg op producing one of
// its operands (the fill of a matmul or reduction, the ops of an elementwise
// chain) is fused into it. Each iteration of that forall is one invocation
// (thread) of the kernel: the target's conversion (convert-fuel-to-spirv,
// convert-fuel-to-nvvm; GpuKernels.h) linearizes the forall over workgroups
// (blocks) of the size the device's limits give, and an invocation computes
// one output element, its reductions sequentially. Row reductions, softmax,
// matmul, batch_matmul and conv2d take faster schedules where they match
// (fuel-apply-schedules; GpuRowKernels.h, GpuMatmul.h).
module attributes {transform.with_named_sequence} {
  // A linalg op whose first result feeds another linalg op: a producer of
  // the root, not the root.
  transform.named_sequence @match_producer(
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

  transform.named_sequence @gpu(
      %kernel: !transform.any_op {transform.readonly},
      %tiles: !transform.any_param {transform.readonly, fuel.param = "parallel(1)"}) {
    %mat = transform.structured.match ops{["bufferization.materialize_in_destination"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %root = transform.get_producer_of_operand %mat[0] : (!transform.any_op) -> !transform.any_op
    %prod = transform.collect_matching @match_producer in %kernel : (!transform.any_op) -> !transform.any_op
    %r, %forall = transform.structured.tile_using_forall %root tile_sizes *(%tiles) : (!transform.any_op, !transform.any_param) -> (!transform.any_op, !transform.any_op)
    %p, %f = transform.structured.fuse_into_containing_op %prod into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %kernel { transform.apply_patterns.canonicalization } : !transform.any_op
    transform.yield
  }
}
