//===- WarnCosts.cpp - The cost warnings, once per module -----------------===//
//
// fuel-warn-costs: SEMANTICS §3 steps 6 and 7, module-wide. The
// fuel-annotate-costs passes that fuel-plan runs per function, possibly on
// several threads, record what they would warn of on their function
// (`fuel.cost_warnings`, CostWarnings.h); this pass reads those records in
// function order, so the warnings are the same at any thread count, merges
// them, removes them and warns once.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Planning/CostWarnings.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELWARNCOSTSPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-warn-costs"

using namespace mlir;
using namespace mlir::fuel;

namespace {
struct WarnCostsPass
    : public mlir::fuel::impl::FuelWarnCostsPassBase<WarnCostsPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void WarnCostsPass::runOnOperation() {
  CostWarnings module;
  bool found = false, malformed = false;
  for (FunctionOpInterface func :
       getOperation().getOps<FunctionOpInterface>()) {
    Attribute attr = func->getAttr(kCostWarningsAttrName);
    if (!attr)
      continue;
    found = true;
    FailureOr<CostWarnings> warnings =
        CostWarnings::fromAttr(attr, [&] { return func.emitError(); });
    if (failed(warnings)) {
      // Every malformed record is reported before the pass fails.
      malformed = true;
      continue;
    }
    module.merge(*warnings);
    func->removeAttr(kCostWarningsAttrName);
  }
  if (malformed)
    return signalPassFailure();
  numWarnings += module.warn();
  if (!found)
    markAllAnalysesPreserved();
}
