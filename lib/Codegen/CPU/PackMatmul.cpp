//===- PackMatmul.cpp - Packed-B form of a matmul kernel body -------------===//
//
// The packed-B rewrite (PackMatmul.h): B is copied into panels of P columns,
// [.., N/P, K, P], so that the register tile streams one contiguous panel
// per k step instead of reading rows of B N floats apart (at N = 1024 a
// 16-column strip of B maps to one L1 set and touches a new page per k
// row). C is only viewed as [.., M, N/P, P]; the schedule fuses the copy of
// each panel into its panel loop, so the copy lives in one panel of stack
// scratch.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/CPU/PackMatmul.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::fuel;

namespace {
/// The default indexing maps of linalg.matmul (batch = false) or
/// linalg.batch_matmul (batch = true).
SmallVector<AffineMap> defaultMaps(MLIRContext *ctx, bool batch) {
  SmallVector<AffineExpr> d;
  for (unsigned i = 0; i < (batch ? 4u : 3u); ++i)
    d.push_back(getAffineDimExpr(i, ctx));
  unsigned n = d.size();
  if (batch)
    return {AffineMap::get(n, 0, {d[0], d[1], d[3]}, ctx),
            AffineMap::get(n, 0, {d[0], d[3], d[2]}, ctx),
            AffineMap::get(n, 0, {d[0], d[1], d[2]}, ctx)};
  return {AffineMap::get(n, 0, {d[0], d[2]}, ctx),
          AffineMap::get(n, 0, {d[2], d[1]}, ctx),
          AffineMap::get(n, 0, {d[0], d[1]}, ctx)};
}

/// The reassociation splitting the last of `rank` dimensions in two.
SmallVector<ReassociationIndices> splitLast(int64_t rank) {
  SmallVector<ReassociationIndices> result;
  for (int64_t i = 0; i + 1 < rank; ++i)
    result.push_back({i});
  result.push_back({rank - 1, rank});
  return result;
}

/// The permutation of [.., K, N/P, P] into the panels [.., N/P, K, P].
SmallVector<int64_t> panelPermutation(int64_t rank) {
  SmallVector<int64_t> permutation;
  for (int64_t i = 0; i + 2 < rank; ++i)
    permutation.push_back(i);
  permutation.append({rank - 1, rank - 2, rank});
  return permutation;
}

/// `type` with its last dimension N split into [N / panel, panel].
RankedTensorType splitLastType(RankedTensorType type, int64_t panel) {
  SmallVector<int64_t> shape(type.getShape());
  int64_t n = shape.back();
  shape.back() = n / panel;
  shape.push_back(panel);
  return RankedTensorType::get(shape, type.getElementType());
}
} // namespace

bool mlir::fuel::canPackMatmulB(linalg::LinalgOp op, int64_t panel) {
  if (!op || panel <= 0 || !op.hasPureTensorSemantics())
    return false;
  bool batch = isa<linalg::BatchMatmulOp>(op.getOperation());
  if (!batch && !isa<linalg::MatmulOp>(op.getOperation()))
    return false;
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getIndexingMapsArray() != defaultMaps(op.getContext(), batch))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || !type.hasStaticShape())
      return false;
  }
  auto c = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (c.getShape().back() % panel != 0)
    return false;
  // One panel (K x P) is stack scratch: it must fit the stack promotion
  // fuel-bufferize-kernels allows by default.
  auto b = cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  int64_t elementBytes = b.getElementTypeBitWidth() / 8;
  if (b.getShape()[b.getRank() - 2] * panel * elementBytes > kMaxPanelBytes)
    return false;
  // C must be computed in place (the outliner's form: a fill of the output
  // binding, or the output itself): a C that starts as a tensor.empty would
  // become a temporary of the view's shape, which empty-tensor elimination
  // cannot replace by the output (the shapes differ).
  Value init = op.getDpsInits()[0];
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    init = fill.getDpsInits()[0];
  return !init.getDefiningOp<tensor::EmptyOp>();
}

RankedTensorType mlir::fuel::packedBType(RankedTensorType bType,
                                         int64_t panel) {
  RankedTensorType b3Type = splitLastType(bType, panel);
  SmallVector<int64_t> shape;
  for (int64_t i : panelPermutation(bType.getRank()))
    shape.push_back(b3Type.getShape()[i]);
  return RankedTensorType::get(shape, bType.getElementType());
}

