//===- VulkanProbeTest.cpp - Tests of the Vulkan probe --------------------===//
//
// The derivation of a probed Vulkan device from fixed driver structs (memory,
// unified memory, limits, subgroup size, timestamps, a Vulkan 1.0 device),
// its printed details, and the real Vulkan devices of this machine: where one
// exists its figures are checked against the rules of the specification;
// where none does the test skips with the reason, except under CI=true, where
// it fails.
//
//===----------------------------------------------------------------------===//

#include "VulkanDerive.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace fuel::probe;
using fuel::probe::detail::deriveVulkanDevice;
using fuel::probe::detail::vectorBitsFromDeviceName;
using fuel::probe::detail::VulkanRawDevice;

namespace {

bool isPowerOfTwo(uint64_t v) { return v && !(v & (v - 1)); }

/// What lavapipe (Mesa 22.3, LLVM 15) reports: one 2 GiB device-local heap
/// with a host-visible type, subgroup 8, 32 KiB of shared memory.
VulkanRawDevice lavapipeLike() {
  VulkanRawDevice raw;
  VkPhysicalDeviceProperties &p = raw.properties;
  p.apiVersion = VK_MAKE_API_VERSION(0, 1, 3, 230);
  p.driverVersion = 1;
  p.vendorID = 0x10005;
  p.deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
  std::strcpy(p.deviceName, "llvmpipe (LLVM 15.0.6, 256 bits)");
  p.limits.maxComputeSharedMemorySize = 32768;
  p.limits.maxComputeWorkGroupInvocations = 1024;
  p.limits.maxComputeWorkGroupSize[0] = 1024;
  p.limits.maxComputeWorkGroupSize[1] = 1024;
  p.limits.maxComputeWorkGroupSize[2] = 1024;
  p.limits.minStorageBufferOffsetAlignment = 16;
  p.limits.maxPushConstantsSize = 128;
  p.limits.timestampPeriod = 1.0f;
  raw.haveProperties2 = true;
  raw.subgroup.subgroupSize = 8;
  const char uuid[16] = {'m', 'e', 's', 'a', '2', '2', '.', '3'};
  std::memcpy(raw.id.deviceUUID, uuid, 16);
  raw.memory.memoryHeapCount = 1;
  raw.memory.memoryHeaps[0] = {2ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
  raw.memory.memoryTypeCount = 1;
  raw.memory.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                               0};
  VkQueueFamilyProperties family = {};
  family.queueFlags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
  family.queueCount = 1;
  family.timestampValidBits = 64;
  raw.queueFamilies.push_back(family);
  return raw;
}

/// A discrete GPU: 24 GiB device-local heap, a 256 MiB host-visible
/// device-local BAR heap, 64 GiB of host memory; subgroup 32.
VulkanRawDevice discreteLike() {
  VulkanRawDevice raw;
  VkPhysicalDeviceProperties &p = raw.properties;
  p.apiVersion = VK_MAKE_API_VERSION(0, 1, 3, 277);
  p.driverVersion = (550u << 22) | (54u << 14);
  p.vendorID = 0x10de;
  p.deviceID = 0x2684;
  p.deviceType = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
  std::strcpy(p.deviceName, "NVIDIA GeForce RTX 4090");
  p.limits.maxComputeSharedMemorySize = 49152;
  p.limits.maxComputeWorkGroupInvocations = 1024;
  p.limits.maxComputeWorkGroupSize[0] = 1024;
  p.limits.maxComputeWorkGroupSize[1] = 1024;
  p.limits.maxComputeWorkGroupSize[2] = 64;
  p.limits.minStorageBufferOffsetAlignment = 32;
  p.limits.maxPushConstantsSize = 256;
  p.limits.timestampPeriod = 1.0f;
  raw.haveProperties2 = true;
  raw.subgroup.subgroupSize = 32;
  raw.memory.memoryHeapCount = 3;
  raw.memory.memoryHeaps[0] = {24ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
  raw.memory.memoryHeaps[1] = {64ull << 30, 0};
  raw.memory.memoryHeaps[2] = {256ull << 20, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
  raw.memory.memoryTypeCount = 3;
  raw.memory.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
  raw.memory.memoryTypes[1] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                               1};
  raw.memory.memoryTypes[2] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                               2};
  VkQueueFamilyProperties graphics = {};
  graphics.queueFlags = VK_QUEUE_GRAPHICS_BIT;
  graphics.timestampValidBits = 64;
  VkQueueFamilyProperties compute = {};
  compute.queueFlags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  compute.timestampValidBits = 0;
  raw.queueFamilies = {graphics, compute};
  return raw;
}

// Tests every figure derived from a lavapipe-like description.
TEST(VulkanDeriveTest, CpuTypeDevice) {
  std::vector<std::string> notes;
  ProbedDevice d = deriveVulkanDevice(0, lavapipeLike(), 6, notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(d.label(), "vulkan:0");
  EXPECT_EQ(d.name, "llvmpipe (LLVM 15.0.6, 256 bits)");
  EXPECT_TRUE(d.cpuType);
  EXPECT_EQ(d.cores, 6u);
  EXPECT_EQ(d.vectorBits, 256u);
  EXPECT_EQ(d.memoryBytes, 2ull << 30);
  const VulkanProperties &v = d.vulkan;
  EXPECT_EQ(v.deviceType, 4u);
  EXPECT_STREQ(v.deviceTypeName(), "cpu");
  EXPECT_EQ(formatVulkanVersion(v.apiVersion), "1.3.230");
  EXPECT_EQ(v.driverVersion, 1u);
  EXPECT_EQ(v.uuidString(), "6d657361-3232-2e33-0000-000000000000");
  ASSERT_EQ(v.heaps.size(), 1u);
  EXPECT_TRUE(v.heaps[0].deviceLocal);
  EXPECT_TRUE(v.unifiedMemory);
  EXPECT_EQ(v.subgroupSize, 8u);
  EXPECT_EQ(v.sharedMemoryBytes, 32768u);
  EXPECT_EQ(v.maxWorkgroupInvocations, 1024u);
  EXPECT_EQ(v.maxWorkgroupSize[2], 1024u);
  EXPECT_EQ(v.minStorageBufferOffsetAlignment, 16u);
  EXPECT_EQ(v.maxPushConstantsBytes, 128u);
  EXPECT_EQ(v.timestampPeriodNs, 1.0);
  EXPECT_TRUE(v.computeTimestamps);
  std::vector<std::string> lines = d.describeDetails();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "type cpu, Vulkan 1.3.230, driver version 0.0.1 (0x1), "
                      "uuid 6d657361-3232-2e33-0000-000000000000");
  EXPECT_EQ(lines[1], "heaps 2.00 GiB device-local; unified memory "
                      "(host-visible device-local)");
  EXPECT_EQ(lines[2],
            "limits: subgroup 8, shared memory 32768 B, workgroup 1024 "
            "invocations (max 1024x1024x1024), storage-buffer offset "
            "alignment 16 B, push constants 128 B, timestamp period 1 ns, "
            "compute timestamps yes");
}

// Tests a discrete GPU: device memory is the device-local heaps, a small
// host-visible BAR heap does not make memory unified, and a compute-only
// family without timestamp bits means no compute timestamps only when no
// compute family has them.
TEST(VulkanDeriveTest, DiscreteDevice) {
  std::vector<std::string> notes;
  VulkanRawDevice raw = discreteLike();
  ProbedDevice d = deriveVulkanDevice(1, raw, 6, notes);
  EXPECT_EQ(d.label(), "vulkan:1");
  EXPECT_FALSE(d.cpuType);
  EXPECT_EQ(d.cores, 0u);
  EXPECT_EQ(d.vectorBits, 0u);
  EXPECT_EQ(d.memoryBytes, (24ull << 30) + (256ull << 20));
  EXPECT_STREQ(d.vulkan.deviceTypeName(), "discrete-gpu");
  EXPECT_FALSE(d.vulkan.unifiedMemory);
  EXPECT_EQ(d.vulkan.heaps.size(), 3u);
  EXPECT_FALSE(d.vulkan.heaps[1].deviceLocal);
  EXPECT_EQ(d.vulkan.subgroupSize, 32u);
  EXPECT_EQ(d.vulkan.maxWorkgroupSize[2], 64u);
  EXPECT_FALSE(d.vulkan.computeTimestamps);
  EXPECT_EQ(formatDriverVersion(d.vendorId, d.vulkan.driverVersion),
            "550.54.0");
  EXPECT_EQ(formatDriverVersion(0x10005, VK_MAKE_API_VERSION(0, 22, 3, 6)),
            "22.3.6");

  // The graphics family gains compute: now a compute family has timestamps.
  raw.queueFamilies[0].queueFlags |= VK_QUEUE_COMPUTE_BIT;
  EXPECT_TRUE(deriveVulkanDevice(1, raw, 6, notes).vulkan.computeTimestamps);
  // The big heap gains a host-visible type: unified.
  raw.memory.memoryTypes[0].propertyFlags |=
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  EXPECT_TRUE(deriveVulkanDevice(1, raw, 6, notes).vulkan.unifiedMemory);
}

// Tests that a Vulkan 1.0 device (no properties2) leaves the subgroup size
// and UUID unknown, with a note, and that no device-local heap means the
// largest heap.
TEST(VulkanDeriveTest, Vulkan10DeviceAndNoLocalHeap) {
  VulkanRawDevice raw = lavapipeLike();
  raw.haveProperties2 = false;
  raw.subgroup.subgroupSize = 8; // Ignored: not queried.
  raw.memory.memoryHeapCount = 2;
  raw.memory.memoryHeaps[0] = {1ull << 30, 0};
  raw.memory.memoryHeaps[1] = {3ull << 30, 0};
  raw.properties.deviceName[0] = '\0';
  std::vector<std::string> notes;
  ProbedDevice d = deriveVulkanDevice(2, raw, 4, notes);
  EXPECT_EQ(d.name, "unknown Vulkan device");
  EXPECT_EQ(d.vulkan.subgroupSize, 0u);
  EXPECT_EQ(d.vulkan.uuidString(), "00000000-0000-0000-0000-000000000000");
  EXPECT_EQ(d.memoryBytes, 3ull << 30);
  EXPECT_FALSE(d.vulkan.unifiedMemory);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("vulkan:2: subgroup size and device UUID unknown"),
            std::string::npos);
}

