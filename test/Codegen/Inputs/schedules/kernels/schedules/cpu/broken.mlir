// A schedule file for the error tests of fuel-apply-schedules: @avx2 has a
// parameter of an unknown kind, @generic one that names a dimension the root
// op lacks, @avx512 is missing.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @avx2(
      %kernel: !transform.any_op {transform.readonly},
      %p: !transform.param<i64> {transform.readonly, fuel.param = "bogus(1)"}) {
    transform.yield
  }
  transform.named_sequence @generic(
      %kernel: !transform.any_op {transform.readonly},
      %p: !transform.param<i64> {transform.readonly, fuel.param = "extent(7)"}) {
    transform.yield
  }
}