SmallVector<float> mlir::fuel::packBValues(ArrayRef<float> values,
                                           ArrayRef<int64_t> shape,
                                           int64_t panel) {
  int64_t k = shape[shape.size() - 2], n = shape.back();
  int64_t batch = 1;
  for (int64_t d : shape.drop_back(2))
    batch *= d;
  SmallVector<float> result(values.size());
  // [e][r][j*P + p] -> [e][j][r][p].
  for (int64_t e = 0; e < batch; ++e)
    for (int64_t j = 0; j < n / panel; ++j)
      for (int64_t r = 0; r < k; ++r)
        for (int64_t p = 0; p < panel; ++p)
          result[((e * (n / panel) + j) * k + r) * panel + p] =
              values[(e * k + r) * n + j * panel + p];
  return result;
}

linalg::GenericOp mlir::fuel::packMatmulB(RewriterBase &rewriter,
                                          linalg::LinalgOp op, int64_t panel,
                                          Value panels) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  bool batch = isa<linalg::BatchMatmulOp>(op.getOperation());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);

  Value a = op.getDpsInputs()[0];
  Value b = op.getDpsInputs()[1];
  Value init = op.getDpsInits()[0];
  auto bType = cast<RankedTensorType>(b.getType());
  auto cType = cast<RankedTensorType>(init.getType());
  int64_t rank = bType.getRank();

  // B [.., K, N] -> [.., K, N/P, P] (a view) -> panels [.., N/P, K, P].
  if (!panels) {
    RankedTensorType b3Type = splitLastType(bType, panel);
    Value b3 = tensor::ExpandShapeOp::create(rewriter, loc, b3Type, b,
                                             splitLast(rank));
    Value panelsInit = tensor::EmptyOp::create(
        rewriter, loc, packedBType(bType, panel).getShape(),
        bType.getElementType());
    panels = linalg::TransposeOp::create(rewriter, loc, b3, panelsInit,
                                         panelPermutation(rank))
                 ->getResult(0);
  }

  // C's init, viewed as [.., M, N/P, P]; a fill is re-made on the view so
  // that the schedule fuses it into each panel.
  RankedTensorType c3Type = splitLastType(cType, panel);
  auto fill = init.getDefiningOp<linalg::FillOp>();
  bool refill = fill && init.hasOneUse();
  Value dest = refill ? fill.getDpsInits()[0] : init;
  Value c3 = tensor::ExpandShapeOp::create(rewriter, loc, c3Type, dest,
                                           splitLast(cType.getRank()));
  if (refill)
    c3 = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], c3)
             ->getResult(0);

  // Loops (.., m, n1, n0, k): A (.., m, k), panels (.., n1, k, n0),
  // C (.., m, n1, n0).
  unsigned lead = batch ? 1 : 0;
  unsigned numLoops = lead + 4;
  SmallVector<AffineExpr> d;
  for (unsigned i = 0; i < numLoops; ++i)
    d.push_back(getAffineDimExpr(i, ctx));
  SmallVector<AffineExpr> aExprs(d.begin(), d.begin() + lead);
  SmallVector<AffineExpr> bExprs = aExprs, cExprs = aExprs;
  AffineExpr m = d[lead], n1 = d[lead + 1], n0 = d[lead + 2], k = d[lead + 3];
  aExprs.append({m, k});
  bExprs.append({n1, k, n0});
  cExprs.append({m, n1, n0});
  SmallVector<AffineMap> maps{AffineMap::get(numLoops, 0, aExprs, ctx),
                              AffineMap::get(numLoops, 0, bExprs, ctx),
                              AffineMap::get(numLoops, 0, cExprs, ctx)};
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;

  Block &body = op->getRegion(0).front();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{c3Type}, ValueRange{a, panels}, ValueRange{c3},
      maps, iterators, [&](OpBuilder &nested, Location, ValueRange args) {
        IRMapping mapping;
        mapping.map(body.getArguments(), args);
        for (Operation &inner : body.without_terminator())
          nested.clone(inner, mapping);
        SmallVector<Value> yielded;
        for (Value v : body.getTerminator()->getOperands())
          yielded.push_back(mapping.lookupOrDefault(v));
        linalg::YieldOp::create(nested, loc, yielded);
      });

  Value result = tensor::CollapseShapeOp::create(
      rewriter, loc, cType, generic->getResult(0), splitLast(cType.getRank()));
  rewriter.replaceOp(op, result);
  if (refill && fill->use_empty())
    rewriter.eraseOp(fill);
  return generic;
}
