//===- FormNodes.cpp - Wrap kernel-bearing ops into fuel.node -------------===//
//
// fuel-form-nodes (SEMANTICS §4; IR stage 3 of docs/ARCHITECTURE.md): each
// kernel-bearing op becomes an isolated fuel.node holding the op, clones of
// its init chain and of the scalar and splat constants it uses; every other
// value it reads becomes an operand — a non-splat tensor constant among
// them, which stays outside as load-time data (SEMANTICS §5).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Planning/ValueFlow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELFORMNODESPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-form-nodes"

using namespace mlir;
using namespace mlir::fuel;

/// True for a constant a node clones instead of reading as an operand: a
/// scalar, or a splat tensor (SEMANTICS §4).
static bool isClonableConstant(Operation *op) {
  auto constant = dyn_cast_or_null<arith::ConstantOp>(op);
  if (!constant)
    return false;
  if (!isa<ShapedType>(constant.getType()))
    return true;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && dense.isSplat();
}

/// True when `type` is a tensor with a dynamic or unknown shape.
static bool isDynamicTensor(Type type) {
  if (isa<UnrankedTensorType>(type))
    return true;
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && !ranked.hasStaticShape();
}

namespace {
struct FormNodesPass
    : public mlir::fuel::impl::FuelFormNodesPassBase<FormNodesPass> {
  using Base::Base;

  /// Ops a node's init chain may clone: `tensor.empty`, and a `linalg.fill`
  /// of a scalar into a `tensor.empty`, each used only as destinations of
  /// kernel-bearing ops.
  llvm::DenseSet<Operation *> initOps;

  /// True when every use of `op`'s results is a destination operand of a
  /// kernel-bearing op.
  static bool usedOnlyAsInit(Operation *op) {
    for (OpOperand &use : op->getUses()) {
      Operation *user = use.getOwner();
      if (!isKernelBearing(user))
        return false;
      if (isPoolWindow(use))
        continue;
      auto dps = dyn_cast<DestinationStyleOpInterface>(user);
      if (!dps || !dps.isDpsInit(&use))
        return false;
    }
    return !op->use_empty();
  }

  /// True when `use` is the window operand of a pooling op: a tensor whose
  /// shape is the window and whose contents are never read, so it is made
  /// inside the node like a destination instead of being moved.
  static bool isPoolWindow(OpOperand &use) {
    Operation *user = use.getOwner();
    return isPoolingOp(user) && use.getOperandNumber() == 1;
  }

  /// True when `op` is a fill of a scalar into a fresh tensor.
  static bool isInitFill(Operation *op) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (!fill || !fill.hasPureTensorSemantics())
      return false;
    Value dest = fill.getDpsInits().front();
    return dest.getDefiningOp<tensor::EmptyOp>() &&
           !isa<ShapedType>(fill.getDpsInputs().front().getType());
  }

  LogicalResult checkShape(func::FuncOp func);
  void formNode(Operation *root, int64_t id, OpKind kind);
  void runOnOperation() override;
};
} // namespace

/// SEMANTICS §4: single-block functions with static shapes, no nested
/// regions outside kernel-bearing ops, tensors only.
LogicalResult FormNodesPass::checkShape(func::FuncOp func) {
  if (func.isExternal())
    return success();
  Region &body = func.getBody();
  if (!body.hasOneBlock()) {
    Operation *first = &body.getBlocks().back().front();
    return first->emitError()
           << "function '" << func.getSymName()
           << "' has several blocks; fuel plans single-block functions only";
  }
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (isDynamicTensor(type))
      return emitFunctionError(func)
             << "argument #" << i << " of function '" << func.getSymName()
             << "' has dynamic shape " << type
             << "; fuel plans static shapes only";
  for (Operation &op : body.front()) {
    // linalg.softmax has no region, so buffers are checked for it apart.
    if (isa<linalg::LinalgOp, linalg::SoftmaxOp>(op) && !isKernelBearing(&op))
      return op.emitError()
             << "'" << op.getName()
             << "' works on buffers; fuel plans linalg ops on tensors only";
    // tensor.pad and tensor.generate hold a scalar body, not control flow:
    // they are host ops, compiled as CPU kernels by the lowering.
    if (op.getNumRegions() > 0 && !isa<NodeOp>(op) && !isKernelBearing(&op) &&
        !isa<tensor::PadOp, tensor::GenerateOp>(op))
      return op.emitError() << "'" << op.getName()
                            << "' has nested regions; fuel plans functions "
                               "without control flow only";
    for (Type t : op.getResultTypes())
      if (isDynamicTensor(t))
        return op.emitError() << "result of type " << t
                              << " has a dynamic shape; fuel plans static "
                                 "shapes only";
    for (Type t : op.getOperandTypes())
      if (isDynamicTensor(t))
        return op.emitError() << "operand of type " << t
                              << " has a dynamic shape; fuel plans static "
                                 "shapes only";
  }
  return success();
}

