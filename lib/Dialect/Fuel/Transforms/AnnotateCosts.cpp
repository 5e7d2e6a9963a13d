//===- AnnotateCosts.cpp - Layer-1 prices of every candidate --------------===//
//
// fuel-annotate-costs: SEMANTICS §3 step 6. Each candidate's static cost
// comes from its registry record's cost function over the node's shape
// figures; its time from the stamped topology's rates scaled by the
// record's efficiencies (fuel::plan::kernelTime); its footprint from the
// node's operand and result bytes plus the record's workspace. The pricing
// is fuel::target::priceCandidate's; this pass reads the node's figures,
// takes the registry from the context (Passes.h, getKernelRegistry) and
// writes the priced set.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/Transforms/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/Transforms/NodeAnalysis.h"
#include "fuel/Dialect/Fuel/Transforms/PlanState.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Target/Candidates.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELANNOTATECOSTSPASS
#include "fuel/Dialect/Fuel/Transforms/Passes.h.inc"
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
};
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
  FailureOr<std::optional<PlanContext>> context = planContextFor(func);
  if (failed(context))
    return signalPassFailure();
  if (!*context)
    return;
  const PlanContext *planCtx = &**context;
  auto nodes = func.getBody().front().getOps<NodeOp>();
  MLIRContext *ctx = &getContext();
  const target::KernelRegistry &registry = getKernelRegistry(ctx);

  llvm::StringMap<Priced> memo;
  llvm::StringSet<> warned;
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
    }
    auto it = memo.find(key);
    if (it == memo.end())
      it = memo.try_emplace(key, price(ctx, registry, set, *facts, operandBytes,
                                       resultBytes, planCtx->topology))
               .first;
    const Priced &result = it->second;
    if (!result.set) {
      node.emitError() << describeNode(node) << ": " << result.error;
      failedAny = true;
      continue;
    }
    numPriced += result.numPriced;
    numPriors += result.numPriors;
    // Priors are warned about once per device and dtype in a function.
    for (const std::string &line : result.priors)
      if (warned.insert(line).second)
        node.emitWarning() << line;
    if (result.set != set) {
      node.setAlternativesAttr(result.set);
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
