// The entry of ../matmul-tiled.mlir: lavapipe's tiles (16 x 16, K panels
// of 32), then the workgroup and invocation loops mapped to a gpu.launch.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @matmul_tiled(%mm: !transform.any_op {transform.consumed}, %tm: !transform.param<i64> {transform.readonly}, %tn: !transform.param<i64> {transform.readonly}, %tk: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tm = transform.param.constant 16 : i64 -> !transform.param<i64>
    %tn = transform.param.constant 16 : i64 -> !transform.param<i64>
    %tk = transform.param.constant 32 : i64 -> !transform.param<i64>
    %f = transform.include @matmul_tiled failures(propagate) (%mm, %tm, %tn, %tk) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    %l2 = transform.gpu.map_nested_forall_to_threads %l block_dims = [16, 16, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
