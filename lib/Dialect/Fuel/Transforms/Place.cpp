//===- Place.cpp - Transfer-priced placement of a function's nodes --------===//
//
// fuel-place: SEMANTICS §5. The pass builds fuel::plan's placement problem
// from a function — nodes with the time of their best candidate on each
// admitted device, values with their bytes, producer and readers (views and
// copies transparent) — solves it with the chosen algorithm, and writes the
// placement, the pruned alternatives with their inbound transfer terms, the
// best other device of each node and the function's predicted time.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/Transforms/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/Transforms/NodeAnalysis.h"
#include "fuel/Dialect/Fuel/Transforms/PlanState.h"
#include "fuel/Dialect/Fuel/Transforms/ValueFlow.h"
#include "fuel/Planner/Placement.h"
#include "fuel/Planner/Transfer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELPLACEPASS
#include "fuel/Dialect/Fuel/Transforms/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-place"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

/// The coupling adjustments of a candidate attribute.
static std::vector<plan::CouplingAdjustment> couplingsOf(CandidateAttr c) {
  std::vector<plan::CouplingAdjustment> out;
  for (Attribute a : c.getCoupling())
    out.push_back(toPlan(cast<CouplingAttr>(a)));
  return out;
}

/// A copy of `c` with its inbound transfer term set to `transferNs`.
static CandidateAttr withTransfer(CandidateAttr c, int64_t transferNs) {
  if (c.getTransferNs() == transferNs)
    return c;
  return CandidateAttr::get(
      c.getContext(), c.getKernelId(), c.getSource(), c.getBackend(),
      c.getDevice(), c.getCaps(), c.getPrecision(), c.getCost(), c.getTimeNs(),
      c.getTimeSource(), c.getHostBytes(), c.getDeviceBytes(), transferNs,
      c.getParams(), c.getCoupling(), c.getRevision(), c.getPriority(),
      c.getFallback());
}

namespace {
struct PlacePass : public mlir::fuel::impl::FuelPlacePassBase<PlacePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void PlacePass::runOnOperation() {
  func::FuncOp func = getOperation();
  FailureOr<std::optional<PlanContext>> context = planContextFor(func);
  if (failed(context))
    return signalPassFailure();
  if (!*context)
    return;
  const PlanContext *planCtx = &**context;
  Block &block = func.getBody().front();
  auto nodeOps = llvm::to_vector(block.getOps<NodeOp>());
  std::optional<plan::PlacementAlgorithm> algorithm =
      plan::symbolizePlacementAlgorithm(placementAlgorithm);
  if (!algorithm) {
    emitFunctionError(func)
        << "unknown placement-algorithm '" << placementAlgorithm
        << "'; expected auto, greedy, exact-tree, mincut or "
           "brute-force";
    return signalPassFailure();
  }
  MLIRContext *ctx = &getContext();
  plan::TransferModel transfers(planCtx->topology);
  plan::PlacementProblem problem;
  problem.transfers = &transfers;
  problem.devices = planCtx->devices;

  // Where arguments live and results must end (SEMANTICS §5): their
  // residency, else the pinned device, else the host.
  if (failed(verifyResidencies(func, problem.devices)))
    return signalPassFailure();
  plan::Device fallbackResidency = defaultResidency(planCtx->config);

  // Nodes: the best candidate per admitted device (sets are ranked).
  llvm::DenseMap<Operation *, unsigned> nodeIndex;
  for (NodeOp node : nodeOps) {
    AlternativeSetAttr set = requireAlternatives(node);
    if (!set)
      return signalPassFailure();
    plan::PlaceNode pn;
    pn.id = node.getIdAttr().getInt();
    pn.decisionDevice = toPlan(set.getDecision().getDevice());
    for (CandidateAttr c : set.getCandidates()) {
      plan::Device d = toPlan(c.getDevice());
      if (pn.option(d))
        continue;
      pn.options.push_back({d, c.getTimeNs(), couplingsOf(c)});
    }
    nodeIndex[node] = problem.nodes.size();
    problem.nodes.push_back(std::move(pn));
  }

