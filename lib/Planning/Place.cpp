//===- Place.cpp - Transfer-priced placement of a function's nodes --------===//
//
// fuel-place: SEMANTICS §5. The pass builds fuel::plan's placement problem
// from a function's value flow (collectFlow) — nodes with the time of their
// best candidate on each admitted device, values with their bytes, producer
// and readers (views and copies transparent; load-time constants are no
// values, they are never copied) — solves it with the chosen algorithm, and
// writes the placement, the pruned alternatives with their inbound transfer
// terms, the best other device of each node and the function's predicted
// time.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Placement.h"
#include "fuel/Planner/Transfer.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Planning/ValueFlow.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELPLACEPASS
#include "fuel/Planning/Passes.h.inc"
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
      c.getTimeSource(), c.getNoiseNs(), c.getStaticTimeNs(), c.getHostBytes(),
      c.getDeviceBytes(), transferNs, c.getParams(), c.getCoupling(),
      c.getRevision(), c.getPriority(), c.getFallback());
}

namespace {
struct PlacePass : public mlir::fuel::impl::FuelPlacePassBase<PlacePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void PlacePass::runOnOperation() {
  func::FuncOp func = getOperation();
  std::optional<PlanContext> planCtx =
      planContextFor(func, [&] { signalPassFailure(); });
  if (!planCtx)
    return;
  ValueFlow flow = collectFlow(func);
  SmallVector<NodeOp> &nodeOps = flow.nodes;
  // Parsed by the option itself: an unknown name fails at option parsing.
  plan::PlacementAlgorithm algorithm = placementAlgorithm;
  MLIRContext *ctx = &getContext();
  plan::TransferModel transfers(planCtx->topology);
  plan::PlacementProblem problem;
  problem.transfers = &transfers;
  problem.devices = planCtx->devices;

  // Where arguments live and results must end (SEMANTICS §5): their
  // residency, else the pinned device, else the host.
  if (failed(verifyResidencies(func, problem.devices)))
    return signalPassFailure();

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

  // Values: every root some node, host op or return reads (views and
  // copies transparent), in order of first read, with the devices that read
  // it. Load-time constants are not values of the problem: they are on
  // every reading device when the executable is loaded, so no placement
  // copies them (SEMANTICS §5).
  std::vector<std::optional<unsigned>> valueOfRoot(flow.roots.size());
  for (const FlowReader &r : flow.readers) {
    const FlowRoot &root = flow.roots[r.root];
    if (root.kind == RootKind::Constant)
      continue;
    std::optional<unsigned> &v = valueOfRoot[r.root];
    if (!v) {
      v = problem.values.size();
      problem.values.push_back(
          root.kind == RootKind::Node
              ? plan::PlaceValue::ofNode(nodeIndex.lookup(root.node),
                                         root.bytes)
              : plan::PlaceValue::onDevice(*root.device, root.bytes));
    }
    plan::PlaceValue &value = problem.values[*v];
    if (r.reader == FlowOpKind::Node) {
      // Readers arrive in node order, so a repeat is always the last.
      unsigned n = nodeIndex.lookup(r.node);
      if (value.consumers.empty() || value.consumers.back() != n)
        value.consumers.push_back(n);
    } else {
      // A host op reads on the host, a return on the result's residency.
      value.fixedConsumers.push_back(*r.device);
    }
  }
  llvm::Expected<plan::PlacementResult> result =
      plan::solvePlacement(problem, algorithm);
  if (!result) {
    (void)emitPlanError(func, result.takeError(),
                        "cannot place function '" + func.getSymName().str() +
                            "': ");
    return signalPassFailure();
  }
  // SEMANTICS §5: exact-tree says when its result is not exact; the other
  // heuristics say so only when asked to explain.
  if (!result->exact && !result->note.empty() && problem.numFreeNodes() > 0 &&
      (explain || algorithm == plan::PlacementAlgorithm::ExactTree))
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
