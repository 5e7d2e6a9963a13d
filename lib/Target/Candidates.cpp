//===- Candidates.cpp - Registry records as priced planner candidates -----===//
//
// Candidate construction and Layer-1 pricing from a kernel registry
// (SEMANTICS §3 steps 3 and 6).
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/Candidates.h"

#include "fuel/Planner/CostModel.h"

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