  // Values: node results, arguments, host-op results and constants, each
  // with the devices that read it.
  llvm::DenseMap<Value, unsigned> valueIndex;
  auto valueOf = [&](Value v) -> std::optional<unsigned> {
    v = rootValue(v);
    if (!isa<ShapedType>(v.getType()))
      return std::nullopt; // scalars travel by value, free
    auto [it, inserted] = valueIndex.try_emplace(v, problem.values.size());
    if (!inserted)
      return it->second;
    uint64_t bytes = valueBytes(v.getType());
    if (auto node = v.getDefiningOp<NodeOp>())
      problem.values.push_back(
          plan::PlaceValue::ofNode(nodeIndex.lookup(node), bytes));
    else if (auto arg = dyn_cast<BlockArgument>(v))
      problem.values.push_back(plan::PlaceValue::onDevice(
          argumentResidency(func, arg.getArgNumber(), fallbackResidency),
          bytes));
    else
      problem.values.push_back(
          plan::PlaceValue::onDevice(plan::Device::cpu(), bytes));
    return it->second;
  };
  for (Operation &op : block) {
    if (auto node = dyn_cast<NodeOp>(op)) {
      unsigned n = nodeIndex.lookup(node);
      for (Value in : node.getInputs())
        if (std::optional<unsigned> v = valueOf(in)) {
          // Readers arrive in node order, so a repeat is always the last.
          std::vector<unsigned> &readers = problem.values[*v].consumers;
          if (readers.empty() || readers.back() != n)
            readers.push_back(n);
        }
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
        if (std::optional<unsigned> v = valueOf(operand))
          problem.values[*v].fixedConsumers.push_back(
              resultResidency(func, i, fallbackResidency));
      continue;
    }
    if (isViewOp(&op) || isa<CopyOp, arith::ConstantOp>(op))
      continue;
    // A host op: it runs on the host and reads its tensors there.
    for (Value operand : op.getOperands())
      if (std::optional<unsigned> v = valueOf(operand))
        problem.values[*v].fixedConsumers.push_back(plan::Device::cpu());
  }
  llvm::Expected<plan::PlacementResult> result =
      plan::solvePlacement(problem, *algorithm);
  if (!result) {
    (void)emitPlanError(func, result.takeError(),
                        "cannot place function '" + func.getSymName().str() +
                            "': ");
    return signalPassFailure();
  }
  // SEMANTICS §5: exact-tree says when its result is not exact; the other
  // heuristics say so only when asked to explain.
  if (!result->exact && !result->note.empty() && problem.numFreeNodes() > 0 &&
      (explain || *algorithm == plan::PlacementAlgorithm::ExactTree))
    emitFunctionRemark(func)
        << "placement of '" << func.getSymName()
        << "' is not known to be optimal: " << result->note;

  std::vector<plan::MoveDelta> moves =
      plan::bestOtherDevice(problem, result->placement);
  std::vector<int64_t> inbound =
      plan::inboundTransferNs(problem, result->placement);

  for (auto [i, node] : llvm::enumerate(nodeOps)) {
    plan::Device placed = result->placement[i];
    DeviceAttr placedAttr = fromPlan(ctx, placed);
    AlternativeSetAttr set = node.getAlternativesAttr();
    SmallVector<CandidateAttr> kept;
    for (CandidateAttr c : set.getCandidates())
      if (c.getDevice() == placedAttr)
        kept.push_back(withTransfer(c, inbound[i]));
    AlternativeSetAttr pruned =
        AlternativeSetAttr::get(ctx, set.getDecision(), kept);
    if (pruned != set)
      node.setAlternativesAttr(pruned);
    node.setPlacementAttr(placedAttr);
    if (moves[i].device) {
      node.setNextBestDeviceAttr(fromPlan(ctx, *moves[i].device));
      node.setNextBestDeltaNsAttr(
          IntegerAttr::get(IntegerType::get(ctx, 64), moves[i].deltaNs));
    }
    // A node with one admitted device keeps a `next_best` recorded when it
    // had more: placing placed IR again (whose sets are pruned to one
    // device) then changes nothing.
    if (placed != problem.nodes[i].decisionDevice)
      ++numMoved;
    if (explain) {
      InFlightDiagnostic diag = node.emitRemark();
      diag << describeNode(node) << ": placed on " << placed.str() << " ("
           << kept.front().getKernelId() << ", " << kept.front().getTimeNs()
           << " ns, inbound transfers " << inbound[i] << " ns)";
      if (moves[i].device)
        diag << "; moving it alone to " << moves[i].device->str()
             << " would change the total by "
             << (moves[i].deltaNs >= 0 ? "+" : "") << moves[i].deltaNs << " ns";
      else
        diag << "; it has no other admitted device";
    }
  }
  const plan::Objective &o = result->objective;
  func->setAttr(
      FuelDialect::kPredictedNsAttrName,
      PredictedAttr::get(ctx, o.totalNs, o.nodesNs, o.copiesNs, o.couplingNs));
}
