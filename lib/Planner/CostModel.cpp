//===- CostModel.cpp - Layer-1 kernel time --------------------------------===//
//
// The roofline kernel time of SEMANTICS §3 step 6, with the priors used when
// the topology lacks a figure.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/CostModel.h"

#include "fuel/Planner/Numbers.h"

#include <cmath>
#include <cstdio>

namespace fuel::plan {

bool takesCpuPriors(const DeviceInfo &info) {
  switch (info.device.kind) {
  case DeviceKind::Cpu:
    return true;
  case DeviceKind::Vulkan:
    return info.cpuType;
  case DeviceKind::Cuda:
    return false;
  }
  return false;
}

/// ceil(work / rate) with the conventions of SEMANTICS §2: no work costs
/// nothing at any rate; work at a rate that is not a positive finite number
/// never finishes (INT64_MAX).
static int64_t rooflineTerm(uint64_t work, double rate) {
  if (work == 0)
    return 0;
  if (!(rate > 0) || !std::isfinite(rate))
    return kMaxNs;
  return ceilToNs(static_cast<double>(work) / rate);
}

KernelTime kernelTime(const DeviceInfo &info, llvm::StringRef dtype,
                      const KernelWork &work,
                      const VariantEfficiency &variant) {
  KernelTime t;
  bool cpuPriors = takesCpuPriors(info);
  double peak;
  auto it = info.peakFlopsPerNs.find(dtype.str());
  if (it != info.peakFlopsPerNs.end()) {
    peak = it->second;
  } else {
    peak = cpuPriors ? kCpuPriorFlopsPerNs : kGpuPriorFlopsPerNs;
    t.usedFlopsPrior = true;
  }
  double bw;
  if (info.bytesPerNs) {
    bw = *info.bytesPerNs;
  } else {
    bw = cpuPriors ? kCpuPriorBytesPerNs : kGpuPriorBytesPerNs;
    t.usedBandwidthPrior = true;
  }
  t.computeNs = rooflineTerm(work.flops, peak * variant.compute);
  t.memoryNs = rooflineTerm(work.bytes, bw * variant.memory);
  int64_t roof = t.computeNs > t.memoryNs ? t.computeNs : t.memoryNs;
  t.timeNs = satAdd(satAdd(roof, info.dispatchOverheadNs), variant.overheadNs);
  return t;
}

static std::string formatRate(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

std::string describePriors(const DeviceInfo &info, llvm::StringRef dtype,
                           const KernelTime &t) {
  if (!t.usedPrior())
    return {};
  bool cpuPriors = takesCpuPriors(info);
  llvm::StringRef kind = cpuPriors ? "CPU" : "GPU";
  std::string out = "device '" + info.device.str() + "'";
  if (t.usedFlopsPrior)
    out += " has no peak " + dtype.str() + " rate; using the " + kind.str() +
           " prior of " +
           formatRate(cpuPriors ? kCpuPriorFlopsPerNs : kGpuPriorFlopsPerNs) +
           " flop/ns";
  if (t.usedFlopsPrior && t.usedBandwidthPrior)
    out += ";";
  if (t.usedBandwidthPrior)
    out += std::string(t.usedFlopsPrior ? "" : " has") +
           " no memory bandwidth; using the " + kind.str() + " prior of " +
           formatRate(cpuPriors ? kCpuPriorBytesPerNs : kGpuPriorBytesPerNs) +
           " B/ns";
  return out;
}

Footprint footprint(Device device, uint64_t operandBytes, uint64_t resultBytes,
                    uint64_t workspaceBytes) {
  uint64_t total = satAddU(satAddU(operandBytes, resultBytes), workspaceBytes);
  Footprint f;
  (device.isHost() ? f.hostBytes : f.deviceBytes) = total;
  return f;
}

} // namespace fuel::plan
