//===- ProbeTopology.cpp - A topology from the devices of this machine ----===//
//
// Turns what FuelProbe enumerates into a fuel::plan::Topology (the `probe`
// choice of the `topology` option, SEMANTICS §9). The probe describes devices;
// what it cannot observe — dispatch overheads, alignments and the links — come
// from the documented ProbeConstants (docs/TOPOLOGY.md).
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/TopologyFile.h"

#include "fuel/Probe/Probe.h"
#include "fuel/Target/JSONReader.h"

#include "llvm/Support/Error.h"

#include <set>

namespace fuel::target {

using plan::Device;
using plan::DeviceInfo;
using plan::Link;
using plan::PathClass;
using plan::Topology;

static void note(std::vector<std::string> *notes, std::string text) {
  if (notes)
    notes->push_back(std::move(text));
}

/// The host from the probed CPU.
static DeviceInfo hostFromProbe(const probe::ProbedDevice &cpu,
                                const ProbeConstants &c,
                                std::vector<std::string> *notes) {
  DeviceInfo host;
  host.device = Device::cpu();
  host.name = cpu.name;
  host.cpuType = true;
  double peak = cpu.peakF32FlopsPerNs;
  if (peak <= 0) {
    uint32_t cores = cpu.physicalCores ? cpu.physicalCores : cpu.cores;
    if (!cores) {
      cores = 1;
      note(notes, "topology: cpu core count unknown; assuming 1 core");
    }
    double clock = cpu.clockGHz;
    if (clock <= 0) {
      clock = c.cpuClockGHz;
      note(notes, "topology: cpu clock unknown; assuming " +
                      formatDouble(c.cpuClockGHz) + " GHz");
    }
    uint32_t bits = cpu.vectorBits;
    if (!bits) {
      bits = c.cpuVectorBits;
      note(notes, "topology: cpu vector width unknown; assuming " +
                      std::to_string(bits) + " bits");
    }
    peak = probe::cpuPeakF32FlopsPerNs(cores, clock, bits, /*fma=*/true);
  }
  host.peakFlopsPerNs["f32"] = peak;
  // Twice the bytes per lane, half the lanes.
  host.peakFlopsPerNs["f64"] = peak / 2;
  if (cpu.bytesPerNs > 0) {
    host.bytesPerNs = cpu.bytesPerNs;
  } else {
    host.bytesPerNs = c.cpuBytesPerNs;
    note(notes, "topology: host memory bandwidth is not observable; using " +
                    formatDouble(c.cpuBytesPerNs) + " B/ns");
  }
  host.dispatchOverheadNs = c.cpuDispatchOverheadNs;
  host.memoryBytes = cpu.memoryBytes;
  host.alignment = c.cpuAlignment;
  // The code-generation target the probe saw; none (the compiling host)
  // when it could not tell.
  if (!cpu.targetCpu.empty())
    host.cpuTarget = plan::CpuTarget{cpu.targetCpu, cpu.targetFeatures};
  return host;
}

/// The code-generation limits of a probed Vulkan device (docs/PROBE.md);
/// none when the driver reported nothing, or figures a topology cannot hold
/// (noted).
static std::optional<plan::GpuLimits>
vulkanLimits(const probe::ProbedDevice &p, std::vector<std::string> *notes) {
  const probe::VulkanProperties &v = p.vulkan;
  plan::GpuLimits l;
  l.subgroupSize = v.subgroupSize;
  l.sharedMemoryBytes = v.sharedMemoryBytes;
  l.maxWorkgroupInvocations = v.maxWorkgroupInvocations;
  for (int i = 0; i < 3; ++i)
    l.maxWorkgroupSize[i] = v.maxWorkgroupSize[i];
  l.minStorageBufferOffsetAlignment = v.minStorageBufferOffsetAlignment;
  l.maxPushConstantsBytes = v.maxPushConstantsBytes;
  l.timestampPeriodNs = v.timestampPeriodNs;
  if (l == plan::GpuLimits())
    return std::nullopt;
  std::string problem = plan::validateGpuLimits(l);
  if (!problem.empty()) {
    note(notes, "topology: " + p.label() + ": the driver's limits are left " +
                    "out (" + problem + ")");
    return std::nullopt;
  }
  return l;
}

/// A CUDA or Vulkan device from its probed description.
static DeviceInfo accelerator(const probe::ProbedDevice &p, Device device,
                              const ProbeConstants &c,
                              std::vector<std::string> *notes) {
  DeviceInfo info;
  info.device = device;
  info.name = p.name;
  info.cpuType = device.kind == plan::DeviceKind::Vulkan && p.cpuType;
  if (p.peakF32FlopsPerNs > 0)
    info.peakFlopsPerNs["f32"] = p.peakF32FlopsPerNs;
  if (p.bytesPerNs > 0)
    info.bytesPerNs = p.bytesPerNs;
  if (device.kind == plan::DeviceKind::Cuda)
    info.dispatchOverheadNs = c.cudaDispatchOverheadNs;
  else
    info.dispatchOverheadNs = info.cpuType ? c.vulkanCpuDispatchOverheadNs
                                           : c.vulkanGpuDispatchOverheadNs;
  info.memoryBytes = p.memoryBytes;
  info.alignment = info.cpuType ? c.cpuAlignment : c.gpuAlignment;
  if (device.kind == plan::DeviceKind::Vulkan) {
    info.gpuLimits = vulkanLimits(p, notes);
  }
  // The identity profile-database keys carry with the name: the one the
  // runtime's measurements are stored under (ProbedDevice::identityDriver).
  info.driver = p.identityDriver();
  if (device.kind == plan::DeviceKind::Cuda && p.computeMajor > 0) {
    std::string text =
        std::to_string(p.computeMajor) + "." + std::to_string(p.computeMinor);
    info.computeCapability = plan::parseComputeCapability(text);
    if (!info.computeCapability)
      note(notes, "topology: " + p.label() + ": compute capability " + text +
                      " is left out (expected 3.0 to 99.9)");
  }
  return info;
}

llvm::Expected<Topology> topologyFromProbe(const probe::ProbeResult &probed,
                                           std::vector<std::string> *notes,
                                           const ProbeConstants &constants) {
  if (notes)
    notes->insert(notes->end(), probed.notes.begin(), probed.notes.end());
  Topology t;
  std::set<Device> seen;
  bool haveHost = false;
  for (const probe::ProbedDevice &p : probed.devices) {
    Device device = p.device();
    if (!seen.insert(device).second)
      return llvm::createStringError("probe: error: device '" + device.str() +
                                     "' was enumerated twice");
    if (device.isHost()) {
      t.devices.push_back(hostFromProbe(p, constants, notes));
      haveHost = true;
      continue;
    }
    DeviceInfo info = accelerator(p, device, constants, notes);
    // Host <-> device links each way: shared memory for a CPU-type Vulkan
    // device (its buffers are host memory), a PCIe device copy otherwise
    // (SEMANTICS §5).
    Link in, out;
    in.from = out.to = Device::cpu();
    in.to = out.from = device;
    if (info.cpuType) {
      plan::PathDefaults d = plan::pathClassDefaults(PathClass::SharedMemory);
      in.pathClass = out.pathClass = PathClass::SharedMemory;
      in.bandwidthBytesPerSec = out.bandwidthBytesPerSec =
          d.bandwidthBytesPerSec;
      in.latencyNs = out.latencyNs = d.latencyNs;
    } else {
      in.pathClass = out.pathClass = PathClass::DeviceCopy;
      in.bandwidthBytesPerSec = out.bandwidthBytesPerSec =
          constants.pcieBandwidthBytesPerSec;
      in.latencyNs = out.latencyNs = constants.pcieLatencyNs;
    }
    t.devices.push_back(std::move(info));
    t.links.push_back(in);
    t.links.push_back(out);
  }
  if (!haveHost) {
    note(notes, "topology: no cpu was probed; the host takes the default "
                "topology's figures");
    t.devices.push_back(defaultTopology().devices.front());
  }
  t.canonicalize();
  std::string problem = t.validate();
  if (!problem.empty())
    return llvm::createStringError("probe: error: " + problem);
  return t;
}

llvm::Expected<Topology> probeTopology(std::vector<std::string> *notes) {
  return topologyFromProbe(probe::probeAll(), notes);
}

} // namespace fuel::target
