//===- ProbeTopologyTest.cpp - Tests of topologies built from the probe ---===//
//
// topologyFromProbe on fixed, synthetic probe results (so the assertions mean
// the same on every machine), plus one smoke test that probing this machine
// yields a valid topology with exactly one host.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/TopologyFile.h"

#include "fuel/Probe/Probe.h"

#include <gtest/gtest.h>

using namespace fuel;
using namespace fuel::target;
using plan::Device;
using plan::PathClass;
using plan::Topology;

namespace {

probe::ProbedDevice cpu(double peak) {
  probe::ProbedDevice d;
  d.kind = probe::Kind::Cpu;
  d.name = "test cpu";
  d.cpuType = true;
  d.cores = 8;
  d.physicalCores = 4;
  d.vectorBits = 256;
  d.clockGHz = 3.0;
  d.memoryBytes = 1ull << 34;
  d.peakF32FlopsPerNs = peak;
  return d;
}

probe::ProbedDevice gpu(probe::Kind kind, uint32_t ordinal, bool cpuType) {
  probe::ProbedDevice d;
  d.kind = kind;
  d.ordinal = ordinal;
  d.name = cpuType ? "llvmpipe" : "gpu";
  d.cpuType = cpuType;
  d.memoryBytes = 1ull << 30;
  return d;
}

TEST(ProbeTopology, HostFromProbedPeak) {
  probe::ProbeResult r;
  r.devices.push_back(cpu(166.0));
  r.notes.push_back("cuda: no driver");
  std::vector<std::string> notes;
  llvm::Expected<Topology> t = topologyFromProbe(r, &notes);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  ASSERT_EQ(t->devices.size(), 1u);
  const plan::DeviceInfo &host = t->devices[0];
  EXPECT_EQ(host.device, Device::cpu());
  EXPECT_TRUE(host.cpuType);
  EXPECT_EQ(host.name, "test cpu");
  EXPECT_EQ(host.peakFlopsPerNs.at("f32"), 166.0);
  EXPECT_EQ(host.peakFlopsPerNs.at("f64"), 83.0);
  EXPECT_EQ(*host.bytesPerNs, ProbeConstants().cpuBytesPerNs);
  EXPECT_EQ(host.dispatchOverheadNs, ProbeConstants().cpuDispatchOverheadNs);
  EXPECT_EQ(host.memoryBytes, 1ull << 34);
  EXPECT_EQ(host.alignment, 64u);
  ASSERT_GE(notes.size(), 2u);
  EXPECT_EQ(notes[0], "cuda: no driver");
}

// The probed cpu target becomes the host's cpu_target; a probe that saw
// none leaves it absent (the compiling host).
TEST(ProbeTopology, HostCpuTarget) {
  probe::ProbeResult r;
  r.devices.push_back(cpu(166.0));
  llvm::Expected<Topology> none = topologyFromProbe(r);
  ASSERT_TRUE(bool(none)) << llvm::toString(none.takeError());
  EXPECT_FALSE(none->devices[0].cpuTarget.has_value());
  r.devices[0].targetCpu = "x86-64";
  r.devices[0].targetFeatures = "+avx,+avx2,+fma";
  llvm::Expected<Topology> t = topologyFromProbe(r);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  ASSERT_TRUE(t->devices[0].cpuTarget.has_value());
  EXPECT_EQ(t->devices[0].cpuTarget->cpu, "x86-64");
  EXPECT_EQ(t->devices[0].cpuTarget->features, "+avx,+avx2,+fma");
}

TEST(ProbeTopology, HostPeakFromCoresAndVectorWidth) {
  probe::ProbeResult r;
  r.devices.push_back(cpu(0));
  llvm::Expected<Topology> t = topologyFromProbe(r);
  ASSERT_TRUE(bool(t));
  // 4 physical cores x 3 GHz x 8 lanes x 2 (FMA).
  EXPECT_EQ(t->devices[0].peakFlopsPerNs.at("f32"), 192.0);

  // Unknown clock and width take the constants: 4 x 2 GHz x 4 lanes x 2.
  r.devices[0].clockGHz = 0;
  r.devices[0].vectorBits = 0;
  std::vector<std::string> notes;
  t = topologyFromProbe(r, &notes);
  ASSERT_TRUE(bool(t));
  EXPECT_EQ(t->devices[0].peakFlopsPerNs.at("f32"), 64.0);
  EXPECT_EQ(notes.size(), 3u);
}

TEST(ProbeTopology, CudaAndVulkanDevicesWithLinks) {
  probe::ProbeResult r;
  r.devices.push_back(cpu(100));
  probe::ProbedDevice h100 = gpu(probe::Kind::Cuda, 0, false);
  h100.peakF32FlopsPerNs = 60000;
  h100.bytesPerNs = 3300;
  r.devices.push_back(h100);
  r.devices.push_back(gpu(probe::Kind::Cuda, 1, false));
  r.devices.push_back(gpu(probe::Kind::Vulkan, 0, true));
  r.devices.push_back(gpu(probe::Kind::Vulkan, 1, false));
  llvm::Expected<Topology> t = topologyFromProbe(r);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->validate(), "");
  ASSERT_EQ(t->devices.size(), 5u);
  ProbeConstants c;

