// A schedule file whose transform fails: the kernel is no scf.for.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @avx2(%kernel: !transform.any_op {transform.readonly}) {
    %loop = transform.cast %kernel : !transform.any_op to !transform.op<"scf.for">
    transform.yield
  }
}
