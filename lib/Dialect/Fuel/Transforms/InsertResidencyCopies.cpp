//===- InsertResidencyCopies.cpp - The copies a placement needs -----------===//
//
// fuel-insert-residency-copies: SEMANTICS §5 and §8. Turns a placement into
// IR: every value gets exactly its copy set as fuel.copy ops (computed by
// fuel::plan::TransferModel::copySet, the function the objective prices),
// readers are rewired to the copy on their device, and views of a moved
// value are re-made on the target.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/Transforms/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/Transforms/NodeAnalysis.h"
#include "fuel/Dialect/Fuel/Transforms/PlanState.h"
#include "fuel/Dialect/Fuel/Transforms/ValueFlow.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Planner/Transfer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <map>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELINSERTRESIDENCYCOPIESPASS
#include "fuel/Dialect/Fuel/Transforms/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-insert-residency-copies"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

namespace {
/// One operand that needs a value on a device.
struct Reader {
  OpOperand *use;
  plan::Device device;
};

struct InsertResidencyCopiesPass
    : public mlir::fuel::impl::FuelInsertResidencyCopiesPassBase<
          InsertResidencyCopiesPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// The view ops between `v` and its root, root-most first.
static SmallVector<Operation *, 2> viewChain(Value v) {
  SmallVector<Operation *, 2> chain;
  while (Operation *def = v.getDefiningOp()) {
    Value source = getViewSource(def);
    if (!source)
      break;
    chain.push_back(def);
    v = source;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

void InsertResidencyCopiesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  FailureOr<std::optional<PlanContext>> context = planContextFor(func);
  if (failed(context))
    return signalPassFailure();
  if (!*context)
    return;
  const PlanContext *planCtx = &**context;
  if (failed(verifyResidencies(func, planCtx->devices)))
    return signalPassFailure();
  Block &block = func.getBody().front();
  MLIRContext *ctx = &getContext();
  plan::TransferModel transfers(planCtx->topology);
  plan::Device fallback = defaultResidency(planCtx->config);

  // Copies already in the IR are transparent: remove them, then rebuild.
  for (CopyOp copy : llvm::make_early_inc_range(block.getOps<CopyOp>())) {
    copy.getResult().replaceAllUsesWith(copy.getSource());
    copy.erase();
  }

  // Who reads each root value, and on which device.
  llvm::MapVector<Value, SmallVector<Reader, 4>> readers;
  auto read = [&](OpOperand &use, plan::Device device) {
    if (!isa<ShapedType>(use.get().getType()))
      return; // scalars travel by value
    readers[rootValue(use.get())].push_back({&use, device});
  };
  for (Operation &op : block) {
    if (auto node = dyn_cast<NodeOp>(op)) {
      auto placed = dyn_cast_or_null<DeviceAttr>(node.getPlacementAttr());
      if (!placed) {
        node.emitError() << describeNode(node)
                         << " has no placement; run fuel-place first";
        return signalPassFailure();
      }
      for (OpOperand &use : node->getOpOperands())
        read(use, toPlan(placed));
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (OpOperand &use : ret->getOpOperands())
        read(use, resultResidency(func, use.getOperandNumber(), fallback));
      continue;
    }
    if (isViewOp(&op) || isa<arith::ConstantOp>(op))
      continue;
    for (OpOperand &use : op.getOpOperands()) // a host op reads on the host
      read(use, plan::Device::cpu());
  }

  // Where each root lives (SEMANTICS §5).
  auto sourceOf = [&](Value root) -> plan::Device {
    if (auto node = root.getDefiningOp<NodeOp>())
      return toPlan(cast<DeviceAttr>(node.getPlacementAttr()));
    if (auto arg = dyn_cast<BlockArgument>(root))
      return argumentResidency(func, arg.getArgNumber(), fallback);
    return plan::Device::cpu();
  };

  // Roots in program order: arguments, then op results.
  SmallVector<Value> roots;
  for (BlockArgument arg : block.getArguments())
    if (readers.count(arg))
      roots.push_back(arg);
  for (Operation &op : block)
    for (Value r : op.getResults())
      if (readers.count(r))
        roots.push_back(r);

  OpBuilder argBuilder = OpBuilder::atBlockBegin(&block);
  int64_t copiesNs = 0;
  uint64_t copies = 0, bytesMoved = 0;
  for (Value root : roots) {
    SmallVector<Reader, 4> &list = readers[root];
    plan::Device source = sourceOf(root);
    SmallVector<plan::Device, 4> targets;
    for (const Reader &r : list)
      if (r.device != source && !llvm::is_contained(targets, r.device))
        targets.push_back(r.device);
    if (targets.empty())
      continue;
    llvm::sort(targets);
    uint64_t bytes = valueBytes(root.getType());
    plan::CopySet set = transfers.copySet(source, targets, bytes);

    // The hops, in the copy set's order (the shared host hop first).
    OpBuilder opBuilder(ctx);
    OpBuilder *b = &argBuilder;
    if (Operation *def = root.getDefiningOp()) {
      opBuilder.setInsertionPointAfter(def);
      b = &opBuilder;
    }
    std::map<plan::Device, Value> on;
    on[source] = root;
    for (const plan::Hop &hop : set.hops) {
      auto copy =
          CopyOp::create(*b, root.getLoc(), on.at(hop.from),
                         fromPlan(ctx, hop.from), fromPlan(ctx, hop.to));
      on[hop.to] = copy.getResult();
      copiesNs = plan::satAdd(copiesNs, hop.ns);
      bytesMoved = plan::satAddU(bytesMoved, bytes);
      ++copies;
    }

    // Readers elsewhere read the copy on their device, through views
    // re-made there, shared by readers on that device.
    std::map<std::pair<Operation *, plan::Device>, Value> remade;
    for (const Reader &r : list) {
      if (r.device == source)
        continue;
      Value current = on.at(r.device);
      for (Operation *view : viewChain(r.use->get())) {
        auto key = std::make_pair(view, r.device);
        auto it = remade.find(key);
        if (it == remade.end()) {
          OpBuilder vb(r.use->getOwner());
          IRMapping mapping;
          mapping.map(getViewSource(view), current);
          it = remade.try_emplace(key, vb.clone(*view, mapping)->getResult(0))
                   .first;
        }
        current = it->second;
      }
      r.use->set(current);
    }
  }

  // Views nobody reads any more (their readers moved to re-made ones).
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isViewOp(&op) && op.use_empty())
      op.erase();

  numCopies += copies;
  numBytes += bytesMoved;

  // SEMANTICS §8: the copies cost exactly what the objective charged.
  if (auto predicted =
          func->getAttrOfType<PredictedAttr>(FuelDialect::kPredictedNsAttrName);
      predicted && predicted.getCopies() != copiesNs) {
    emitFunctionError(func)
        << "the inserted copies cost " << copiesNs
        << " ns but the placement charged " << predicted.getCopies()
        << " ns; the function was changed after fuel-place";
    return signalPassFailure();
  }
}
