//===- AnnotateCosts.cpp - Layer-1 prices of every candidate --------------===//
//
// fuel-annotate-costs: SEMANTICS §3 step 6. Each candidate's static cost
// comes from its registry record's cost function over the node's shape
// figures; its time from the stamped topology's rates scaled by the
// record's efficiencies (fuel::plan::kernelTime); its footprint from the
// node's operand and result bytes plus the record's workspace. The pricing
// is fuel::target::priceCandidate's; this pass reads the node's figures,
// takes the registry from the context (Passes.h, getKernelRegistry) and
// writes the priced set. A device priced with a prior rate is warned about
// once per (device, dtype) per function.
//
// With `profile`, SEMANTICS §3 step 7: each priced candidate's measurement
// key (ProfileKey.h) is looked up in the profile database; a hit replaces
// the time and keeps the Layer-1 one beside it for the measured-tie rule
// (§6), which fuel-rank-candidates applies. A miss whose key the database
// holds under other pool sizes is counted: a profile measured with another
// thread count than the plan is priced for (`profile-threads`) is warned
// about once per function.
//
// With `defer-warnings` (fuel-plan) the pass records both on the function
// as `fuel.cost_warnings` (CostWarnings.h) instead, and fuel-warn-costs
// (WarnCosts.cpp) warns of them once per module.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Judge/ProfileDB.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Planning/CostWarnings.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Planning/ProfileKey.h"
#include "fuel/Target/Candidates.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELANNOTATECOSTSPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-annotate-costs"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;
namespace target = ::fuel::target;

namespace {
struct AnnotateCostsPass
    : public mlir::fuel::impl::FuelAnnotateCostsPassBase<AnnotateCostsPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// The priced set of one distinct (set, shape) pair, or why it failed.
struct Priced {
  AlternativeSetAttr set;
  std::string error;
  /// Prior warnings (describePriors lines), one per device that used one.
  std::vector<std::string> priors;
  /// Candidates priced, and those priced with a prior, counted for every
  /// node that shares this set.
  uint64_t numPriced = 0;
  uint64_t numPriors = 0;
  /// With a profile: one line per measured candidate, and the candidates
  /// without a measurement.
  std::vector<std::string> measured, missed;
  /// The pool sizes (ascending) the profile holds a missed candidate under.
  std::vector<int64_t> elsewhere;
};

/// A measured time in the planner's integer nanoseconds: the median
/// rounded to the nearest, the noise rounded up, both saturating.
int64_t toNs(double v, bool up) {
  double r = up ? std::ceil(v) : std::nearbyint(v);
  if (!(r >= 0))
    return 0;
  if (r >= 9.2e18)
    return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(r);
}

/// Looks every candidate of `candidates` up in `db` (SEMANTICS §3 step 7);
/// hits get their measured time. Appends to `measured` one line per hit
/// and to `missed` each kernel id without one, and adds to `elsewhere` the
/// other pool sizes the database holds a missed key under. Errors name the
/// file.
llvm::Error applyMeasurements(::fuel::judge::ProfileDB &db, NodeOp node,
                              uint32_t sizeClass,
                              const plan::Topology &topology,
                              const ProfileKeySettings &settings,
                              std::vector<plan::Candidate> &candidates,
                              std::vector<std::string> &measured,
                              std::vector<std::string> &missed,
                              std::vector<int64_t> &elsewhere) {
  for (plan::Candidate &c : candidates) {
    ::fuel::judge::MeasurementKey key =
        measurementKey(node, c, sizeClass, topology, settings);
    llvm::Expected<std::optional<::fuel::judge::Measurement>> hit =
        db.lookup(key);
    if (!hit)
      return hit.takeError();
    std::string where = c.kernelId + " on " + c.device.str();
    if (!*hit) {
      missed.push_back(std::move(where));
      llvm::Expected<std::vector<int64_t>> others = db.poolThreadsOf(key);
      if (!others)
        return others.takeError();
      for (int64_t threads : *others)
        if (threads != settings.poolThreads &&
            !llvm::is_contained(elsewhere, threads))
          elsewhere.insert(llvm::upper_bound(elsewhere, threads), threads);
      continue;
    }
    int64_t layer1 = c.layer1TimeNs();
    c.timeNs = toNs((*hit)->medianNs, /*up=*/false);
    c.noiseNs = toNs((*hit)->noiseNs, /*up=*/true);
    c.staticTimeNs = layer1;
    c.timeSource = plan::TimeSource::Measured;
    measured.push_back(where + " " + std::to_string(c.timeNs) + " ns (noise " +
                       std::to_string(c.noiseNs) + " ns, Layer 1 " +
                       std::to_string(layer1) + " ns)");
  }
  return llvm::Error::success();
}
} // namespace

