//===- MinMax.h - Branch-free scalar maximumf/minimumf ----------*- C++ -*-===//
//
// A rewrite of fuel-bufferize-kernels (docs/CPU-CODEGEN.md, "Stage
// bufferized"): one-element `arith.maximumf` and `arith.minimumf` (f32 or
// vector<1xf32>, what element-by-element code is made of; IEEE 754-2019
// maximum and minimum: NaN if either operand is NaN, -0 < +0) as compares
// and selects, which x86 lowers to mask blends, instead of LLVM's expansion
// of llvm.maximum, which branches on the sign of an operand (a mispredicted
// branch per element of data of random sign).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_CPU_MINMAX_H
#define FUEL_CODEGEN_CPU_MINMAX_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::fuel {

/// Rewrites f32 and vector<1xf32> `arith.maximumf` / `arith.minimumf` into
///   r = a > b ? a : b            (a < b for minimum; ordered compares)
///   r = a == b ? bits(a) & bits(b) : r   (| for minimum: the sign of zeros)
///   r = isnan(a) || isnan(b) ? a + b : r (NaN)
/// which gives the same result for every input. Wider vectors are left to
/// LLVM, whose vector expansion is branch-free.
void populateBranchFreeMinMaxPatterns(RewritePatternSet &patterns);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_CPU_MINMAX_H
