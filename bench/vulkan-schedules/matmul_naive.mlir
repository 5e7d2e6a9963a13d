// The baseline of the Vulkan schedule benchmark: the matmul one element of
// C per invocation in TM x TN workgroups, reading A and B from the storage
// buffers (no workgroup memory), with the signature of @matmul_tiled.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @matmul_tiled(
      %mm: !transform.any_op {transform.consumed},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly},
      %tk: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %t, %wg = transform.structured.tile_using_forall %mm
        tile_sizes [%tm, %tn] (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %tt, %ft = transform.structured.tile_using_forall %t
        num_threads [%tm, %tn] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %fn = transform.get_parent_op %wg {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    %mod = transform.get_parent_op %fn {op_name = "builtin.module"} : (!transform.any_op) -> !transform.any_op
    %bm = transform.bufferization.one_shot_bufferize %mod {
        bufferize_function_boundaries = true,
        function_boundary_type_conversion = 1 : i32,
        memcpy_op = "linalg.copy"} : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %bm : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.apply_patterns to %f { transform.apply_patterns.canonicalization } : !transform.any_op
    transform.yield %f : !transform.any_op
  }
}
