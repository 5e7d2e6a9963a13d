//===- EnumerateCandidates.cpp - Decision context and admitted candidates -===//
//
// fuel-enumerate-candidates: SEMANTICS §3 steps 1-4 for every node of a
// function. The admission table and error messages live in lib/Planner;
// the registry and candidate construction from it in lib/Target; this pass
// reads the node's facts, takes the registry from the context (Passes.h,
// getKernelRegistry) and writes the node's alternative set.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Admission.h"
#include "fuel/Planner/Error.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Target/Candidates.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELENUMERATECANDIDATESPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-enumerate-candidates"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;
namespace target = ::fuel::target;

namespace {
struct EnumerateCandidatesPass
    : public mlir::fuel::impl::FuelEnumerateCandidatesPassBase<
          EnumerateCandidatesPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// The frontend coupling entries of `node` that name the node's device
/// (SEMANTICS §1: enumeration copies them onto the candidates of that
/// device).
static std::vector<target::NodeCoupling> nodeCouplings(NodeOp node) {
  std::vector<target::NodeCoupling> out;
  std::optional<ArrayAttr> list = node.getCoupling();
  if (!list)
    return out;
  for (Attribute a : *list) {
    auto c = cast<CouplingAttr>(a);
    if (c.getOn())
      out.push_back({toPlan(c.getOn()), toPlan(c)});
  }
  return out;
}

void EnumerateCandidatesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  std::optional<PlanContext> planCtx =
      planContextFor(func, [&] { signalPassFailure(); });
  if (!planCtx)
    return;
  auto nodes = func.getBody().front().getOps<NodeOp>();
  MLIRContext *ctx = &getContext();
  const target::KernelRegistry &registry = getKernelRegistry(ctx);
  PlanConfigAttr config = planCtx->config;
  // SEMANTICS §3 step 3: the admitted kernel sources, from the option, else
  // the configuration.
  std::vector<target::KernelSource> sources = config.getSourceList();
  if (!kernelSources.empty()) {
    llvm::Expected<std::vector<target::KernelSource>> parsed =
        target::parseKernelSources(kernelSources);
    if (!parsed) {
      emitFunctionError(func)
          << "invalid 'kernel-sources' option '" << kernelSources
          << "': " << llvm::toString(parsed.takeError());
      return signalPassFailure();
    }
    sources = std::move(*parsed);
  }
  std::optional<plan::Device> pipelineDevice;
  if (DeviceAttr d = config.getPinnedDevice())
    pipelineDevice = toPlan(d);

  std::vector<std::string> devicesPresent, registered;
  for (plan::Device d : planCtx->devices)
    devicesPresent.push_back(d.str());
  for (const target::KernelCombination &c : registry.allCombinations())
    registered.push_back(c.str());

