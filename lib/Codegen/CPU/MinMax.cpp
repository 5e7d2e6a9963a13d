//===- MinMax.cpp - Branch-free scalar maximumf/minimumf ------------------===//
//
// The rewrite of MinMax.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/CPU/MinMax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {

template <typename OpTy, bool IsMax>
struct BranchFreeMinMax : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto vector = dyn_cast<VectorType>(type);
    if (!getElementTypeOrSelf(type).isF32() ||
        (vector && (vector.isScalable() || vector.getNumElements() != 1)))
      return rewriter.notifyMatchFailure(op, "not one f32");
    Location loc = op.getLoc();
    Value a = op.getLhs(), b = op.getRhs();
    Type i32 = vector ? Type(vector.clone(rewriter.getI32Type()))
                      : Type(rewriter.getI32Type());
    auto cmp = [&](arith::CmpFPredicate p) -> Value {
      return arith::CmpFOp::create(rewriter, loc, p, a, b);
    };
    Value r = arith::SelectOp::create(
        rewriter, loc,
        cmp(IsMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT), a,
        b);
    // Equal operands: the same bits, or zeros of either sign, where the
    // maximum is -0 only if both are (and) and the minimum +0 only if both
    // are (or).
    Value aBits = arith::BitcastOp::create(rewriter, loc, i32, a);
    Value bBits = arith::BitcastOp::create(rewriter, loc, i32, b);
    Value merged =
        IsMax ? Value(arith::AndIOp::create(rewriter, loc, aBits, bBits))
              : Value(arith::OrIOp::create(rewriter, loc, aBits, bBits));
    Value zeros = arith::BitcastOp::create(rewriter, loc, a.getType(), merged);
    r = arith::SelectOp::create(rewriter, loc, cmp(arith::CmpFPredicate::OEQ),
                                zeros, r);
    Value nan = arith::AddFOp::create(rewriter, loc, a, b);
    r = arith::SelectOp::create(rewriter, loc, cmp(arith::CmpFPredicate::UNO),
                                nan, r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void mlir::fuel::populateBranchFreeMinMaxPatterns(RewritePatternSet &patterns) {
  patterns.add<BranchFreeMinMax<arith::MaximumFOp, true>,
               BranchFreeMinMax<arith::MinimumFOp, false>>(
      patterns.getContext());
}
