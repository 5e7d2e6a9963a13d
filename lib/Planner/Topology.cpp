//===- Topology.cpp - Devices, capabilities and links ---------------------===//
//
// Structural validation, canonical serialisation and the content hash of a
// topology (SEMANTICS §1, §5), and the one spelling of a hash.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Topology.h"

#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <tuple>

namespace fuel::plan {

std::string_view stringifyPathClass(PathClass c) {
  switch (c) {
  case PathClass::Peer:
    return "peer";
  case PathClass::SharedMemory:
    return "shared-memory";
  case PathClass::DeviceCopy:
    return "device-copy";
  }
  return "device-copy";
}

std::optional<PathClass> symbolizePathClass(std::string_view s) {
  for (PathClass c :
       {PathClass::Peer, PathClass::SharedMemory, PathClass::DeviceCopy})
    if (stringifyPathClass(c) == s)
      return c;
  return std::nullopt;
}

PathDefaults pathClassDefaults(PathClass c) {
  switch (c) {
  case PathClass::Peer:
    return {12'000'000'000, 15'000};
  case PathClass::SharedMemory:
    return {20'000'000'000, 2'000};
  case PathClass::DeviceCopy:
    return {8'000'000'000, 30'000};
  }
  return {8'000'000'000, 30'000};
}

std::string ComputeCapability::str() const {
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string ComputeCapability::chip() const {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

std::optional<ComputeCapability> parseComputeCapability(std::string_view s) {
  size_t dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 2 ||
      dot + 2 != s.size())
    return std::nullopt;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t i = 0; i < s.size(); ++i)
    if (i != dot && !digit(s[i]))
      return std::nullopt;
  if (dot == 2 && s[0] == '0')
    return std::nullopt;
  ComputeCapability cc;
  for (size_t i = 0; i < dot; ++i)
    cc.major = cc.major * 10 + uint32_t(s[i] - '0');
  cc.minor = uint32_t(s[dot + 1] - '0');
  if (cc < kMinComputeCapability || cc.major > kMaxComputeCapabilityMajor)
    return std::nullopt;
  return cc;
}

std::string validateCpuTarget(const CpuTarget &target) {
  auto nameChar = [](char c, bool upper) {
    return (c >= 'a' && c <= 'z') || (upper && c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  };
  if (target.cpu.empty())
    return "an empty CPU name (expected an LLVM CPU name such as "
           "\"x86-64-v3\" or \"znver3\")";
  for (char c : target.cpu)
    if (!nameChar(c, /*upper=*/true))
      return "CPU name \"" + target.cpu +
             "\" has a character that is not a letter, digit, '-', '_' or "
             "'.'";
  if (target.features.empty())
    return {};
  size_t start = 0;
  while (true) {
    size_t end = target.features.find(',', start);
    std::string item = target.features.substr(
        start, end == std::string::npos ? std::string::npos : end - start);
    bool ok = item.size() >= 2 && (item[0] == '+' || item[0] == '-');
    for (size_t i = 1; ok && i < item.size(); ++i)
      ok = nameChar(item[i], /*upper=*/false);
    if (!ok)
      return "feature \"" + item + "\" of \"" + target.features +
             "\" is not '+name' or '-name' (expected a comma list such as "
             "\"+avx2,+fma\")";
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return {};
}

std::string validateGpuLimits(const GpuLimits &l) {
  auto pow2 = [](uint64_t v) { return (v & (v - 1)) == 0; };
  auto num = [](uint64_t v) { return std::to_string(v); };
  if (l.subgroupSize &&
      (!pow2(l.subgroupSize) || l.subgroupSize > kMaxSubgroupSize))
    return "subgroup_size " + num(l.subgroupSize) +
           " is not a power of two up to " + num(kMaxSubgroupSize);
  if (l.sharedMemoryBytes > kMaxSharedMemoryBytes)
    return "shared_memory_bytes " + num(l.sharedMemoryBytes) +
           " is more than " + num(kMaxSharedMemoryBytes) + " (1 GiB)";
  if (l.maxWorkgroupInvocations > kMaxWorkgroupInvocations)
    return "max_workgroup_invocations " + num(l.maxWorkgroupInvocations) +
           " is more than " + num(kMaxWorkgroupInvocations);
  bool anySize =
      l.maxWorkgroupSize[0] || l.maxWorkgroupSize[1] || l.maxWorkgroupSize[2];
  bool allSizes =
      l.maxWorkgroupSize[0] && l.maxWorkgroupSize[1] && l.maxWorkgroupSize[2];
  if (anySize && !allSizes)
    return "max_workgroup_size has an unknown (0) dimension; give all three "
           "or none";
  for (int i = 0; i < 3; ++i) {
    uint32_t size = l.maxWorkgroupSize[i];
    if (size > kMaxWorkgroupInvocations)
      return "max_workgroup_size[" + num(i) + "] " + num(size) +
             " is more than " + num(kMaxWorkgroupInvocations);
    if (size && l.maxWorkgroupInvocations && size > l.maxWorkgroupInvocations)
      return "max_workgroup_size[" + num(i) + "] " + num(size) +
             " is more than max_workgroup_invocations " +
             num(l.maxWorkgroupInvocations);
  }
  if (l.minStorageBufferOffsetAlignment &&
      (!pow2(l.minStorageBufferOffsetAlignment) ||
       l.minStorageBufferOffsetAlignment > kMaxStorageBufferOffsetAlignment))
    return "min_storage_buffer_offset_alignment " +
           num(l.minStorageBufferOffsetAlignment) +
           " is not a power of two up to " +
           num(kMaxStorageBufferOffsetAlignment);
  if (l.maxPushConstantsBytes % 4 != 0 ||
      l.maxPushConstantsBytes > kMaxPushConstantsBytes)
    return "max_push_constants_bytes " + num(l.maxPushConstantsBytes) +
           " is not a multiple of 4 up to " + num(kMaxPushConstantsBytes);
  if (!(l.timestampPeriodNs >= 0) || !std::isfinite(l.timestampPeriodNs) ||
      l.timestampPeriodNs > kMaxTimestampPeriodNs)
    return "timestamp_period_ns is not a finite, non-negative figure up to "
           "1e9 (1 s)";
  return {};
}

const DeviceInfo *Topology::find(Device d) const {
  for (const DeviceInfo &info : devices)
    if (info.device == d)
      return &info;
  return nullptr;
}

const Link *Topology::findLink(Device from, Device to) const {
  for (const Link &l : links)
    if (l.from == from && l.to == to)
      return &l;
  return nullptr;
}

void Topology::canonicalize() {
  std::stable_sort(devices.begin(), devices.end(),
                   [](const DeviceInfo &a, const DeviceInfo &b) {
                     return a.device < b.device;
                   });
  std::stable_sort(links.begin(), links.end(),
                   [](const Link &a, const Link &b) {
                     return std::tie(a.from, a.to) < std::tie(b.from, b.to);
                   });
}

std::string Topology::validate() const {
  unsigned cpus = 0;
  std::set<Device> seen;
  for (const DeviceInfo &d : devices) {
    if (d.device.isHost())
      ++cpus;
    if (!seen.insert(d.device).second)
      return "duplicate device '" + d.device.str() + "'";
    for (const auto &[dtype, rate] : d.peakFlopsPerNs)
      if (!(rate >= 0) || !std::isfinite(rate))
        return "device '" + d.device.str() + "' has an invalid peak rate for " +
               dtype + " (expected a finite, non-negative flop/ns figure)";
    if (d.bytesPerNs &&
        (!(*d.bytesPerNs >= 0) || !std::isfinite(*d.bytesPerNs)))
      return "device '" + d.device.str() +
             "' has an invalid bandwidth (expected a finite, non-negative B/ns "
             "figure)";
    if (d.dispatchOverheadNs < 0)
      return "device '" + d.device.str() + "' has a negative dispatch overhead";
    if (d.alignment == 0 || (d.alignment & (d.alignment - 1)) != 0)
      return "device '" + d.device.str() +
             "' has an alignment that is not a power of two";
    if (d.cpuTarget) {
      if (!d.device.isHost())
        return "device '" + d.device.str() +
               "' has a cpu_target; only the host 'cpu' has one";
      std::string problem = validateCpuTarget(*d.cpuTarget);
      if (!problem.empty())
        return "the cpu_target of device 'cpu' has " + problem;
    }
    if (d.gpuLimits) {
      if (d.device.isHost())
        return "device 'cpu' has GPU limits; only GPU devices (cuda:N, "
               "vulkan:N) have them";
      std::string problem = validateGpuLimits(*d.gpuLimits);
      if (!problem.empty())
        return "the limits of device '" + d.device.str() + "': " + problem;
    }
    if (d.computeCapability) {
      if (d.device.kind != DeviceKind::Cuda)
        return "device '" + d.device.str() +
               "' has a compute_capability; only CUDA devices (cuda:N) have "
               "one";
      if (!parseComputeCapability(d.computeCapability->str()))
        return "device '" + d.device.str() + "' has compute_capability " +
               d.computeCapability->str() + " (expected 3.0 to 99.9)";
    }
  }
  if (cpus != 1)
    return "a topology needs exactly one 'cpu' device (the host), found " +
           std::to_string(cpus);
  std::set<std::pair<Device, Device>> linkSeen;
  for (const Link &l : links) {
    if (!seen.count(l.from))
      return "link from unknown device '" + l.from.str() + "'";
    if (!seen.count(l.to))
      return "link to unknown device '" + l.to.str() + "'";
    if (l.from == l.to)
      return "link from '" + l.from.str() + "' to itself";
    if (!linkSeen.insert({l.from, l.to}).second)
      return "duplicate link '" + l.from.str() + "' -> '" + l.to.str() + "'";
    if (l.bandwidthBytesPerSec <= 0)
      return "link '" + l.from.str() + "' -> '" + l.to.str() +
             "' needs a positive bandwidth";
    if (l.latencyNs < 0)
      return "link '" + l.from.str() + "' -> '" + l.to.str() +
             "' has a negative latency";
  }
  return {};
}

static void appendDouble(std::string &out, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%a", v);
  out += buf;
}

std::string Topology::canonicalText() const {
  Topology sorted = *this;
  sorted.canonicalize();
  std::string out = "fuel-topology-v1\n";
  for (const DeviceInfo &d : sorted.devices) {
    out += "device " + d.device.str();
    out += d.cpuType ? " cpu-type" : " accel";
    for (const auto &[dtype, rate] : d.peakFlopsPerNs) {
      out += " peak." + dtype + "=";
      appendDouble(out, rate);
    }
    if (d.bytesPerNs) {
      out += " bw=";
      appendDouble(out, *d.bytesPerNs);
    }
    out += " dispatch=" + std::to_string(d.dispatchOverheadNs);
    out += " memory=" + std::to_string(d.memoryBytes);
    out += " align=" + std::to_string(d.alignment);
    // Only when present, so topologies without a target keep their hashes.
    if (d.cpuTarget)
      out += " cpu_target=" + d.cpuTarget->cpu + ";" + d.cpuTarget->features;
    if (d.gpuLimits) {
      const GpuLimits &l = *d.gpuLimits;
      out += " limits=subgroup:" + std::to_string(l.subgroupSize) +
             ",shared:" + std::to_string(l.sharedMemoryBytes) +
             ",invocations:" + std::to_string(l.maxWorkgroupInvocations) +
             ",size:" + std::to_string(l.maxWorkgroupSize[0]) + "x" +
             std::to_string(l.maxWorkgroupSize[1]) + "x" +
             std::to_string(l.maxWorkgroupSize[2]) + ",offset_align:" +
             std::to_string(l.minStorageBufferOffsetAlignment) +
             ",push:" + std::to_string(l.maxPushConstantsBytes) + ",tick:";
      appendDouble(out, l.timestampPeriodNs);
    }
    if (d.computeCapability)
      out += " cc=" + d.computeCapability->str();
    // Length-prefixed: a driver string may hold any character.
    if (!d.driver.empty())
      out += " driver=" + std::to_string(d.driver.size()) + ":" + d.driver;
    out += "\n";
  }
  for (const Link &l : sorted.links) {
    out += "link " + l.from.str() + " " + l.to.str() + " " +
           std::to_string(l.bandwidthBytesPerSec) + " " +
           std::to_string(l.latencyNs) + " " +
           std::string(stringifyPathClass(l.pathClass)) + "\n";
  }
  return out;
}

uint64_t Topology::contentHash() const {
  std::string text = canonicalText();
  return llvm::xxh3_64bits(llvm::StringRef(text));
}

std::string formatHash(uint64_t hash) {
  char buf[19];
  std::snprintf(buf, sizeof(buf), "0x%016llx",
                static_cast<unsigned long long>(hash));
  return buf;
}

} // namespace fuel::plan
