//===- AttachTopology.cpp - Stamp the topology and the configuration ------===//
//
// fuel-attach-topology: the first pass of fuel-plan. It resolves the
// topology option (SEMANTICS §9) and records it, with the planning
// configuration several passes read (SEMANTICS §3 step 2), on the module.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Planner/PrecisionRules.h"
#include "fuel/Target/TopologyFile.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELATTACHTOPOLOGYPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-attach-topology"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

namespace {
struct AttachTopologyPass
    : public mlir::fuel::impl::FuelAttachTopologyPassBase<AttachTopologyPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    if (requireTransferPricing && !priceTransfers) {
      module.emitError() << "require-transfer-pricing is set but "
                            "price-transfers is off; turn pricing on or drop "
                            "the requirement";
      return signalPassFailure();
    }

    llvm::Expected<plan::Precision> requirement =
        plan::parsePrecisionRequirement(precision);
    if (!requirement) {
      module.emitError() << "invalid 'precision' option '" << precision
                         << "': " << llvm::toString(requirement.takeError());
      return signalPassFailure();
    }

    llvm::Expected<std::vector<::fuel::target::KernelSource>> sources =
        ::fuel::target::parseKernelSources(kernelSources);
    if (!sources) {
      module.emitError() << "invalid 'kernel-sources' option '" << kernelSources
                         << "': " << llvm::toString(sources.takeError());
      return signalPassFailure();
    }

    // The topology: an explicit one, else the module's, else the default.
    auto existing =
        module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
    TopologyAttr topologyAttr = existing;
    if (!topology.empty() || !existing) {
      llvm::Expected<plan::Topology> resolved =
          ::fuel::target::resolveTopology(topology);
      if (!resolved) {
        module.emitError() << "cannot use topology '" << topology
                           << "': " << llvm::toString(resolved.takeError());
        return signalPassFailure();
      }
      topologyAttr = TopologyAttr::fromPlan(ctx, *resolved);
      if (existing && existing.getHash() != topologyAttr.getHash()) {
        module.emitError()
            << "the module is already planned for topology "
            << plan::formatHash(existing.getHash()) << " but topology '"
            << topology << "' has hash "
            << plan::formatHash(topologyAttr.getHash())
            << "; remove 'fuel.topology' to plan for another machine";
        return signalPassFailure();
      }
    }

    // The pipeline's pinned device must exist on that machine.
    DeviceAttr pinned;
    if (pinnedDevice != "none") {
      std::optional<plan::Device> device = plan::Device::parse(pinnedDevice);
      if (!device) {
        module.emitError() << "invalid 'pinned-device' option '" << pinnedDevice
                           << "'; expected 'cpu', 'cuda:N', 'vulkan:N' or "
                              "'none'";
        return signalPassFailure();
      }
      pinned = fromPlan(ctx, *device);
      if (!topologyAttr.lookup(pinned)) {
        InFlightDiagnostic diag = module.emitError()
                                  << "pinned-device '" << pinnedDevice
                                  << "' is not a device of the topology "
                                     "(devices: ";
        llvm::interleaveComma(
            topologyAttr.getDevices(), diag,
            [&](DeviceInfoAttr info) { diag << info.getDevice().str(); });
        diag << ")";
        return signalPassFailure();
      }
    }

    if (topologyAttr != existing)
      module->setAttr(FuelDialect::kTopologyAttrName, topologyAttr);
    module->setAttr(FuelDialect::kConfigAttrName,
                    PlanConfigAttr::get(ctx, priceTransfers, allowCostPlacement,
                                        pinned, *requirement, *sources));
  }
};
} // namespace
