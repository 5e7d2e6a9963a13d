//===- InsertResidencyCopies.cpp - The copies a placement needs -----------===//
//
// fuel-insert-residency-copies: SEMANTICS §5 and §8. Turns a placement into
// IR: every root of the function's value flow (collectFlow) but a load-time
// constant gets exactly its copy set as fuel.copy ops (computed by
// fuel::plan::TransferModel::copySet, the function the objective prices),
// readers are rewired to the copy on their device, and views of a moved
// value are re-made on the target.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Planner/Transfer.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Planning/ValueFlow.h"

#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <map>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELINSERTRESIDENCYCOPIESPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-insert-residency-copies"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

namespace {

/// The attribute of a `fuel.copy` holding the planner's price of the hop,
/// which fuel-plan-buffers carries onto the host program's `fuel.transfer`.
constexpr llvm::StringLiteral kCopyPredictedNs = "predicted_ns";
struct InsertResidencyCopiesPass
    : public mlir::fuel::impl::FuelInsertResidencyCopiesPassBase<
          InsertResidencyCopiesPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void InsertResidencyCopiesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  std::optional<PlanContext> planCtx =
      planContextFor(func, [&] { signalPassFailure(); });
  if (!planCtx)
    return;
  if (failed(verifyResidencies(func, planCtx->devices)))
    return signalPassFailure();
  Block &block = func.getBody().front();
  MLIRContext *ctx = &getContext();
  plan::TransferModel transfers(planCtx->topology);

  // Copies already in the IR are transparent: remove them, then rebuild.
  for (CopyOp copy : llvm::make_early_inc_range(block.getOps<CopyOp>())) {
    copy.getResult().replaceAllUsesWith(copy.getSource());
    copy.erase();
  }

  // Who reads each root, on which device (SEMANTICS §5).
  ValueFlow flow = collectFlow(func);
  for (NodeOp node : flow.nodes)
    if (!isa_and_nonnull<DeviceAttr>(node.getPlacementAttr())) {
      node.emitError() << describeNode(node)
                       << " has no placement; run fuel-place first";
      return signalPassFailure();
    }

  OpBuilder argBuilder = OpBuilder::atBlockBegin(&block);
  int64_t copiesNs = 0;
  uint64_t copies = 0, bytesMoved = 0;
  // Roots in program order: arguments, then op results.
  for (const FlowRoot &flowRoot : flow.roots) {
    // Load-time data is on every device that reads it: no copy (SEMANTICS
    // §8).
    if (flowRoot.kind == RootKind::Constant)
      continue;
    Value root = flowRoot.value;
    plan::Device source = *flowRoot.device;
    SmallVector<plan::Device, 4> targets = flow.readDevices(flowRoot);
    llvm::erase(targets, source);
    if (targets.empty())
      continue;
    uint64_t bytes = flowRoot.bytes;
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
      // The planner's price of this hop, for the executable's report.
      copy->setAttr(kCopyPredictedNs,
                    IntegerAttr::get(IntegerType::get(ctx, 64), hop.ns));
      on[hop.to] = copy.getResult();
      copiesNs = plan::satAdd(copiesNs, hop.ns);
      bytesMoved = plan::satAddU(bytesMoved, bytes);
      ++copies;
    }

    // Readers elsewhere read the copy on their device, through views
    // re-made there, shared by readers on that device.
    std::map<std::pair<Operation *, plan::Device>, Value> remade;
    for (unsigned index : flowRoot.readers) {
      const FlowReader &r = flow.readers[index];
      if (*r.device == source)
        continue;
      Value current = on.at(*r.device);
      // The old copies are gone, so the chain holds views only.
      for (Operation *view : r.chain) {
        auto key = std::make_pair(view, *r.device);
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