/// Prices `set` for a node with `facts` and the given operand and result
/// bytes on `topology`, from the records of `registry`.
static Priced price(MLIRContext *ctx, const target::KernelRegistry &registry,
                    AlternativeSetAttr set, const NodeFacts &facts,
                    uint64_t operandBytes, uint64_t resultBytes,
                    const plan::Topology &topology) {
  std::vector<plan::Candidate> candidates = toPlan(set);
  target::PricingQuery query;
  query.cost = facts.costQuery;
  query.dtype = facts.dtypes.principal();
  query.operandBytes = operandBytes;
  query.resultBytes = resultBytes;
  Priced out;
  for (plan::Candidate &c : candidates) {
    llvm::Expected<std::string> priors =
        target::priceCandidate(registry, topology, query, c);
    if (!priors) {
      out.error = llvm::toString(priors.takeError());
      return out;
    }
    ++out.numPriced;
    if (!priors->empty()) {
      ++out.numPriors;
      if (!llvm::is_contained(out.priors, *priors))
        out.priors.push_back(std::move(*priors));
    }
  }
  out.set = buildAlternatives(ctx, set.getDecision(), candidates);
  return out;
}

void AnnotateCostsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  std::optional<PlanContext> planCtx =
      planContextFor(func, [&] { signalPassFailure(); });
  if (!planCtx)
    return;
  auto nodes = func.getBody().front().getOps<NodeOp>();
  MLIRContext *ctx = &getContext();
  const target::KernelRegistry &registry = getKernelRegistry(ctx);

  // The profile database, opened once per function (a connection is not
  // shared between the threads that run functions in parallel).
  std::unique_ptr<::fuel::judge::ProfileDB> db;
  if (profileThreads < 1) {
    emitFunctionError(func)
        << "fuel-annotate-costs option 'profile-threads' must be at least 1, "
           "got "
        << static_cast<int64_t>(profileThreads);
    return signalPassFailure();
  }
  if (!profile.empty()) {
    llvm::Expected<std::unique_ptr<::fuel::judge::ProfileDB>> opened =
        ::fuel::judge::ProfileDB::open(profile, /*create=*/false);
    if (!opened) {
      (void)emitPlanError(func, opened.takeError(), "");
      return signalPassFailure();
    }
    db = std::move(*opened);
  }
  ProfileKeySettings settings;
  settings.poolThreads = profileThreads;

  llvm::StringMap<Priced> memo;
  CostWarnings found;
  CostWarnings::ProfileMisses threadMisses;
  threadMisses.profile = profile;
  threadMisses.profileThreads = profileThreads;
  bool failedAny = false;
  bool changed = false;
  for (NodeOp node : nodes) {
    AlternativeSetAttr set = requireAlternatives(node);
    if (!set) {
      failedAny = true;
      continue;
    }
    Operation *root = getNodeRoot(node);
    FailureOr<NodeFacts> facts =
        root ? analyzeKernelOp(root, toPlan(node.getKind()))
             : FailureOr<NodeFacts>(failure());
    if (failed(facts)) {
      InFlightDiagnostic diag = node.emitError() << describeNode(node);
      if (root)
        diag << ": its root '" << root->getName()
             << "' is not a static kernel-bearing op of that kind";
      else
        diag << " has no kernel-bearing root op";
      failedAny = true;
      continue;
    }
    uint64_t operandBytes = 0, resultBytes = 0;
    for (Value v : node.getInputs())
      if (isa<ShapedType>(v.getType()))
        operandBytes = plan::satAddU(operandBytes, valueBytes(v.getType()));
    for (Type t : node.getResultTypes())
      resultBytes = plan::satAddU(resultBytes, valueBytes(t));

    std::string key;
    {
      llvm::raw_string_ostream os(key);
      os << set.getAsOpaquePointer() << '|' << operandBytes << '|'
         << resultBytes << '|' << facts->costQuery.function << '|'
         << facts->costQuery.elementBytes << '|' << facts->costQuery.strideH
         << ',' << facts->costQuery.strideW << ',' << facts->costQuery.dilationH
         << ',' << facts->costQuery.dilationW << '|';
      for (uint64_t d : facts->costQuery.dims)
        os << d << ',';
      // A lookup reads the exact operand and result types too.
      if (db) {
        for (Value v : node.getInputs())
          os << '|' << v.getType();
        for (Type t : node.getResultTypes())
          os << '|' << t;
      }
    }
    auto it = memo.find(key);
    bool inserted = it == memo.end();
    if (inserted)
      it = memo.try_emplace(key, price(ctx, registry, set, *facts, operandBytes,
                                       resultBytes, planCtx->topology))
               .first;
    Priced &result = it->second;
    if (!result.set) {
      node.emitError() << describeNode(node) << ": " << result.error;
      failedAny = true;
      continue;
    }
    if (db && inserted) {
      std::vector<plan::Candidate> candidates = toPlan(result.set);
      if (llvm::Error err = applyMeasurements(
              *db, node,
              static_cast<uint32_t>(set.getDecision().getSizeClass()),
              planCtx->topology, settings, candidates, result.measured,
              result.missed, result.elsewhere)) {
        (void)emitPlanError(node, std::move(err), describeNode(node) + ": ");
        result.set = {};
        result.error = "profile lookup failed";
        failedAny = true;
        continue;
      }
      result.set = buildAlternatives(ctx, result.set.getDecision(), candidates);
    }
    numMeasured += result.measured.size();
    if (!result.elsewhere.empty()) {
      if (!threadMisses.at)
        threadMisses.at = node.getLoc();
      ++threadMisses.nodes;
      for (int64_t threads : result.elsewhere)
        ++threadMisses.nodesPerPoolSize[threads];
    }
    if (db && explain) {
      InFlightDiagnostic remark =
          node.emitRemark() << describeNode(node) << ": profile '" << profile
                            << "': measured " << result.measured.size()
                            << " of " << result.set.getCandidates().size();
      for (const std::string &line : result.measured)
        remark << "; " << line;
      if (!result.missed.empty()) {
        remark << "; not measured:";
        for (const std::string &m : result.missed)
          remark << " " << m;
      }
    }
    numPriced += result.numPriced;
    numPriors += result.numPriors;
    // Priors are warned about once per device and dtype, at the first node
    // priced with one.
    for (const std::string &line : result.priors)
      found.addPrior(line, node.getLoc());
    if (result.set != set) {
      node.setAlternativesAttr(result.set);
      changed = true;
    }
  }
  // The priors and a profile measured under another thread count than the
  // plan's: warned once per function, or recorded for fuel-warn-costs to
  // warn of once per module. The pass warns of the priors even when a node
  // failed; a failed function records nothing.
  if (!deferWarnings)
    found.warnPriors();
  if (failedAny)
    return signalPassFailure();
  if (threadMisses.nodes)
    found.addMisses(threadMisses);
  if (!deferWarnings) {
    found.warnMisses();
  } else if (found.empty()) {
    if (func->removeAttr(kCostWarningsAttrName))
      changed = true;
  } else {
    DictionaryAttr record = found.toAttr(ctx);
    if (func->getAttr(kCostWarningsAttrName) != record) {
      func->setAttr(kCostWarningsAttrName, record);
      changed = true;
    }
  }
  // Nothing changed: keep the analyses, and let the pass manager skip
  // verifying an unchanged function.
  if (!changed)
    markAllAnalysesPreserved();
}
