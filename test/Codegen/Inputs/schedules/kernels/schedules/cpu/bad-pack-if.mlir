// A schedule file that asks to pack only a constant B without a panel width.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @avx2(%kernel: !transform.any_op {transform.readonly}) attributes {fuel.pack_b_if_constant} {
    transform.yield
  }
}
