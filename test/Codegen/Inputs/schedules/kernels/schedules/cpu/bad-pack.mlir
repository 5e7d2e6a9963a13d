// A schedule file whose packed-B panel width is not positive.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @avx2(%kernel: !transform.any_op {transform.readonly}) attributes {fuel.pack_b = 0 : i64} {
    transform.yield
  }
}
