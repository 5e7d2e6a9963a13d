//===- Admission.cpp - Decision device, admission and filter chain --------===//
//
// SEMANTICS §3 steps 1, 2, 4 and 5.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Admission.h"

#include "fuel/Planner/Error.h"
#include "fuel/Planner/PrecisionRules.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace fuel::plan {

llvm::Expected<Device> decideDevice(std::optional<Device> pin,
                                    std::optional<Device> pipelineDevice,
                                    llvm::StringRef nodeName) {
  if (pin)
    return *pin;
  if (pipelineDevice)
    return *pipelineDevice;
  return PlanError::make(PlanError::Kind::NoDeviceContext,
                         "no device context for " + nodeName.str() +
                             ": it carries no pin and the pipeline's "
                             "pinned-device is 'none'");
}

llvm::Expected<std::vector<AdmittedDevice>>
admitDevices(Device decisionDevice, llvm::ArrayRef<Device> topologyDevices,
             const AdmissionOptions &options) {
  if (std::find(topologyDevices.begin(), topologyDevices.end(),
                decisionDevice) == topologyDevices.end()) {
    std::string present;
    for (Device d : topologyDevices)
      present += (present.empty() ? "" : ", ") + d.str();
    return PlanError::make(PlanError::Kind::UnknownDevice,
                           "decision device '" + decisionDevice.str() +
                               "' is not in the topology (devices: " + present +
                               ")");
  }
  std::vector<AdmittedDevice> admitted{{decisionDevice, false}};
  // SEMANTICS §3 step 2: a pin or a destructive update confines the node.
  if (options.pinnedOrDestructive)
    return admitted;
  // Free node: every device with pricing and cost placement on; otherwise
  // the other devices are fallbacks only.
  bool fallback = !(options.priceTransfers && options.allowCostPlacement);
  std::vector<Device> others;
  for (Device d : topologyDevices)
    if (d != decisionDevice)
      others.push_back(d);
  std::sort(others.begin(), others.end());
  others.erase(std::unique(others.begin(), others.end()), others.end());
  for (Device d : others)
    admitted.push_back({d, fallback});
  return admitted;
}

llvm::StringRef FilterStep::actionName() const {
  switch (action) {
  case Action::Applied:
    return "applied";
  case Action::Skipped:
    return "skipped";
  case Action::RemovedDevice:
    return "removed-device";
  case Action::Inactive:
    return "inactive";
  }
  return "applied";
}

namespace {
/// The filter chain's outcome on one device.
struct DeviceRun {
  std::vector<unsigned> survivors;
  /// Candidates removed by the hard filter (all of them when the device was
  /// removed).
  unsigned hardRejected = 0;
  bool removed = false;
};
} // namespace

/// Runs the chain of SEMANTICS §3 step 5 on one device's candidates
/// (`indices` into `all`), each filter seeing the previous one's survivors.
static DeviceRun runChain(const std::vector<Candidate> &all,
                          std::vector<unsigned> indices, Device device,
                          const FilterOptions &options,
                          std::vector<FilterStep> &trace) {
  DeviceRun run;
  auto record = [&](llvm::StringLiteral filter, FilterStep::Action action,
                    unsigned before, unsigned after) {
    FilterStep step;
    step.filter = filter;
    step.device = device;
    step.action = action;
    step.before = before;
    step.after = after;
    trace.push_back(step);
  };

  // Hard precision-floor: a device left with none leaves the admitted set.
  {
    std::vector<unsigned> kept;
    for (unsigned i : indices)
      if (satisfies(all[i].precision, options.requirement))
        kept.push_back(i);
    run.hardRejected = indices.size() - kept.size();
    if (kept.empty()) {
      record(kPrecisionFloorFilter, FilterStep::Action::RemovedDevice,
             indices.size(), 0);
      run.removed = true;
      return run;
    }
    record(kPrecisionFloorFilter, FilterStep::Action::Applied, indices.size(),
           kept.size());
    indices = std::move(kept);
  }

  // A soft filter with minimum 1: skipped when it would keep nobody.
  auto soft = [&](llvm::StringLiteral filter, bool active, auto keepPred) {
    if (!active) {
      record(filter, FilterStep::Action::Inactive, indices.size(),
             indices.size());
      return;
    }
    std::vector<unsigned> kept;
    for (unsigned i : indices)
      if (keepPred(all[i]))
        kept.push_back(i);
    if (kept.empty()) {
      record(filter, FilterStep::Action::Skipped, indices.size(),
             indices.size());
      return;
    }
    record(filter, FilterStep::Action::Applied, indices.size(), kept.size());
    indices = std::move(kept);
  };
  soft(kStridedInputFilter, options.hasNonContiguousOperand,
       [](const Candidate &c) { return c.hasCap(kStridedInputCap); });
  soft(kBitStableFilter, options.preferBitStable,
       [](const Candidate &c) { return c.precision.bitStable; });

  run.survivors = std::move(indices);
  return run;
}

