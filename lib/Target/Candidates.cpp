//===- Candidates.cpp - Registry records as priced planner candidates -----===//
//
// Candidate construction and Layer-1 pricing from a kernel registry
// (SEMANTICS §3 steps 3 and 6).
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/Candidates.h"

#include "fuel/Planner/CostModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

namespace fuel::target {

std::vector<plan::Candidate>
buildCandidates(const KernelRegistry &registry, const CandidateQuery &query,
                llvm::ArrayRef<plan::AdmittedDevice> admitted) {
  std::vector<plan::Candidate> out;
  for (const plan::AdmittedDevice &a : admitted) {
    std::vector<plan::CouplingAdjustment> couplings;
    for (const NodeCoupling &c : query.couplings)
      if (c.on == a.device)
        couplings.push_back(c.adjustment);
    for (const KernelRecord *r :
         registry.lookup(query.op, query.dtypes, a.device.kind)) {
      if (!query.kernelId.empty() && r->id != query.kernelId)
        continue;
      if (!query.sources.empty() &&
          !llvm::is_contained(query.sources, r->source))
        continue;
      plan::Candidate c;
      c.kernelId = r->id;
      c.caps = r->caps;
      c.device = a.device;
      c.precision = r->precision;
      c.params = query.params;
      c.couplings = couplings;
      c.kernelSource = std::string(stringifyKernelSource(r->source));
      c.revisionHash = r->revision;
      c.registryPriority = r->priority;
      c.fallback = a.fallback;
      c.normalize();
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::string
explainEmptyEnumeration(const KernelRegistry &registry,
                        const CandidateQuery &query,
                        llvm::ArrayRef<plan::AdmittedDevice> admitted) {
  // What the registry offers on the admitted devices, unrestricted.
  std::set<std::string> ids;
  std::set<KernelSource> sources;
  std::set<std::string> backends;
  std::string devices;
  for (const plan::AdmittedDevice &a : admitted) {
    devices += (devices.empty() ? "" : ", ") + a.device.str();
    for (const KernelRecord *r :
         registry.lookup(query.op, query.dtypes, a.device.kind)) {
      ids.insert(r->id);
      sources.insert(r->source);
    }
  }
  if (ids.empty())
    return {};
  std::string op(plan::stringifyOpKind(query.op));
  // Inputs, then the output, as NoBackendForOp spells a dtypes key.
  std::string dtypes;
  for (size_t i = 0; i < query.dtypes.size(); ++i)
    dtypes += (i == 0                         ? ""
               : i + 1 == query.dtypes.size() ? "->"
                                              : ",") +
              query.dtypes[i];
  std::string registered;
  for (const std::string &id : ids)
    registered += (registered.empty() ? "" : ", ") + id;
  std::string what = "op '" + op + "' with dtypes (" + dtypes +
                     ") on the admitted devices (" + devices + ")";
  if (!query.kernelId.empty()) {
    std::string msg = "kernel '" + query.kernelId + "' ";
    const KernelRecord *forced = registry.find(query.kernelId);
    if (!forced)
      msg += "is not registered";
    else if (!ids.count(query.kernelId))
      msg += "is registered for (" +
             std::string(plan::stringifyDeviceKind(forced->backend)) + ", " +
             std::string(plan::stringifyOpKind(forced->op)) + ", " +
             forced->dtypes.str() + "), not for " + what;
    else if (!query.sources.empty() &&
             !llvm::is_contained(query.sources, forced->source))
      return "kernel '" + query.kernelId + "' is of source '" +
             std::string(stringifyKernelSource(forced->source)) +
             "', which kernel-sources=" + formatKernelSources(query.sources) +
             " excludes";
    else
      return {};
    if (!forced || !ids.count(query.kernelId))
      msg += "; the kernels registered for " + what + ": " + registered;
    return msg;
  }
  if (!query.sources.empty()) {
    std::string offered;
    for (KernelSource k : sources)
      offered +=
          (offered.empty() ? "" : ", ") + std::string(stringifyKernelSource(k));
    return "kernel-sources=" + formatKernelSources(query.sources) +
           " leaves no kernel for " + what +
           "; the sources registered there: " + offered;
  }
  return {};
}

llvm::Expected<std::string> priceCandidate(const KernelRegistry &registry,
                                           const plan::Topology &topology,
                                           const PricingQuery &query,
                                           plan::Candidate &c) {
  const KernelRecord *record = registry.find(c.kernelId);
  if (!record)
    return llvm::createStringError("candidate '" + c.kernelId +
                                   "' names no kernel of the registry; "
                                   "re-run fuel-enumerate-candidates");
  const plan::DeviceInfo *info = topology.find(c.device);
  if (!info)
    return llvm::createStringError("candidate '" + c.kernelId +
                                   "' is on device '" + c.device.str() +
                                   "', which the topology does not have");
  llvm::Expected<StaticCost> cost = record->cost(query.cost);
  if (!cost)
    return llvm::createStringError("cannot price '" + c.kernelId +
                                   "': " + llvm::toString(cost.takeError()));
  plan::KernelTime time =
      plan::kernelTime(*info, query.dtype, {cost->flops, cost->bytes},
                       {record->efficiencyCompute, record->efficiencyMemory,
                        record->overheadNs});
  plan::Footprint fp = plan::footprint(
      c.device, query.operandBytes, query.resultBytes, record->workspaceBytes);
  c.cost = {cost->flops, cost->bytes, record->overheadNs};
  c.timeNs = time.timeNs;
  c.timeSource = plan::TimeSource::Static;
  c.hostBytes = fp.hostBytes;
  c.deviceBytes = fp.deviceBytes;
  return plan::describePriors(*info, query.dtype, time);
}

} // namespace fuel::target
