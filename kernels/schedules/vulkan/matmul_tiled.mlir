// The shared-memory schedule of matmul kernels on Vulkan (docs/LOWERING.md,
// "Vulkan", "Fast schedules").
//
// One workgroup computes a TM x TN tile of C (an scf.forall mapped to
// gpu.block y, x); it walks K in steps of TK and, per step, copies the
// TM x TK panel of A and the TK x TN panel of B into workgroup memory
// (memory space 3, the SPIR-V Workgroup storage class), each copy spread
// over the workgroup's TM x TN invocations; each invocation then
// accumulates one element of C from the two panels. Mapping the invocation
// loops (gpu.thread y, x) puts a barrier after each of them, so no
// invocation reads a panel before it is complete nor overwrites it while
// another still reads it.
//
// The tile sizes are parameters, chosen from the device's limits by
// fuel::target::chooseMatmulTiling (include/fuel/Target/GpuTiling.h): TN a
// multiple of the subgroup size, TM x TN within the workgroup's invocation
// limit, (TM + TN) x TK x 4 bytes within the shared memory. The sequence
// needs M, N and K multiples of TM, TN and TK (the chooser says so);
// other shapes take the per-element schedule.
//
// Input: the tensor linalg.matmul of the kernel, before bufferization.
// The sequence bufferizes the function it sits in (identity layouts at the
// function boundary, copies as linalg.copy).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @matmul_tiled(
      %mm: !transform.any_op {transform.consumed},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly},
      %tk: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    // Workgroups: one TM x TN tile of C each.
    %t, %wg = transform.structured.tile_using_forall %mm
        tile_sizes [%tm, %tn] (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    // K in panels of TK.
    %tk_op, %kloop = transform.structured.tile_using_for %t
        tile_sizes [0, 0, %tk]
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    // The panels of A and B in workgroup memory.
    %a = transform.get_operand %tk_op[0] : (!transform.any_op) -> !transform.any_value
    %b = transform.get_operand %tk_op[1] : (!transform.any_op) -> !transform.any_value
    %pa = transform.structured.promote_tensor to 3 %a : !transform.any_value
    %pb = transform.structured.promote_tensor to 3 %b : !transform.any_value
    %fn = transform.get_parent_op %wg {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    %mod = transform.get_parent_op %fn {op_name = "builtin.module"} : (!transform.any_op) -> !transform.any_op
    %bm = transform.bufferization.one_shot_bufferize %mod {
        bufferize_function_boundaries = true,
        function_boundary_type_conversion = 1 : i32,
        memcpy_op = "linalg.copy"} : (!transform.any_op) -> !transform.any_op
    // The result's copies onto itself, left by bufferization, fold away
    // once their identical subviews are CSE'd.
    %f = transform.structured.match ops{["func.func"]} in %bm : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.apply_patterns to %f { transform.apply_patterns.canonicalization } : !transform.any_op
    // Invocations: the copies and the matmul, one element of the TM x TN
    // tile each.
    %copies = transform.structured.match ops{["linalg.copy"]} in %bm : (!transform.any_op) -> !transform.any_op
    %tc, %fc = transform.structured.tile_using_forall %copies
        num_threads [%tm, %tn] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %mm2 = transform.structured.match ops{["linalg.matmul"]} in %bm : (!transform.any_op) -> !transform.any_op
    %tt, %ft = transform.structured.tile_using_forall %mm2
        num_threads [%tm, %tn] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %f { transform.apply_patterns.canonicalization } : !transform.any_op
    transform.yield %f : !transform.any_op
  }
}