// Tests the width llvmpipe writes into its name.
TEST(VulkanDeriveTest, VectorBitsFromName) {
  EXPECT_EQ(vectorBitsFromDeviceName("llvmpipe (LLVM 15.0.6, 256 bits)"), 256u);
  EXPECT_EQ(vectorBitsFromDeviceName("llvmpipe (LLVM 19.1.7, 128 bits)"), 128u);
  EXPECT_EQ(vectorBitsFromDeviceName("llvmpipe (LLVM 15.0.6, 96 bits)"), 0u);
  EXPECT_EQ(vectorBitsFromDeviceName(" bits)"), 0u);
  EXPECT_EQ(vectorBitsFromDeviceName("NVIDIA GeForce RTX 4090"), 0u);
}

// Tests the real Vulkan devices of this machine against the specification's
// minimum limits. No device: skipped with the reason, failed under CI=true.
TEST(VulkanProbeDeviceTest, RealDevicesHaveSpecLimits) {
  ProbeResult result = probeVulkan();
  if (result.devices.empty()) {
    std::string reason = "no Vulkan device:";
    for (const std::string &note : result.notes)
      reason += " " + note;
    const char *ci = std::getenv("CI");
    if (ci && std::string(ci) == "true")
      FAIL() << reason
             << " (CI=true requires one: install mesa-vulkan-drivers)";
    GTEST_SKIP() << reason;
  }
  for (size_t i = 0; i < result.devices.size(); ++i) {
    const ProbedDevice &d = result.devices[i];
    const VulkanProperties &v = d.vulkan;
    SCOPED_TRACE(d.describe());
    EXPECT_EQ(d.ordinal, i);
    EXPECT_GE(v.apiVersion, VK_API_VERSION_1_0);
    EXPECT_FALSE(v.heaps.empty());
    EXPECT_GT(d.memoryBytes, 0u);
    // Vulkan 1.0 required limits (table "Required Limits").
    EXPECT_GE(v.sharedMemoryBytes, 16384u);
    EXPECT_GE(v.maxWorkgroupInvocations, 128u);
    EXPECT_GE(v.maxWorkgroupSize[0], 128u);
    EXPECT_GE(v.maxWorkgroupSize[1], 128u);
    EXPECT_GE(v.maxWorkgroupSize[2], 64u);
    EXPECT_TRUE(isPowerOfTwo(v.minStorageBufferOffsetAlignment));
    EXPECT_LE(v.minStorageBufferOffsetAlignment, 256u);
    EXPECT_GE(v.maxPushConstantsBytes, 128u);
    EXPECT_GT(v.timestampPeriodNs, 0.0);
    if (v.apiVersion >= VK_API_VERSION_1_1) {
      EXPECT_TRUE(isPowerOfTwo(v.subgroupSize));
      EXPECT_NE(v.uuidString(), "00000000-0000-0000-0000-000000000000");
    }
    EXPECT_EQ(d.describeDetails().size(), 3u);
    if (d.name.rfind("llvmpipe", 0) == 0) {
      // lavapipe: one host-visible device-local heap, compute timestamps.
      EXPECT_TRUE(d.cpuType);
      EXPECT_STREQ(v.deviceTypeName(), "cpu");
      EXPECT_TRUE(v.unifiedMemory);
      EXPECT_TRUE(v.computeTimestamps);
    }
  }
  // Two probes agree.
  EXPECT_EQ(probeVulkan(), result);
}

} // namespace
