//===- FilterCandidates.cpp - The per-device filter chain -----------------===//
//
// fuel-filter-candidates: SEMANTICS §3 step 5 for every node. The chain
// itself (hard precision floor, soft strided-input and bit-stable
// preferences, fallback consultation) is fuel::plan::selectCandidates; this
// pass supplies the node's facts and writes the survivors back.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Admission.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanState.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELFILTERCANDIDATESPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-filter-candidates"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

namespace {
struct FilterCandidatesPass
    : public mlir::fuel::impl::FuelFilterCandidatesPassBase<
          FilterCandidatesPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void FilterCandidatesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  std::optional<PlanContext> planCtx =
      planContextFor(func, [&] { signalPassFailure(); });
  if (!planCtx)
    return;
  auto nodes = func.getBody().front().getOps<NodeOp>();
  MLIRContext *ctx = &getContext();
  plan::Precision requirement = planCtx->config.getRequirement();

  // The result depends only on the set and on whether an operand is
  // strided: filter each distinct pair once. An empty set records the
  // error message instead.
  using Key = std::pair<AlternativeSetAttr, unsigned>;
  struct Outcome {
    AlternativeSetAttr set;
    std::string error;
    /// Candidates the chain removed, counted for every node that shares it.
    uint64_t filtered = 0;
  };
  llvm::DenseMap<Key, Outcome> memo;
  bool failedAny = false;
  bool changed = false;
  for (NodeOp node : nodes) {
    AlternativeSetAttr set = requireAlternatives(node);
    if (!set) {
      failedAny = true;
      continue;
    }
    bool strided = llvm::any_of(node.getInputs(), isNonContiguous);
    Key key{set, strided};
    auto it = memo.find(key);
    if (it == memo.end()) {
      std::vector<plan::Candidate> candidates = toPlan(set);
      // Admitted devices in the set's order; fallback as tagged.
      std::vector<plan::AdmittedDevice> admitted;
      for (const plan::Candidate &c : candidates)
        if (llvm::none_of(admitted, [&](const plan::AdmittedDevice &a) {
              return a.device == c.device;
            }))
          admitted.push_back({c.device, c.fallback});
      plan::FilterOptions options;
      options.requirement = requirement;
      options.hasNonContiguousOperand = strided;
      options.preferBitStable = preferBitStable;
      options.freezeFallback = false;
      plan::SelectionContext context;
      context.decision = toPlan(set.getDecision());
      context.devicesPresent = planCtx->devices;
      llvm::Expected<plan::Selection> sel =
          plan::selectCandidates(candidates, admitted, options, context);
      Outcome outcome;
      if (!sel) {
        outcome.error = llvm::toString(sel.takeError());
      } else {
        outcome.filtered = candidates.size() - sel->candidates.size();
        outcome.set =
            sel->candidates.size() == candidates.size()
                ? set
                : buildAlternatives(ctx, set.getDecision(), sel->candidates);
      }
      it = memo.try_emplace(key, std::move(outcome)).first;
    }
    if (!it->second.set) {
      InFlightDiagnostic diag = node.emitError() << describeNode(node) << ": "
                                                 << it->second.error;
      // Say what narrowed the candidates before the filter saw them.
      if (StringAttr kernel = node.getKernelAttr())
        diag << "; enumeration admitted only the node's kernel '"
             << kernel.getValue() << "'";
      else if (!planCtx->config.getKernelSources().empty())
        diag << "; enumeration admitted only kernel-sources="
             << planCtx->config.getKernelSources();
      failedAny = true;
      continue;
    }
    numFiltered += it->second.filtered;
    if (it->second.set != set) {
      node.setAlternativesAttr(it->second.set);
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
