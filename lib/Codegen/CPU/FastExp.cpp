//===- FastExp.cpp - A cheaper f32 exp for the cpu kernels ----------------===//
//
// The lowering of FastExp.h. For f32 x:
//
//   t = x * log2(e) + 1.5 * 2^23       (rounds x * log2(e) to the integer k:
//   k = t - 1.5 * 2^23                  the low bits of t's pattern are k)
//   r = x - k * ln2_hi - k * ln2_lo    (Cody-Waite: k * ln2_hi is exact)
//   p = 1 + r + r^2 * q(r)             (q of degree 4: exp(r) of degree 6 on
//                                       |r| <= ln(2)/2, 0.8 ulp in f32)
//   exp(x) = bits(p) + (bits(t) << 23) (adds k to p's exponent field: the
//                                       bits of 1.5 * 2^23 shift out)
//
// then +0 below ln(FLT_MIN), +inf above ln(FLT_MAX), NaN kept. No clamping:
// out of range the integer arithmetic wraps harmlessly and the selects
// replace the result. The coefficients are a near-minimax fit of
// (exp(r) - 1 - r) / r^2 for the relative error of exp.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/CPU/FastExp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;

namespace {

struct FastExpF32 : public OpRewritePattern<math::ExpOp> {
  FastExpF32(MLIRContext *ctx, bool useFma)
      : OpRewritePattern<math::ExpOp>(ctx, /*benefit=*/10), useFma(useFma) {}

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto vectorType = dyn_cast<VectorType>(type);
    if (!getElementTypeOrSelf(type).isF32() ||
        (vectorType && vectorType.isScalable()))
      return rewriter.notifyMatchFailure(op, "not f32 of fixed shape");
    Location loc = op.getLoc();
    Type i32Type = rewriter.getI32Type();
    Type intType = vectorType ? Type(vectorType.clone(i32Type)) : Type(i32Type);

    auto f = [&](float value) -> Value {
      TypedAttr attr = rewriter.getF32FloatAttr(value);
      if (vectorType)
        attr = DenseElementsAttr::get(vectorType, attr);
      return arith::ConstantOp::create(rewriter, loc, attr);
    };
    auto i = [&](int32_t value) -> Value {
      TypedAttr attr = rewriter.getI32IntegerAttr(value);
      if (vectorType)
        attr = DenseElementsAttr::get(cast<ShapedType>(intType), attr);
      return arith::ConstantOp::create(rewriter, loc, attr);
    };
    // a * b + c, fused where the target has FMA.
    auto madd = [&](Value a, Value b, Value c) -> Value {
      if (useFma)
        return math::FmaOp::create(rewriter, loc, a, b, c);
      Value m = arith::MulFOp::create(rewriter, loc, a, b);
      return arith::AddFOp::create(rewriter, loc, m, c);
    };

    Value x = op.getOperand();
    // Magic rounding constant: 1.5 * 2^23, whose ulp is 1.
    Value magic = f(12582912.0f);
    Value t = madd(x, f(1.44269504088896341f), magic);
    Value k = arith::SubFOp::create(rewriter, loc, t, magic);
    // ln 2 = 0.693359375 - 2.12194440e-4: the first has 9 significant bits,
    // so k * ln2_hi is exact for |k| < 2^15.
    Value r = madd(k, f(-0.693359375f), x);
    r = madd(k, f(2.12194440e-4f), r);
    Value q = f(1.381461275741458e-3f);
    q = madd(q, r, f(8.368710055947304e-3f));
    q = madd(q, r, f(4.166838899254799e-2f));
    q = madd(q, r, f(1.666652113199234e-1f));
    q = madd(q, r, f(4.999999403953552e-1f));
    Value r2 = arith::MulFOp::create(rewriter, loc, r, r);
    Value p = madd(q, r2, r);
    p = arith::AddFOp::create(rewriter, loc, p, f(1.0f));
    // 2^k by the exponent field: p is in [0.70, 1.42], so for every x whose
    // exp is normal the sum stays a normal float's pattern.
    Value tBits = arith::BitcastOp::create(rewriter, loc, intType, t);
    Value shifted = arith::ShLIOp::create(rewriter, loc, tBits, i(23));
    Value pBits = arith::BitcastOp::create(rewriter, loc, intType, p);
    Value yBits = arith::AddIOp::create(rewriter, loc, pBits, shifted);
    Value y = arith::BitcastOp::create(rewriter, loc, type, yBits);

    // ln(FLT_MIN) and ln(FLT_MAX), rounded inwards to f32.
    Value underflow = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, x, f(-87.33654f));
    y = arith::SelectOp::create(rewriter, loc, underflow, f(0.0f), y);
    // Above ln(FLT_MAX) or NaN: x + inf is +inf or NaN.
    Value inRange = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLE, x, f(88.72283f));
    Value overflow = arith::AddFOp::create(
        rewriter, loc, x, f(std::numeric_limits<float>::infinity()));
    y = arith::SelectOp::create(rewriter, loc, inRange, y, overflow);
    rewriter.replaceOp(op, y);
    return success();
  }

  bool useFma;
};

} // namespace

void mlir::fuel::populateFastExpPatterns(RewritePatternSet &patterns,
                                         bool useFma) {
  patterns.add<FastExpF32>(patterns.getContext(), useFma);
}
