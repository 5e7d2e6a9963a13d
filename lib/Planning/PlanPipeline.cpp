//===- PlanPipeline.cpp - The fuel-plan pipeline and pass registration ----===//
//
// `fuel-plan` (one pipeline runs IR stages 2-5 of docs/ARCHITECTURE.md) with
// the options of SEMANTICS §9.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// Runs a function pipeline on each function of the module in turn, in
/// function order. With `explain`, the remarks of the function passes would
/// otherwise interleave across functions in thread order: MLIR orders the
/// diagnostics of one parallel loop, but a worker that waits on the nested
/// verifier's parallel loop may run another function's pipeline meanwhile,
/// and then the remarks of both come out in the order they happen to run.
/// Sequential function order gives the same remarks in the same order at
/// any thread count.
struct InFunctionOrder
    : public PassWrapper<InFunctionOrder, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InFunctionOrder)

  InFunctionOrder() : pipeline(func::FuncOp::getOperationName()) {}
  InFunctionOrder(const InFunctionOrder &other)
      : PassWrapper(other), pipeline(other.pipeline) {}

  StringRef getArgument() const override { return "fuel-in-function-order"; }
  StringRef getDescription() const override {
    return "Run a function pipeline on each function in function order";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    pipeline.getDependentDialects(registry);
  }
  void runOnOperation() override {
    for (func::FuncOp f : getOperation().getOps<func::FuncOp>())
      if (failed(runPipeline(pipeline, f)))
        return signalPassFailure();
  }

  OpPassManager pipeline;
};

} // namespace

/// The pass manager of the per-function stages: nested (parallel over
/// functions) normally, in function order with `explain`.
static OpPassManager &nestFunctions(OpPassManager &pm,
                                    const PlanningOptions &options) {
  if (!options.explain)
    return pm.nest<func::FuncOp>();
  auto ordered = std::make_unique<InFunctionOrder>();
  OpPassManager &fpm = ordered->pipeline;
  pm.addPass(std::move(ordered));
  return fpm;
}

/// Stages 2-4: the topology stamp, node formation and phase A. Returns the
/// nested function pass manager so the full pipeline can append phase B.
static OpPassManager &buildCandidates(OpPassManager &pm,
                                      const PlanningOptions &options) {
  FuelAttachTopologyPassOptions attach;
  attach.topology = options.topology;
  attach.precision = options.precision;
  attach.pinnedDevice = options.pinnedDevice;
  attach.priceTransfers = options.priceTransfers;
  attach.allowCostPlacement = options.allowCostPlacement;
  attach.requireTransferPricing = options.requireTransferPricing;
  attach.kernelSources = llvm::join(options.kernelSources, ",");
  pm.addPass(createFuelAttachTopologyPass(attach));

  pm.nest<func::FuncOp>().addPass(createFuelFormNodesPass());
  // An imported plan pins nodes before phase A admits their devices.
  if (!options.importPlan.empty()) {
    FuelImportPlanPassOptions import;
    import.file = options.importPlan;
    pm.addPass(createFuelImportPlanPass(import));
  }
  OpPassManager &fpm = nestFunctions(pm, options);
  FuelEnumerateCandidatesPassOptions enumerate;
  enumerate.kernelSources = llvm::join(options.kernelSources, ",");
  fpm.addPass(createFuelEnumerateCandidatesPass(enumerate));
  FuelFilterCandidatesPassOptions filter;
  filter.preferBitStable = options.preferBitStable;
  fpm.addPass(createFuelFilterCandidatesPass(filter));
  FuelAnnotateCostsPassOptions annotate;
  annotate.profile = options.profile;
  annotate.profileThreads = options.profileThreads;
  annotate.explain = options.explain;
  // Prior rates, and a profile measured under other pool sizes: recorded
  // per function and warned of once per module by fuel-warn-costs, which
  // follows the function stages (everything later added to `fpm` runs
  // before it).
  annotate.deferWarnings = true;
  fpm.addPass(createFuelAnnotateCostsPass(annotate));
  pm.addPass(createFuelWarnCostsPass());
  fpm.addPass(createFuelRankCandidatesPass());
  FuelRetainFrontierPassOptions retain;
  retain.keepPerDevice = options.keepPerDevice;
  retain.explain = options.explain;
  fpm.addPass(createFuelRetainFrontierPass(retain));
  return fpm;
}

void mlir::fuel::buildPlanCandidatesPipeline(OpPassManager &pm,
                                             const PlanningOptions &options) {
  (void)buildCandidates(pm, options);
}

void mlir::fuel::buildPlanPipeline(OpPassManager &pm,
                                   const PlanningOptions &options) {
  OpPassManager &fpm = buildCandidates(pm, options);
  FuelPlacePassOptions place;
  place.placementAlgorithm = options.placementAlgorithm;
  place.explain = options.explain;
  fpm.addPass(createFuelPlacePass(place));
  fpm.addPass(createFuelInsertResidencyCopiesPass());
  if (!options.exportPlan.empty()) {
    FuelExportPlanPassOptions exportPlan;
    exportPlan.file = options.exportPlan;
    pm.addPass(createFuelExportPlanPass(exportPlan));
  }
  if (!options.exportDot.empty()) {
    FuelExportDotPassOptions exportDot;
    exportDot.file = options.exportDot;
    pm.addPass(createFuelExportDotPass(exportDot));
  }
}

void mlir::fuel::registerFuelPlanPipeline() {
  PassPipelineRegistration<PlanPipelineOptions>(
      "fuel-plan",
      "Plan every kernel-bearing op: stamp the topology, form nodes, and "
      "enumerate, filter, price, rank and retain candidates per device, place "
      "every node with transfers priced, and insert the copies",
      [](OpPassManager &pm, const PlanPipelineOptions &options) {
        buildPlanPipeline(pm, options.getPlanningOptions());
      });
  PassPipelineRegistration<PlanPipelineOptions>(
      "fuel-plan-candidates",
      "The first half of fuel-plan: stamp the topology, form nodes, and "
      "enumerate, filter, price, rank and retain candidates on every admitted "
      "device, without placing (to inspect every device's alternatives)",
      [](OpPassManager &pm, const PlanPipelineOptions &options) {
        buildPlanCandidatesPipeline(pm, options.getPlanningOptions());
      });
}
