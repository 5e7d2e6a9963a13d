//===- PlanPipeline.cpp - The fuel-plan pipeline and pass registration ----===//
//
// `fuel-plan` (DESIGN.md: one pipeline runs IR stages 2-5) with the options
// of SEMANTICS §9 that the stages built so far read.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::fuel;

void mlir::fuel::buildPlanPipeline(OpPassManager &pm,
                                   const PlanPipelineOptions &options) {
  FuelAttachTopologyPassOptions attach;
  attach.topology = options.topology;
  attach.precision = options.precision;
  attach.pinnedDevice = options.pinnedDevice;
  attach.priceTransfers = options.priceTransfers;
  attach.allowCostPlacement = options.allowCostPlacement;
  attach.requireTransferPricing = options.requireTransferPricing;
  pm.addPass(createFuelAttachTopologyPass(attach));

  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(createFuelFormNodesPass());
  fpm.addPass(createFuelEnumerateCandidatesPass());
  FuelFilterCandidatesPassOptions filter;
  filter.preferBitStable = options.preferBitStable;
  fpm.addPass(createFuelFilterCandidatesPass(filter));
  fpm.addPass(createFuelAnnotateCostsPass());
  fpm.addPass(createFuelRankCandidatesPass());
  FuelRetainFrontierPassOptions retain;
  retain.keepPerDevice = options.keepPerDevice;
  retain.explain = options.explain;
  fpm.addPass(createFuelRetainFrontierPass(retain));
}

void mlir::fuel::registerFuelPlanPipeline() {
  PassPipelineRegistration<PlanPipelineOptions>(
      "fuel-plan",
      "Plan every kernel-bearing op: stamp the topology, form nodes, and "
      "enumerate, filter, price, rank and retain candidates per device",
      buildPlanPipeline);
}
