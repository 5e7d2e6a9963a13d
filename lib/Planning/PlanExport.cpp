//===- PlanExport.cpp - What the plan writers and reader share ------------===//
//
// Output files, node winners and coupling terms, and value names for
// fuel-export-plan, fuel-import-plan and fuel-export-dot.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/PlanExport.h"

#include "fuel/Planner/Candidate.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Planning/PlanState.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

LogicalResult
mlir::fuel::writeOutputFile(Operation *op, StringRef file, StringRef what,
                            llvm::function_ref<void(raw_ostream &)> write) {
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(file, &message);
  if (!out)
    return op->emitError() << "cannot write the " << what << " to '" << file
                           << "': " << message;
  write(out->os());
  out->os().flush();
  if (out->os().has_error()) {
    std::string reason = out->os().error().message();
    out->os().clear_error();
    return op->emitError() << "cannot write the " << what << " to '" << file
                           << "': " << reason;
  }
  out->keep();
  return success();
}

TopologyAttr mlir::fuel::requireTopology(ModuleOp module, StringRef purpose) {
  auto topology =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  // At the module's location only: its text would be the whole program.
  if (!topology)
    mlir::emitError(module.getLoc())
        << "the module has no '" << FuelDialect::kTopologyAttrName << "' "
        << purpose << "; run fuel-attach-topology (or fuel-plan) first";
  return topology;
}

CandidateAttr mlir::fuel::getWinner(NodeOp node) {
  AlternativeSetAttr set = node.getAlternativesAttr();
  if (!set || set.getCandidates().empty())
    return {};
  auto placed = dyn_cast_or_null<DeviceAttr>(node.getPlacementAttr());
  if (!placed)
    return set.getCandidates().front();
  for (CandidateAttr c : set.getCandidates())
    if (c.getDevice() == placed)
      return c;
  return {};
}

CandidateAttr mlir::fuel::getRunnerUp(NodeOp node) {
  CandidateAttr winner = getWinner(node);
  if (!winner)
    return {};
  bool seen = false;
  for (CandidateAttr c : node.getAlternativesAttr().getCandidates()) {
    if (c == winner && !seen) {
      seen = true;
      continue;
    }
    if (seen && c.getDevice() == winner.getDevice())
      return c;
  }
  return {};
}

llvm::DenseMap<int64_t, DeviceAttr>
mlir::fuel::collectPlacements(func::FuncOp func) {
  llvm::DenseMap<int64_t, DeviceAttr> placed;
  for (NodeOp node : func.getBody().front().getOps<NodeOp>())
    placed[node.getIdAttr().getInt()] =
        dyn_cast_or_null<DeviceAttr>(node.getPlacementAttr());
  return placed;
}

int64_t mlir::fuel::satisfiedCouplingNs(
    CandidateAttr winner, const llvm::DenseMap<int64_t, DeviceAttr> &placed) {
  int64_t sum = 0;
  if (!winner || !winner.getCoupling())
    return sum;
  for (Attribute a : winner.getCoupling()) {
    plan::CouplingAdjustment coupling = toPlan(cast<CouplingAttr>(a));
    DeviceAttr other = placed.lookup(coupling.otherNode);
    if (!other)
      continue;
    // Saturating, as the objective adds them (fuel::plan::evaluate).
    if (plan::matchesCondition(coupling.condition, toPlan(other)))
      sum = plan::satAdd(sum, coupling.deltaNs);
  }
  return sum;
}

llvm::DenseMap<Operation *, int64_t>
mlir::fuel::topLevelPositions(func::FuncOp func) {
  llvm::DenseMap<Operation *, int64_t> positions;
  int64_t position = 0;
  for (Operation &op : func.getBody().front())
    positions[&op] = position++;
  return positions;
}

ValueName
mlir::fuel::nameValue(Value value,
                      const llvm::DenseMap<Operation *, int64_t> &positions) {
  ValueName name;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    name.kind = ValueName::Kind::Argument;
    name.index = arg.getArgNumber();
    return name;
  }
  auto result = cast<OpResult>(value);
  name.result = result.getResultNumber();
  if (auto node = dyn_cast<NodeOp>(result.getOwner())) {
    name.kind = ValueName::Kind::Node;
    name.index = node.getIdAttr().getInt();
    return name;
  }
  name.kind = ValueName::Kind::HostOp;
  name.index = positions.lookup(result.getOwner());
  return name;
}