  const plan::DeviceInfo *cuda0 = t->find(Device::cuda(0));
  ASSERT_NE(cuda0, nullptr);
  EXPECT_FALSE(cuda0->cpuType);
  EXPECT_EQ(cuda0->peakFlopsPerNs.at("f32"), 60000.0);
  EXPECT_EQ(*cuda0->bytesPerNs, 3300.0);
  EXPECT_EQ(cuda0->dispatchOverheadNs, c.cudaDispatchOverheadNs);
  EXPECT_EQ(cuda0->alignment, c.gpuAlignment);
  // Unknown figures stay unknown, so the planner's priors apply.
  const plan::DeviceInfo *cuda1 = t->find(Device::cuda(1));
  ASSERT_NE(cuda1, nullptr);
  EXPECT_TRUE(cuda1->peakFlopsPerNs.empty());
  EXPECT_FALSE(cuda1->bytesPerNs.has_value());

  for (Device d : {Device::cuda(0), Device::cuda(1), Device::vulkan(1)}) {
    for (auto [from, to] :
         {std::pair{Device::cpu(), d}, std::pair{d, Device::cpu()}}) {
      const plan::Link *l = t->findLink(from, to);
      ASSERT_NE(l, nullptr) << from.str() << " -> " << to.str();
      EXPECT_EQ(l->pathClass, PathClass::DeviceCopy);
      EXPECT_EQ(l->bandwidthBytesPerSec, c.pcieBandwidthBytesPerSec);
      EXPECT_EQ(l->latencyNs, c.pcieLatencyNs);
    }
  }
  // lavapipe is described as what it is: CPU-type, shared memory.
  const plan::DeviceInfo *lavapipe = t->find(Device::vulkan(0));
  ASSERT_NE(lavapipe, nullptr);
  EXPECT_TRUE(lavapipe->cpuType);
  EXPECT_EQ(lavapipe->dispatchOverheadNs, c.vulkanCpuDispatchOverheadNs);
  const plan::Link *shared = t->findLink(Device::cpu(), Device::vulkan(0));
  ASSERT_NE(shared, nullptr);
  EXPECT_EQ(shared->pathClass, PathClass::SharedMemory);
  EXPECT_EQ(
      shared->bandwidthBytesPerSec,
      plan::pathClassDefaults(PathClass::SharedMemory).bandwidthBytesPerSec);
  // No GPU-to-GPU links: without a measured peer path, copies stage through
  // the host.
  EXPECT_EQ(t->findLink(Device::cuda(0), Device::cuda(1)), nullptr);
  EXPECT_EQ(t->links.size(), 8u);

  // The probed topology prints and reads back.
  llvm::Expected<Topology> back = parseTopology(printTopologyJSON(*t), "p");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(topologiesEqual(*t, *back));
}

TEST(ProbeTopology, NoCpuTakesDefaultHost) {
  probe::ProbeResult r;
  r.devices.push_back(gpu(probe::Kind::Cuda, 0, false));
  llvm::Expected<Topology> t = topologyFromProbe(r);
  ASSERT_TRUE(bool(t));
  ASSERT_NE(t->find(Device::cpu()), nullptr);
  EXPECT_EQ(t->find(Device::cpu())->peakFlopsPerNs,
            defaultTopology().devices[0].peakFlopsPerNs);
}

TEST(ProbeTopology, DuplicateDeviceIsAnError) {
  probe::ProbeResult r;
  r.devices.push_back(cpu(1));
  r.devices.push_back(gpu(probe::Kind::Cuda, 0, false));
  r.devices.push_back(gpu(probe::Kind::Cuda, 0, false));
  llvm::Expected<Topology> t = topologyFromProbe(r);
  ASSERT_FALSE(bool(t));
  EXPECT_EQ(llvm::toString(t.takeError()),
            "probe: error: device 'cuda:0' was enumerated twice");
}