  // Nodes with equal facts get the same set: compute it once.
  llvm::StringMap<AlternativeSetAttr> memo;
  bool failedAny = false;
  bool changed = false;
  for (NodeOp node : nodes) {
    Operation *root = getNodeRoot(node);
    FailureOr<NodeFacts> facts =
        root ? analyzeKernelOp(root) : FailureOr<NodeFacts>(failure());
    if (failed(facts)) {
      node.emitError() << describeNode(node)
                       << " has no kernel-bearing root op with static shapes "
                          "yielding its first result";
      failedAny = true;
      continue;
    }
    plan::OpKind kind = toPlan(node.getKind());
    if (facts->kind != kind) {
      node.emitError() << describeNode(node) << " is marked '"
                       << plan::stringifyOpKind(kind) << "' but its root '"
                       << root->getName() << "' is of kind '"
                       << plan::stringifyOpKind(facts->kind) << "'";
      failedAny = true;
      continue;
    }

    // SEMANTICS §3 step 1: the decision device.
    std::optional<plan::Device> pin;
    if (PlacementAttrInterface p = node.getPinAttr())
      if (auto d = dyn_cast_or_null<DeviceAttr>(p.getSingleDevice()))
        pin = toPlan(d);
    llvm::Expected<plan::Device> decision =
        plan::decideDevice(pin, pipelineDevice, describeNode(node));
    if (!decision) {
      (void)emitPlanError(node, decision.takeError());
      failedAny = true;
      continue;
    }
    // Step 2: admission.
    plan::AdmissionOptions admission;
    admission.pinnedOrDestructive = pin.has_value() || node.getDestructive();
    admission.priceTransfers = config.getPriceTransfers();
    admission.allowCostPlacement = config.getAllowCostPlacement();

    std::string key;
    {
      llvm::raw_string_ostream os(key);
      os << static_cast<int>(kind) << '|' << facts->dtypes.str() << '|'
         << facts->principalType << '|' << facts->sizeClass() << '|'
         << decision->str() << '|' << admission.pinnedOrDestructive << '|';
      for (const auto &[k, v] : facts->params)
        os << k << '=' << v << ';';
      if (std::optional<ArrayAttr> c = node.getCoupling())
        os << '|' << c->getAsOpaquePointer();
      if (StringAttr kernel = node.getKernelAttr())
        os << "|kernel=" << kernel.getValue();
    }
    auto it = memo.find(key);
    if (it == memo.end()) {
      llvm::Expected<std::vector<plan::AdmittedDevice>> admitted =
          plan::admitDevices(*decision, planCtx->devices, admission);
      if (!admitted) {
        (void)emitPlanError(node, admitted.takeError(),
                            describeNode(node) + ": ");
        failedAny = true;
        continue;
      }
      // Step 3: every registry variant on every admitted device.
      target::CandidateQuery query;
      query.op = kind;
      query.dtypes = facts->dtypes.flat();
      query.params.assign(facts->params.begin(), facts->params.end());
      query.couplings = nodeCouplings(node);
      if (StringAttr kernel = node.getKernelAttr())
        query.kernelId = kernel.getValue().str();
      query.sources = sources;
      std::vector<plan::Candidate> candidates =
          target::buildCandidates(registry, query, *admitted);
      if (candidates.empty()) {
        // The node's kernel or the kernel sources left nothing.
        std::string why =
            target::explainEmptyEnumeration(registry, query, *admitted);
        if (!why.empty()) {
          node.emitError() << describeNode(node) << ": " << why;
          failedAny = true;
          continue;
        }
        // Step 4: no variant anywhere.
        std::string prefix = describeNode(node);
        if (!query.kernelId.empty())
          prefix += " (kernel '" + query.kernelId + "')";
        (void)emitPlanError(node,
                            plan::PlanError::noBackendForOp(
                                std::string(plan::stringifyOpKind(kind)),
                                facts->dtypes.str(), devicesPresent,
                                registered),
                            prefix + ": ");
        failedAny = true;
        continue;
      }
      auto decisionAttr =
          DecisionAttr::get(ctx, node.getKind(), facts->principalType,
                            facts->sizeClass(), fromPlan(ctx, *decision));
      it = memo.try_emplace(key,
                            buildAlternatives(ctx, decisionAttr, candidates))
               .first;
    }
    AlternativeSetAttr set = it->second;
    numCandidates += set.getCandidates().size();
    if (node.getAlternativesAttr() != set) {
      node.setAlternativesAttr(set);
      changed = true;
    }
    // A placement made from earlier candidates no longer holds.
    if (node.getPlacementAttr()) {
      node.removePlacementAttr();
      changed = true;
    }
    if (node.getNextBestDeviceAttr()) {
      node.removeNextBestDeviceAttr();
      node.removeNextBestDeltaNsAttr();
      changed = true;
    }
  }
  if (failedAny)
    return signalPassFailure();
  // Nothing changed: keep the analyses, and let the pass manager skip
  // verifying an unchanged function.
  if (!changed)
    markAllAnalysesPreserved();
}
