//===- VulkanDerive.h - A probed device from Vulkan properties --*- C++ -*-===//
//
// The pure part of the Vulkan probe: what fuel reports of a physical device,
// derived from the structs the driver fills. Kept apart from the loader calls
// so that unit tests can feed it fixed structs. Private to lib/Probe and its
// tests.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_PROBE_VULKANDERIVE_H
#define FUEL_LIB_PROBE_VULKANDERIVE_H

#include "fuel/Probe/Probe.h"

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fuel::probe::detail {

/// What the driver said of one physical device. `subgroup` and `id` are
/// valid only when `haveProperties2` (a Vulkan 1.1 instance and device).
struct VulkanRawDevice {
  VkPhysicalDeviceProperties properties = {};
  bool haveProperties2 = false;
  VkPhysicalDeviceSubgroupProperties subgroup = {};
  VkPhysicalDeviceIDProperties id = {};
  VkPhysicalDeviceMemoryProperties memory = {};
  std::vector<VkQueueFamilyProperties> queueFamilies;
};

/// Returns the SIMD width llvmpipe writes in its name, "llvmpipe (LLVM
/// 15.0.6, 256 bits)", or 0.
uint32_t vectorBitsFromDeviceName(std::string_view name);

/// Returns the device `vulkan:<ordinal>` described by `raw`. `hostCores` is
/// the host's logical core count, used for a CPU-type device. Appends a note
/// for each figure that stays unknown.
ProbedDevice deriveVulkanDevice(uint32_t ordinal, const VulkanRawDevice &raw,
                                uint32_t hostCores,
                                std::vector<std::string> &notes);

} // namespace fuel::probe::detail

#endif // FUEL_LIB_PROBE_VULKANDERIVE_H