// Tests that a probed Vulkan device's limits become the topology's, that a
// device without any keeps none, and that limits a topology cannot hold are
// left out with a note.
TEST(ProbeTopology, VulkanLimitsFromProbe) {
  probe::ProbeResult r;
  r.devices.push_back(cpu(100.0));
  probe::ProbedDevice lavapipe = gpu(probe::Kind::Vulkan, 0, true);
  probe::VulkanProperties &v = lavapipe.vulkan;
  v.subgroupSize = 8;
  v.sharedMemoryBytes = 32768;
  v.maxWorkgroupInvocations = 1024;
  v.maxWorkgroupSize[0] = v.maxWorkgroupSize[1] = v.maxWorkgroupSize[2] = 1024;
  v.minStorageBufferOffsetAlignment = 16;
  v.maxPushConstantsBytes = 128;
  v.timestampPeriodNs = 1.0;
  r.devices.push_back(lavapipe);
  probe::ProbedDevice bare = gpu(probe::Kind::Vulkan, 1, false);
  r.devices.push_back(bare);
  probe::ProbedDevice odd = gpu(probe::Kind::Vulkan, 2, false);
  odd.vulkan.subgroupSize = 48; // Not a power of two.
  r.devices.push_back(odd);
  probe::ProbedDevice cuda = gpu(probe::Kind::Cuda, 0, false);
  r.devices.push_back(cuda);
  std::vector<std::string> notes;
  llvm::Expected<Topology> t = topologyFromProbe(r, &notes);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  const plan::DeviceInfo *vk = t->find(Device::vulkan(0));
  ASSERT_TRUE(vk && vk->gpuLimits);
  plan::GpuLimits expected;
  expected.subgroupSize = 8;
  expected.sharedMemoryBytes = 32768;
  expected.maxWorkgroupInvocations = 1024;
  expected.maxWorkgroupSize[0] = expected.maxWorkgroupSize[1] =
      expected.maxWorkgroupSize[2] = 1024;
  expected.minStorageBufferOffsetAlignment = 16;
  expected.maxPushConstantsBytes = 128;
  expected.timestampPeriodNs = 1.0;
  EXPECT_EQ(*vk->gpuLimits, expected);
  EXPECT_FALSE(t->find(Device::vulkan(1))->gpuLimits);
  EXPECT_FALSE(t->find(Device::vulkan(2))->gpuLimits);
  EXPECT_FALSE(t->find(Device::cuda(0))->gpuLimits);
  EXPECT_FALSE(t->find(Device::cpu())->gpuLimits);
  bool noted = false;
  for (const std::string &n : notes)
    noted |= n == "topology: vulkan:2: the driver's limits are left out "
                  "(subgroup_size 48 is not a power of two up to 128)";
  EXPECT_TRUE(noted);
}

// The driver a topology carries is the probed device's identity driver, the
// one the runtime stores measurements under: "vulkan " and the driver's
// version (NVIDIA's packing for vendor 0x10de, Vulkan's otherwise), "cuda "
// and cuDriverGetVersion's CUDA version, nothing for the host or a device
// that reported no version.
TEST(ProbeTopology, DriverIsTheIdentityDriver) {
  probe::ProbeResult r;
  r.devices.push_back(cpu(100.0));
  probe::ProbedDevice cuda = gpu(probe::Kind::Cuda, 0, false);
  cuda.cudaDriverVersion = 12080;
  r.devices.push_back(cuda);
  probe::ProbedDevice nvidia = gpu(probe::Kind::Vulkan, 0, false);
  nvidia.vendorId = 0x10de;
  nvidia.vulkan.driverVersion = (535u << 22) | (104u << 14) | (5u << 6);
  r.devices.push_back(nvidia);
  probe::ProbedDevice mesa = gpu(probe::Kind::Vulkan, 1, true);
  mesa.vendorId = 0x10005;
  mesa.vulkan.driverVersion = (22u << 22) | (3u << 12) | 6u;
  r.devices.push_back(mesa);
  probe::ProbedDevice unversioned = gpu(probe::Kind::Vulkan, 2, false);
  r.devices.push_back(unversioned);
  llvm::Expected<Topology> t = topologyFromProbe(r);
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  const plan::DeviceInfo *host = t->find(Device::cpu());
  const plan::DeviceInfo *c = t->find(Device::cuda(0));
  const plan::DeviceInfo *v0 = t->find(Device::vulkan(0));
  const plan::DeviceInfo *v1 = t->find(Device::vulkan(1));
  const plan::DeviceInfo *v2 = t->find(Device::vulkan(2));
  ASSERT_TRUE(host && c && v0 && v1 && v2);
  EXPECT_EQ(host->driver, "");
  EXPECT_EQ(c->driver, "cuda 12.8");
  EXPECT_EQ(c->driver, cuda.identityDriver());
  EXPECT_EQ(v0->driver, "vulkan 535.104.5");
  EXPECT_EQ(v0->driver, nvidia.identityDriver());
  EXPECT_EQ(v1->driver, "vulkan 22.3.6");
  EXPECT_EQ(v1->driver, mesa.identityDriver());
  EXPECT_EQ(v2->driver, "");
  EXPECT_EQ(v2->driver, unversioned.identityDriver());
}

TEST(ProbeTopology, ThisMachineGivesAValidTopology) {
  // Whatever this machine has, probing never fails for a missing driver and
  // always yields exactly one host.
  llvm::Expected<Topology> t = probeTopology();
  ASSERT_TRUE(bool(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->validate(), "");
  EXPECT_NE(t->find(Device::cpu()), nullptr);
  // Every Vulkan device the probe finds states its limits.
  for (const probe::ProbedDevice &d : probe::probeVulkan().devices) {
    const plan::DeviceInfo *info = t->find(d.device());
    ASSERT_NE(info, nullptr) << d.describe();
    ASSERT_TRUE(info->gpuLimits) << d.describe();
    EXPECT_EQ(info->gpuLimits->subgroupSize, d.vulkan.subgroupSize);
    EXPECT_EQ(info->gpuLimits->minStorageBufferOffsetAlignment,
              d.vulkan.minStorageBufferOffsetAlignment);
  }
}

} // namespace