llvm::Expected<Selection> selectCandidates(
    std::vector<Candidate> enumerated, llvm::ArrayRef<AdmittedDevice> admitted,
    const FilterOptions &options, const SelectionContext &context) {
  // Group the enumerated candidates by admitted device, in input order.
  std::vector<std::vector<unsigned>> perDevice(admitted.size());
  bool anyCandidate = false;
  for (unsigned i = 0, e = enumerated.size(); i < e; ++i)
    for (unsigned d = 0; d < admitted.size(); ++d)
      if (admitted[d].device == enumerated[i].device) {
        perDevice[d].push_back(i);
        anyCandidate = true;
        break;
      }

  // SEMANTICS §3 step 4: no variant anywhere is an error before filtering.
  if (!anyCandidate) {
    std::vector<std::string> present;
    for (Device d : context.devicesPresent)
      present.push_back(d.str());
    return PlanError::noBackendForOp(
        std::string(stringifyOpKind(context.decision.op)), context.dtypes.str(),
        std::move(present), context.registered);
  }

  Selection sel;
  uint64_t hardRejected = 0;
  std::vector<unsigned> primary;
  auto runOn = [&](unsigned d) {
    DeviceRun run = runChain(enumerated, perDevice[d], admitted[d].device,
                             options, sel.trace);
    hardRejected += run.hardRejected;
    return run;
  };

  // Non-fallback devices, in admission order (decision device first).
  for (unsigned d = 0; d < admitted.size(); ++d) {
    if (admitted[d].fallback || perDevice[d].empty())
      continue;
    DeviceRun run = runOn(d);
    if (run.removed)
      continue;
    sel.devices.push_back(admitted[d].device);
    primary.insert(primary.end(), run.survivors.begin(), run.survivors.end());
  }

  if (primary.empty()) {
    // The decision device has no survivor: consult the fallback devices and
    // freeze their set to its single winner (SEMANTICS §3 step 2).
    std::vector<Candidate> fallbackSet;
    for (unsigned d = 0; d < admitted.size(); ++d) {
      if (!admitted[d].fallback || perDevice[d].empty())
        continue;
      DeviceRun run = runOn(d);
      for (unsigned i : run.survivors)
        fallbackSet.push_back(enumerated[i]);
    }
    if (fallbackSet.empty()) {
      // Every admitted device that had candidates lost them all to the
      // only hard filter.
      return PlanError::filterRejected(
          kPrecisionFloorFilter.str(), context.decision.str(), hardRejected,
          "requirement " + formatPrecisionRequirement(options.requirement));
    }
    if (!options.freezeFallback) {
      for (Candidate &c : fallbackSet) {
        c.fallback = true;
        if (!llvm::is_contained(sel.devices, c.device))
          sel.devices.push_back(c.device);
      }
      sel.candidates = std::move(fallbackSet);
      sel.usedFallback = true;
      return sel;
    }
    rank(fallbackSet, context.decision.decisionDevice);
    Candidate winner = std::move(fallbackSet.front());
    winner.fallback = true;
    sel.devices.push_back(winner.device);
    sel.candidates.push_back(std::move(winner));
    sel.usedFallback = true;
    return sel;
  }

  // Survivors in input order.
  std::sort(primary.begin(), primary.end());
  sel.candidates.reserve(primary.size());
  for (unsigned i : primary)
    sel.candidates.push_back(std::move(enumerated[i]));
  return sel;
}

} // namespace fuel::plan
