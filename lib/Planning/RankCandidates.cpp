//===- RankCandidates.cpp - Order alternative sets by the winner order ----===//
//
// fuel-rank-candidates: SEMANTICS §3 step 8 and §6, through
// fuel::plan::rank, so index 0 of every set is its winner.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planning/PlanState.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELRANKCANDIDATESPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-rank-candidates"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

namespace {
struct RankCandidatesPass
    : public mlir::fuel::impl::FuelRankCandidatesPassBase<RankCandidatesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    MLIRContext *ctx = &getContext();
    llvm::DenseMap<AlternativeSetAttr, AlternativeSetAttr> memo;
    bool failedAny = false;
    bool changed = false;
    for (NodeOp node : func.getBody().front().getOps<NodeOp>()) {
      AlternativeSetAttr set = requireAlternatives(node);
      if (!set) {
        failedAny = true;
        continue;
      }
      auto [it, inserted] = memo.try_emplace(set, set);
      if (inserted) {
        std::vector<plan::Candidate> candidates = toPlan(set);
        std::vector<unsigned> order =
            plan::rankOrder(candidates, toPlan(set.getDecision().getDevice()));
        if (!llvm::is_sorted(order)) {
          // Reorder the existing candidate attributes: nothing to rebuild.
          SmallVector<CandidateAttr> ranked;
          ranked.reserve(order.size());
          for (unsigned i : order)
            ranked.push_back(set.getCandidates()[i]);
          it->second = AlternativeSetAttr::get(ctx, set.getDecision(), ranked);
        }
      }
      if (it->second != set) {
        node.setAlternativesAttr(it->second);
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
};
} // namespace
