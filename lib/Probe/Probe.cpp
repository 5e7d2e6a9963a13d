//===- Probe.cpp - Device descriptions and the combined probe -------------===//
//
// One-line descriptions of probed devices, equality, and probeAll,
// which fixes the order of the result: cpu, then cuda, then vulkan.
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include "Support.h"

#include <utility>

namespace fuel::probe {

using detail::format;

std::string ProbedDevice::describe() const {
  std::string out = label() + " \"" + name + "\"";
  auto add = [&out](const std::string &part) { out += ", " + part; };
  if (kind == Kind::Cuda && (computeMajor || computeMinor))
    add(format("sm_%d%d", computeMajor, computeMinor));
  if (kind == Kind::Vulkan && cpuType)
    add("cpu-type");
  if (cores) {
    const char *unit = kind == Kind::Cuda ? "SMs" : "cores";
    if (physicalCores && physicalCores != cores)
      add(format("%u %s (%u physical)", cores, unit, physicalCores));
    else
      add(format("%u %s", cores, unit));
  }
  if (vectorBits)
    add(format("%u-bit SIMD", vectorBits));
  if (!targetCpu.empty())
    add("target " + targetCpu +
        (targetFeatures.empty() ? "" : " " + targetFeatures));
  if (clockGHz > 0)
    add(format("%.2f GHz", clockGHz));
  if (memoryBytes)
    add(format("%.1f GiB", static_cast<double>(memoryBytes) / (1ull << 30)));
  if (peakF32FlopsPerNs > 0)
    add(format("peak %.1f GFLOP/s f32", peakF32FlopsPerNs));
  if (bytesPerNs > 0)
    add(format("%.1f GB/s", bytesPerNs));
  if (vendorId || deviceId)
    add(format("id %04x:%04x", vendorId, deviceId));
  return out;
}

bool operator==(const ProbedDevice &a, const ProbedDevice &b) {
  return a.kind == b.kind && a.ordinal == b.ordinal && a.name == b.name &&
         a.cpuType == b.cpuType && a.cores == b.cores &&
         a.physicalCores == b.physicalCores && a.vectorBits == b.vectorBits &&
         a.targetCpu == b.targetCpu && a.targetFeatures == b.targetFeatures &&
         a.memoryBytes == b.memoryBytes && a.clockGHz == b.clockGHz &&
         a.peakF32FlopsPerNs == b.peakF32FlopsPerNs &&
         a.bytesPerNs == b.bytesPerNs && a.computeMajor == b.computeMajor &&
         a.computeMinor == b.computeMinor && a.vendorId == b.vendorId &&
         a.deviceId == b.deviceId;
}

void ProbeResult::append(ProbeResult other) {
  for (ProbedDevice &device : other.devices)
    devices.push_back(std::move(device));
  for (std::string &note : other.notes)
    notes.push_back(std::move(note));
}

ProbeResult probeAll(const ProbeOptions &options) {
  ProbeResult result = probeCpu();
  if (options.cuda)
    result.append(probeCuda(options.cudaLibrary.c_str()));
  else
    result.notes.push_back("cuda: not probed (disabled)");
  if (options.vulkan)
    result.append(probeVulkan(options.vulkanLibrary.c_str()));
  else
    result.notes.push_back("vulkan: not probed (disabled)");
  return result;
}

} // namespace fuel::probe
