//===- RetainFrontier.cpp - Per-device Pareto frontier, crowding cap ------===//
//
// fuel-retain-frontier: SEMANTICS §7 through fuel::plan::retainFrontier,
// the freezing of fallback sets (§3 step 2), and, with `explain`, a remark
// per node on why its winners won.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Planner/PrecisionRules.h"
#include "fuel/Planner/Retention.h"
#include "fuel/Planning/PlanState.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELRETAINFRONTIERPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-retain-frontier"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

/// "cpu.openblas.matmul_f32 (time 656869 ns static, precision 0, accuracy
/// 0, bytes 720896)".
static void describeCandidate(llvm::raw_ostream &os, const plan::Candidate &c) {
  os << c.kernelId << " (time " << c.timeNs << " ns "
     << plan::stringifyTimeSource(c.timeSource) << ", precision "
     << plan::precisionDigits(c.precision) << ", accuracy "
     << plan::accuracyClass(c.precision) << ", bytes "
     << plan::satAddU(c.hostBytes, c.deviceBytes) << ")";
}

/// The first figure of the winner order (SEMANTICS §6) on which `winner`
/// beats `loser`, with both values.
static void describeSeparation(llvm::raw_ostream &os,
                               const plan::Candidate &winner,
                               const plan::Candidate &loser) {
  unsigned wp = plan::precisionDigits(winner.precision),
           lp = plan::precisionDigits(loser.precision);
  unsigned wa = plan::accuracyClass(winner.precision),
           la = plan::accuracyClass(loser.precision);
  uint64_t wb = plan::satAddU(winner.hostBytes, winner.deviceBytes),
           lb = plan::satAddU(loser.hostBytes, loser.deviceBytes);
  if (winner.timeNs != loser.timeNs)
    os << "time " << loser.timeNs << " ns vs " << winner.timeNs << " ns";
  else if (wp != lp)
    os << "precision " << lp << " vs " << wp << " digits";
  else if (wa != la)
    os << "accuracy class " << la << " vs " << wa;
  else if (wb != lb)
    os << "bytes " << lb << " vs " << wb;
  else if (winner.registryPriority != loser.registryPriority)
    os << "registry priority " << loser.registryPriority << " vs "
       << winner.registryPriority;
  else
    os << "kernel id order";
}

/// The explanation of a ranked set: the best candidate on each device, and
/// the runner-up on the decision device with what separated it.
static std::string explain(const std::vector<plan::Candidate> &ranked,
                           plan::Device decisionDevice) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "winner " << ranked.front().kernelId << " on "
     << ranked.front().device.str();
  std::vector<plan::Device> seen;
  const plan::Candidate *decisionBest = nullptr, *runnerUp = nullptr;
  for (const plan::Candidate &c : ranked) {
    if (c.device == decisionDevice) {
      if (!decisionBest)
        decisionBest = &c;
      else if (!runnerUp)
        runnerUp = &c;
    }
    if (llvm::is_contained(seen, c.device))
      continue;
    seen.push_back(c.device);
  }
  llvm::sort(seen);
  for (plan::Device d : seen) {
    const plan::Candidate *best = nullptr;
    for (const plan::Candidate &c : ranked)
      if (c.device == d) {
        best = &c;
        break;
      }
    os << "; best on " << d.str() << ": ";
    describeCandidate(os, *best);
  }
  if (runnerUp) {
    os << "; runner-up on " << decisionDevice.str() << ": "
       << runnerUp->kernelId << ", behind " << decisionBest->kernelId << " on ";
    describeSeparation(os, *decisionBest, *runnerUp);
  } else {
    os << "; no runner-up on " << decisionDevice.str();
  }
  return text;
}

namespace {
struct RetainFrontierPass
    : public mlir::fuel::impl::FuelRetainFrontierPassBase<RetainFrontierPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// What retention made of one distinct set.
struct Retained {
  AlternativeSetAttr set;
  unsigned dropped = 0;
  std::vector<plan::Device> overCapDevices;
  unsigned overCapExcess = 0;
  std::string explanation;
};
} // namespace

void RetainFrontierPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal())
    return;
  MLIRContext *ctx = &getContext();
  llvm::DenseMap<AlternativeSetAttr, Retained> memo;
  bool failedAny = false;
  bool changed = false;
  for (NodeOp node : func.getBody().front().getOps<NodeOp>()) {
    AlternativeSetAttr set = requireAlternatives(node);
    if (!set) {
      failedAny = true;
      continue;
    }
    auto it = memo.find(set);
    if (it == memo.end()) {
      Retained out;
      std::vector<plan::Candidate> ranked = toPlan(set);
      plan::Device decisionDevice = toPlan(set.getDecision().getDevice());
      if (!llvm::is_sorted(plan::rankOrder(ranked, decisionDevice))) {
        node.emitError() << describeNode(node)
                         << " is not ranked; run fuel-rank-candidates first";
        failedAny = true;
        continue;
      }
      // SEMANTICS §3 step 2: fallback candidates count only when no
      // admitted device kept a survivor (fuel-filter-candidates has already
      // dropped them otherwise, but this pass can run without it), and a
      // fallback set is frozen to its single winner.
      ArrayRef<CandidateAttr> all = set.getCandidates();
      SmallVector<CandidateAttr> attrs;
      std::vector<plan::Candidate> primary;
      for (auto [c, attr] : llvm::zip_equal(ranked, all)) {
        if (c.fallback)
          continue;
        primary.push_back(c);
        attrs.push_back(attr);
      }
      SmallVector<CandidateAttr> kept;
      if (primary.empty()) {
        if (explain)
          out.explanation = ::explain(ranked, decisionDevice);
        kept.push_back(all.front());
      } else {
        if (explain)
          out.explanation = ::explain(primary, decisionDevice);
        plan::RetentionReport report =
            plan::retainFrontier(primary, keepPerDevice, decisionDevice);
        for (unsigned i : report.keptRankIndices)
          kept.push_back(attrs[i]);
        out.overCapDevices = report.overCapDevices;
        out.overCapExcess = report.overCapExcess;
      }
      out.dropped = all.size() - kept.size();
      out.set = kept.size() == all.size()
                    ? set
                    : AlternativeSetAttr::get(ctx, set.getDecision(), kept);
      it = memo.try_emplace(set, std::move(out)).first;
    }
    const Retained &r = it->second;
    numDropped += r.dropped;
    numOverCap += r.overCapExcess;
    if (!r.overCapDevices.empty()) {
      InFlightDiagnostic diag = node.emitRemark()
                                << describeNode(node) << " keeps "
                                << r.overCapExcess
                                << " candidate(s) over keep-per-device="
                                << std::max<unsigned>(keepPerDevice, 1)
                                << " because they are protected, on ";
      llvm::interleaveComma(r.overCapDevices, diag,
                            [&](plan::Device d) { diag << d.str(); });
    }
    if (explain)
      node.emitRemark() << describeNode(node) << ": " << r.explanation;
    if (r.set != set) {
      node.setAlternativesAttr(r.set);
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
