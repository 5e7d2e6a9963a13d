//===- FastExp.h - A cheaper f32 exp for the cpu kernels --------*- C++ -*-===//
//
// The f32 `math.exp` lowering of fuel-bufferize-kernels (docs/CPU-CODEGEN.md,
// "Stage bufferized"): range reduction by ln 2 with the integer exponent taken
// from the rounding itself, a degree-7 polynomial and the scale applied as an
// integer add to the exponent field. About 20 vector operations, against
// about twice that for MLIR's own approximation.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_CPU_FASTEXP_H
#define FUEL_CODEGEN_CPU_FASTEXP_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::fuel {

/// The largest error of the lowering against the correctly rounded exp over
/// the inputs whose exp is a normal float, in ulps; the unit test measures it
/// over a dense sweep of the f32 inputs.
constexpr double kFastExpMaxUlp = 2.0;

/// Rewrites `math.exp` on f32 scalars and vectors into the fast lowering,
/// with a benefit above MLIR's polynomial approximation so that it wins when
/// both are in one pattern set. `useFma`: multiply-adds as `math.fma` (the
/// target has FMA); otherwise as a multiply and an add, which keeps a target
/// without FMA from calling `fmaf`.
///
/// Semantics: exp(x) within kFastExpMaxUlp for -87.33654 <= x <= 88.72283
/// (normal results); +inf above, +0 below (results that would be subnormal
/// are flushed to zero); NaN gives NaN, -inf gives +0, +inf gives +inf.
void populateFastExpPatterns(RewritePatternSet &patterns, bool useFma);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_CPU_FASTEXP_H
