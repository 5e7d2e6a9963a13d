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
         a.deviceId == b.deviceId && a.vulkan == b.vulkan;
}

const char *VulkanProperties::deviceTypeName() const {
  switch (deviceType) {
  case 1:
    return "integrated-gpu";
  case 2:
    return "discrete-gpu";
  case 3:
    return "virtual-gpu";
  case 4:
    return "cpu";
  default:
    return "other";
  }
}

std::string VulkanProperties::uuidString() const {
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      out += '-';
    out += format("%02x", deviceUuid[i]);
  }
  return out;
}

bool operator==(const VulkanProperties &a, const VulkanProperties &b) {
  for (int i = 0; i < 16; ++i)
    if (a.deviceUuid[i] != b.deviceUuid[i])
      return false;
  for (int i = 0; i < 3; ++i)
    if (a.maxWorkgroupSize[i] != b.maxWorkgroupSize[i])
      return false;
  return a.deviceType == b.deviceType && a.apiVersion == b.apiVersion &&
         a.driverVersion == b.driverVersion && a.heaps == b.heaps &&
         a.unifiedMemory == b.unifiedMemory &&
         a.subgroupSize == b.subgroupSize &&
         a.sharedMemoryBytes == b.sharedMemoryBytes &&
         a.maxWorkgroupInvocations == b.maxWorkgroupInvocations &&
         a.minStorageBufferOffsetAlignment ==
             b.minStorageBufferOffsetAlignment &&
         a.maxPushConstantsBytes == b.maxPushConstantsBytes &&
         a.timestampPeriodNs == b.timestampPeriodNs &&
         a.computeTimestamps == b.computeTimestamps;
}

std::string formatVulkanVersion(uint32_t version) {
  // VK_API_VERSION_MAJOR/MINOR/PATCH (the variant bits 29-31 are dropped).
  return format("%u.%u.%u", (version >> 22) & 0x7fu, (version >> 12) & 0x3ffu,
                version & 0xfffu);
}

std::string formatDriverVersion(uint32_t vendorId, uint32_t version) {
  if (vendorId == 0x10de)
    return format("%u.%u.%u", version >> 22, (version >> 14) & 0xffu,
                  (version >> 6) & 0xffu);
  return formatVulkanVersion(version);
}

std::string ProbedDevice::identityDriver() const {
  // As `probe` topologies carry it (topologyFromProbe), so a measurement
  // stored under it is found by planning for that topology.
  if (kind == Kind::Vulkan && vulkan.driverVersion != 0)
    return "vulkan " + formatDriverVersion(vendorId, vulkan.driverVersion);
  if (kind == Kind::Cuda && cudaDriverVersion > 0)
    return format("cuda %d.%d", cudaDriverVersion / 1000,
                  (cudaDriverVersion % 1000) / 10);
  return "";
}

std::vector<std::string> ProbedDevice::describeDetails() const {
  std::vector<std::string> lines;
  if (kind != Kind::Vulkan)
    return lines;
  const VulkanProperties &v = vulkan;
  std::string identity = format(
      "type %s, Vulkan %s, driver version %s (0x%x)", v.deviceTypeName(),
      formatVulkanVersion(v.apiVersion).c_str(),
      formatDriverVersion(vendorId, v.driverVersion).c_str(), v.driverVersion);
  identity += ", uuid " + v.uuidString();
  lines.push_back(identity);
  std::string memory = "heaps";
  for (size_t i = 0; i < v.heaps.size(); ++i)
    memory += format("%s %.2f GiB%s", i ? "," : "",
                     static_cast<double>(v.heaps[i].bytes) / (1ull << 30),
                     v.heaps[i].deviceLocal ? " device-local" : "");
  if (v.heaps.empty())
    memory += " none";
  memory += v.unifiedMemory ? "; unified memory (host-visible device-local)"
                            : "; not unified (staging copies)";
  lines.push_back(memory);
  lines.push_back(format(
      "limits: subgroup %u, shared memory %llu B, workgroup %u invocations "
      "(max %ux%ux%u), storage-buffer offset alignment %llu B, push constants "
      "%u B, timestamp period %g ns, compute timestamps %s",
      v.subgroupSize, static_cast<unsigned long long>(v.sharedMemoryBytes),
      v.maxWorkgroupInvocations, v.maxWorkgroupSize[0], v.maxWorkgroupSize[1],
      v.maxWorkgroupSize[2],
      static_cast<unsigned long long>(v.minStorageBufferOffsetAlignment),
      v.maxPushConstantsBytes, v.timestampPeriodNs,
      v.computeTimestamps ? "yes" : "no"));
  return lines;
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