void FormNodesPass::formNode(Operation *root, int64_t id, OpKind kind) {
  OpBuilder builder(root);
  Location loc = root->getLoc();

  // The init chain to clone: destinations (and pooling windows) made by
  // tensor.empty or by a scalar fill of one, used only that way.
  SmallVector<Operation *, 4> chain;
  llvm::SmallDenseSet<Value, 4> chainValues;
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(root)) {
    SmallVector<Value, 2> made = dps.getDpsInits();
    if (isPoolingOp(root) && root->getNumOperands() > 1)
      made.push_back(root->getOperand(1)); // the window
    for (Value init : made) {
      Operation *def = init.getDefiningOp();
      if (!def || !initOps.contains(def))
        continue;
      if (auto fill = dyn_cast<linalg::FillOp>(def)) {
        Operation *empty = fill.getDpsInits().front().getDefiningOp();
        if (!llvm::is_contained(chain, empty))
          chain.push_back(empty);
      }
      if (!llvm::is_contained(chain, def))
        chain.push_back(def);
      chainValues.insert(init);
    }
  }

  // Values read from outside, in first-use order: the root's operands (bar
  // cloned inits), values its payload captures, and the fills' scalars.
  llvm::SetVector<Value> outside;
  for (Operation *op : chain)
    for (Value v : op->getOperands())
      if (!v.getDefiningOp() || !llvm::is_contained(chain, v.getDefiningOp()))
        outside.insert(v);
  for (Value v : root->getOperands())
    if (!chainValues.contains(v))
      outside.insert(v);
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(root->getRegions(), captured);
  outside.insert(captured.begin(), captured.end());

  SmallVector<Value> operands;
  SmallVector<Operation *> constants;
  for (Value v : outside) {
    Operation *def = v.getDefiningOp();
    if (isClonableConstant(def)) {
      constants.push_back(def);
      initOps.insert(def); // erased below when left without users
    } else {
      operands.push_back(v);
    }
  }

  auto node =
      NodeOp::create(builder, loc, root->getResultTypes(), operands, id, kind);
  for (auto [from, to] : llvm::zip(root->getResults(), node.getResults()))
    from.replaceAllUsesWith(to);

  // Carry the frontend annotations over (SEMANTICS §1).
  if (Attribute pin = root->removeAttr(FuelDialect::kPinAttrName))
    node.setPinAttr(cast<PlacementAttrInterface>(pin));
  if (Attribute kernel = root->removeAttr(FuelDialect::kKernelAttrName))
    node.setKernelAttr(cast<StringAttr>(kernel));
  if (root->removeAttr(FuelDialect::kDestructiveAttrName))
    node.setDestructive(true);
  if (Attribute coupling = root->removeAttr(FuelDialect::kCouplingAttrName))
    node.setCouplingAttr(cast<ArrayAttr>(coupling));

  Block *body = &node.getBodyBlock();
  IRMapping mapping;
  for (auto [v, arg] : llvm::zip(operands, body->getArguments()))
    mapping.map(v, arg);
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  for (Operation *c : constants)
    inner.clone(*c, mapping);
  for (Operation *op : chain)
    inner.clone(*op, mapping);
  root->moveBefore(body, body->end());
  // Rewire the moved op (and its payload's captures) to the body's values.
  root->walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands())
      if (Value mapped = mapping.lookupOrNull(use.get()))
        use.set(mapped);
  });
  inner.setInsertionPointToEnd(body);
  YieldOp::create(inner, loc, root->getResults());
}

void FormNodesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal())
    return;
  if (failed(checkShape(func)))
    return signalPassFailure();

  Block &block = func.getBody().front();
  int64_t nextId = 0;
  bool failedKernel = false;
  SmallVector<std::pair<Operation *, OpKind>> roots;
  initOps.clear();
  for (Operation &op : block) {
    if (auto node = dyn_cast<NodeOp>(op)) {
      nextId = std::max(nextId, node.getIdAttr().getInt() + 1);
      continue;
    }
    if (isa<tensor::EmptyOp>(op) && usedOnlyAsInit(&op)) {
      initOps.insert(&op);
      continue;
    }
    if (isInitFill(&op) && usedOnlyAsInit(&op)) {
      initOps.insert(&op);
      continue;
    }
    if (std::optional<::fuel::plan::OpKind> kind = classifyKernelOp(&op)) {
      roots.emplace_back(&op, fromPlan(*kind));
      continue;
    }
    // A kernel can be chosen only for a node (SEMANTICS §1): on any other
    // op the annotation would be silently ignored.
    if (op.hasAttr(FuelDialect::kKernelAttrName)) {
      op.emitError() << "'" << FuelDialect::kKernelAttrName << "' on '"
                     << op.getName()
                     << "', which is not a kernel-bearing op; only nodes "
                        "choose among registry kernels";
      failedKernel = true;
    }
    // What is left runs on the host, by the value flow's rule.
    if (classifyFlowOp(&op) == FlowOpKind::Host)
      ++numHostOps;
  }
  if (failedKernel)
    return signalPassFailure();
  // A fill's empty is part of its chain even when the fill is the only user.
  for (Operation &op : block)
    if (auto fill = dyn_cast<linalg::FillOp>(op); fill && initOps.contains(&op))
      initOps.insert(fill.getDpsInits().front().getDefiningOp());

  for (auto [root, kind] : roots)
    formNode(root, nextId++, kind);
  numNodes += roots.size();

  // Init-chain ops and constants now cloned into every node that used them.
  // Reverse order erases a fill before the empty it fills.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (initOps.contains(&op) && op.use_empty())
      op.erase();
}
