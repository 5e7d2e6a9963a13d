//===- ExportPlan.cpp - A module's plan as versioned JSON -----------------===//
//
// fuel-export-plan: writes the placements, winners, runner-ups, next-best
// devices, predictions, copies and load-time constants of every function in
// the format of docs/PLAN-FORMAT.md. Keys are written in the fixed order
// that document lists, so equal plans give byte-equal files.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Topology.h"
#include "fuel/Planner/Transfer.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanExport.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Planning/ValueFlow.h"

#include "llvm/Support/JSON.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELEXPORTPLANPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-export-plan"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

namespace {
struct ExportPlanPass
    : public mlir::fuel::impl::FuelExportPlanPassBase<ExportPlanPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Writes `device` as its bare spelling, or null.
static void writeDevice(llvm::json::OStream &j, DeviceAttr device) {
  if (device)
    j.value(device.str());
  else
    j.value(nullptr);
}

/// Writes a candidate as {kernel, source, revision, time_ns, time_source},
/// with noise_ns and static_time_ns when measured, or null.
static void writeCandidate(llvm::json::OStream &j, CandidateAttr c) {
  if (!c) {
    j.value(nullptr);
    return;
  }
  j.object([&] {
    j.attribute("kernel", c.getKernelId());
    j.attribute("source", c.getSource());
    j.attribute("revision", plan::formatHash(c.getRevision()));
    j.attribute("time_ns", c.getTimeNs());
    j.attribute("time_source", stringifyTimeSource(c.getTimeSource()));
    if (c.getTimeSource() == TimeSource::measured) {
      j.attribute("noise_ns", c.getNoiseNs());
      j.attribute("static_time_ns", c.getStaticTimeNs());
    }
  });
}

/// Writes a value name: {"arg": i}, {"node": id, "result": i} or
/// {"host_op": position, "result": i}.
static void writeValueName(llvm::json::OStream &j, const ValueName &name) {
  j.object([&] {
    switch (name.kind) {
    case ValueName::Kind::Argument:
      j.attribute("arg", name.index);
      return;
    case ValueName::Kind::Node:
      j.attribute("node", name.index);
      break;
    case ValueName::Kind::HostOp:
      j.attribute("host_op", name.index);
      break;
    }
    j.attribute("result", static_cast<int64_t>(name.result));
  });
}

/// Writes one function's entry.
static void writeFunction(llvm::json::OStream &j, func::FuncOp func,
                          const plan::TransferModel &transfers) {
  Block &block = func.getBody().front();
  llvm::DenseMap<int64_t, DeviceAttr> placed = collectPlacements(func);
  llvm::DenseMap<Operation *, int64_t> positions = topLevelPositions(func);
  j.object([&] {
    j.attribute("name", func.getSymName());
    j.attributeBegin("predicted_ns");
    if (auto predicted = func->getAttrOfType<PredictedAttr>(
            FuelDialect::kPredictedNsAttrName))
      j.object([&] {
        j.attribute("total", predicted.getTotal());
        j.attribute("nodes", predicted.getNodes());
        j.attribute("copies", predicted.getCopies());
        j.attribute("coupling", predicted.getCoupling());
      });
    else
      j.value(nullptr);
    j.attributeEnd();

    j.attributeArray("nodes", [&] {
      for (NodeOp node : block.getOps<NodeOp>()) {
        CandidateAttr winner = getWinner(node);
        j.object([&] {
          j.attribute("id", node.getIdAttr().getInt());
          j.attribute("kind", stringifyOpKind(node.getKind()));
          j.attributeBegin("kernel");
          if (StringAttr kernel = node.getKernelAttr())
            j.value(kernel.getValue());
          else
            j.value(nullptr);
          j.attributeEnd();
          j.attributeBegin("placement");
          writeDevice(j, dyn_cast_or_null<DeviceAttr>(node.getPlacementAttr()));
          j.attributeEnd();
          j.attributeBegin("winner");
          writeCandidate(j, winner);
          j.attributeEnd();
          j.attributeBegin("runner_up");
          writeCandidate(j, getRunnerUp(node));
          j.attributeEnd();
          j.attributeBegin("next_best");
          if (DeviceAttr next = node.getNextBestDeviceAttr())
            j.object([&] {
              j.attribute("device", next.str());
              // The attribute's integer, signed (the generated getter is
              // unsigned).
              IntegerAttr delta = node.getNextBestDeltaNsAttr();
              j.attribute("delta_ns", delta ? delta.getInt() : int64_t{0});
            });
          else
            j.value(nullptr);
          j.attributeEnd();
          j.attribute("inbound_transfer_ns",
                      winner ? winner.getTransferNs() : int64_t{0});
          j.attribute("coupling_ns", satisfiedCouplingNs(winner, placed));
        });
      }
    });

    j.attributeArray("copies", [&] {
      for (CopyOp copy : block.getOps<CopyOp>()) {
        // The second hop of a staged copy moves the same root value as the
        // first: name that value, not the host-side copy.
        Value root = rootValue(copy.getSource());
        bool staged = copy.getSource().getDefiningOp<CopyOp>() ||
                      llvm::any_of(copy->getUsers(),
                                   [](Operation *u) { return isa<CopyOp>(u); });
        uint64_t bytes = valueBytes(copy.getType());
        j.object([&] {
          j.attributeBegin("value");
          writeValueName(j, nameValue(root, positions));
          j.attributeEnd();
          j.attribute("from", copy.getFrom().str());
          j.attribute("to", copy.getTo().str());
          j.attribute("bytes", bytes);
          j.attribute("predicted_ns",
                      transfers.hopNs(toPlan(copy.getFrom()),
                                      toPlan(copy.getTo()), bytes));
          j.attribute("staged", staged);
        });
      }
    });

    // Load-time constants (SEMANTICS §5): never copied, on every device
    // that reads them.
    ValueFlow flow = collectFlow(func);
    j.attributeArray("constants", [&] {
      for (const FlowRoot &root : flow.roots) {
        if (root.kind != RootKind::Constant)
          continue;
        j.object([&] {
          j.attributeBegin("value");
          writeValueName(j, nameValue(root.value, positions));
          j.attributeEnd();
          j.attribute("bytes", root.bytes);
          j.attributeArray("read_on", [&] {
            for (const plan::Device &d : flow.readDevices(root))
              j.value(d.str());
          });
        });
      }
    });
  });
}

void ExportPlanPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Writing a file changes no IR.
  markAllAnalysesPreserved();
  TopologyAttr topology = requireTopology(module, "to price its copies");
  if (!topology)
    return signalPassFailure();
  plan::TransferModel transfers(topology.toPlan());
  auto write = [&](raw_ostream &os) {
    llvm::json::OStream j(os, /*IndentSize=*/2);
    j.object([&] {
      j.attribute("version", kPlanFormatVersion);
      j.attribute("topology_hash", plan::formatHash(topology.getHash()));
      j.attributeBegin("config");
      if (auto config = module->getAttrOfType<PlanConfigAttr>(
              FuelDialect::kConfigAttrName))
        j.object([&] {
          j.attribute("price_transfers", config.getPriceTransfers());
          j.attribute("allow_cost_placement", config.getAllowCostPlacement());
          j.attributeBegin("pinned_device");
          writeDevice(j, config.getPinnedDevice());
          j.attributeEnd();
          j.attribute("precision", config.getPrecision());
          // null: every source.
          j.attributeBegin("kernel_sources");
          if (config.getKernelSources().empty())
            j.value(nullptr);
          else
            j.array([&] {
              for (::fuel::target::KernelSource k : config.getSourceList())
                j.value(std::string(::fuel::target::stringifyKernelSource(k)));
            });
          j.attributeEnd();
        });
      else
        j.value(nullptr);
      j.attributeEnd();
      j.attributeArray("functions", [&] {
        for (func::FuncOp func : module.getOps<func::FuncOp>())
          if (!func.isExternal())
            writeFunction(j, func, transfers);
      });
    });
    os << "\n";
  };
  if (failed(writeOutputFile(module, file, "plan", write)))
    return signalPassFailure();
}
