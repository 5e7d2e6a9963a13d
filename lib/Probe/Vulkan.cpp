//===- Vulkan.cpp - Enumerate Vulkan physical devices through the loader --===//
//
// Opens the Vulkan loader at run time through the runtime's loader
// (runtime/device/vulkan/VulkanLoader.h, the entry points of
// VulkanSymbols.h), creates an instance without layers or extensions
// (Vulkan 1.1 where the loader offers it, else 1.0), and reads each physical
// device's properties, Vulkan 1.1 subgroup and ID properties, memory heaps and
// queue families. The types come from vulkan_core.h (libvulkan-dev) with
// VK_NO_PROTOTYPES: nothing links against the loader. See docs/PROBE.md.
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include "Support.h"
#include "VulkanDerive.h"
#include "vulkan/VulkanLoader.h"

#include <cstring>
#include <vector>

namespace fuel::probe {

using detail::format;

namespace detail {

uint32_t vectorBitsFromDeviceName(std::string_view name) {
  size_t bits = name.rfind(" bits)");
  if (bits == std::string_view::npos || bits == 0)
    return 0;
  size_t begin = name.find_last_not_of("0123456789", bits - 1);
  if (begin == std::string_view::npos || begin + 1 >= bits)
    return 0;
  std::optional<uint64_t> value =
      detail::parseUnsigned(name.substr(begin + 1, bits - begin - 1));
  if (!value || (*value != 128 && *value != 256 && *value != 512))
    return 0;
  return static_cast<uint32_t>(*value);
}

ProbedDevice deriveVulkanDevice(uint32_t ordinal, const VulkanRawDevice &raw,
                                uint32_t hostCores,
                                std::vector<std::string> &notes) {
  const VkPhysicalDeviceProperties &props = raw.properties;
  ProbedDevice dev;
  dev.kind = Kind::Vulkan;
  dev.ordinal = ordinal;
  dev.name.assign(props.deviceName,
                  strnlen(props.deviceName, sizeof(props.deviceName)));
  if (dev.name.empty())
    dev.name = "unknown Vulkan device";
  std::string label = "vulkan:" + std::to_string(ordinal);
  dev.vendorId = props.vendorID;
  dev.deviceId = props.deviceID;
  dev.cpuType = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;

  VulkanProperties &v = dev.vulkan;
  v.deviceType = props.deviceType >= 0 && props.deviceType <= 4
                     ? static_cast<uint32_t>(props.deviceType)
                     : 0;
  v.apiVersion = props.apiVersion;
  v.driverVersion = props.driverVersion;

  // Device memory is the sum of the device-local heaps; a device without
  // one reports its largest heap. Memory is unified when the largest
  // device-local heap has a host-visible type (a small host-visible
  // device-local heap, a PCIe BAR window, does not make it so).
  const VkPhysicalDeviceMemoryProperties &memory = raw.memory;
  uint32_t heapCount = memory.memoryHeapCount < VK_MAX_MEMORY_HEAPS
                           ? memory.memoryHeapCount
                           : VK_MAX_MEMORY_HEAPS;
  uint64_t local = 0, largest = 0, largestLocal = 0;
  uint32_t largestLocalHeap = ~0u;
  for (uint32_t h = 0; h < heapCount; ++h) {
    const VkMemoryHeap &heap = memory.memoryHeaps[h];
    bool deviceLocal = heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
    v.heaps.push_back({heap.size, deviceLocal});
    if (deviceLocal) {
      local += heap.size;
      if (largestLocalHeap == ~0u || heap.size > largestLocal) {
        largestLocal = heap.size;
        largestLocalHeap = h;
      }
    }
    if (heap.size > largest)
      largest = heap.size;
  }
  dev.memoryBytes = local ? local : largest;
  uint32_t typeCount = memory.memoryTypeCount < VK_MAX_MEMORY_TYPES
                           ? memory.memoryTypeCount
                           : VK_MAX_MEMORY_TYPES;
  constexpr VkMemoryPropertyFlags kUnified =
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  for (uint32_t t = 0; t < typeCount; ++t)
    if ((memory.memoryTypes[t].propertyFlags & kUnified) == kUnified &&
        memory.memoryTypes[t].heapIndex == largestLocalHeap)
      v.unifiedMemory = true;

  // Limits (Vulkan 1.0) and the subgroup size (1.1).
  const VkPhysicalDeviceLimits &limits = props.limits;
  v.sharedMemoryBytes = limits.maxComputeSharedMemorySize;
  v.maxWorkgroupInvocations = limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i)
    v.maxWorkgroupSize[i] = limits.maxComputeWorkGroupSize[i];
  v.minStorageBufferOffsetAlignment = limits.minStorageBufferOffsetAlignment;
  v.maxPushConstantsBytes = limits.maxPushConstantsSize;
  v.timestampPeriodNs = limits.timestampPeriod;
  if (raw.haveProperties2) {
    v.subgroupSize = raw.subgroup.subgroupSize;
    std::memcpy(v.deviceUuid, raw.id.deviceUUID, sizeof(v.deviceUuid));
  } else {
    notes.push_back(label + ": subgroup size and device UUID unknown (the " +
                    "instance or device is Vulkan 1.0; they need 1.1)");
  }

  // Timestamps on a compute queue: timestampValidBits of a family with
  // compute (timestampComputeAndGraphics promises it for all of them).
  for (const VkQueueFamilyProperties &family : raw.queueFamilies)
    if ((family.queueFlags & VK_QUEUE_COMPUTE_BIT) &&
        family.timestampValidBits > 0)
      v.computeTimestamps = true;

  // A CPU-type device (lavapipe) runs on the host's cores; llvmpipe also
  // names its SIMD width. Its speed is not the host's peak, so the peak and
  // bandwidth stay unknown.
  if (dev.cpuType) {
    dev.cores = hostCores;
    dev.vectorBits = vectorBitsFromDeviceName(dev.name);
  }
  return dev;
}

} // namespace detail

ProbeResult probeVulkan(const char *library) {
  ProbeResult result;
  if (!library || !*library) {
    result.notes.push_back("vulkan: no loader library name given");
    return result;
  }
  // The runtime's loader (runtime/device/vulkan/VulkanLoader.h): one table
  // of entry points, one dlopen per library name, never closed (some
  // drivers keep threads or atexit handlers and do not survive dlclose).
  rt::StatusOr<rt::VulkanSymbols> opened = rt::openVulkanLoader(library);
  if (!opened) {
    result.notes.push_back("vulkan: " + opened.status().message());
    return result;
  }
  rt::VulkanSymbols &vk = *opened;
  // A Vulkan 1.0 loader has no vkEnumerateInstanceVersion and refuses an
  // instance above 1.0; a 1.1 instance gives vkGetPhysicalDeviceProperties2.
  uint32_t instanceVersion = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion) {
    uint32_t version = 0;
    if (vk.vkEnumerateInstanceVersion(&version) == VK_SUCCESS &&
        version >= VK_API_VERSION_1_1)
      instanceVersion = VK_API_VERSION_1_1;
  }

  VkApplicationInfo app = {};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "fuel-probe";
  app.pEngineName = "fuel";
  app.apiVersion = instanceVersion;
  VkInstanceCreateInfo createInfo = {};
  createInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  createInfo.pApplicationInfo = &app;
  VkInstance instance = nullptr;
  VkResult status = vk.vkCreateInstance(&createInfo, nullptr, &instance);
  if (status != VK_SUCCESS || !instance) {
    if (status == VK_ERROR_INCOMPATIBLE_DRIVER)
      result.notes.push_back("vulkan: loader found, no Vulkan driver "
                             "(VK_ERROR_INCOMPATIBLE_DRIVER)");
    else
      result.notes.push_back(
          format("vulkan: vkCreateInstance failed with VkResult %d", status));
    return result;
  }

  if (rt::Status s = rt::loadVulkanInstanceSymbols(vk, instance); !s) {
    result.notes.push_back("vulkan: " + s.message());
    if (vk.vkDestroyInstance)
      vk.vkDestroyInstance(instance, nullptr);
    return result;
  }
  // Properties2 is core in 1.1 only: a 1.0 instance does not have it.
  PFN_vkGetPhysicalDeviceProperties2 getProperties2 =
      instanceVersion >= VK_API_VERSION_1_1 ? vk.vkGetPhysicalDeviceProperties2
                                            : nullptr;

  // The count may grow between the two calls (VK_INCOMPLETE); retry a few
  // times rather than loop forever on a misbehaving driver.
  std::vector<VkPhysicalDevice> physicalDevices;
  for (int attempt = 0; attempt < 4; ++attempt) {
    uint32_t count = 0;
    status = vk.vkEnumeratePhysicalDevices(instance, &count, nullptr);
    if (status != VK_SUCCESS)
      break;
    physicalDevices.assign(count, nullptr);
    if (count == 0)
      break;
    status =
        vk.vkEnumeratePhysicalDevices(instance, &count, physicalDevices.data());
    physicalDevices.resize(count);
    if (status != VK_INCOMPLETE)
      break;
  }
  if (status != VK_SUCCESS && status != VK_INCOMPLETE) {
    result.notes.push_back(format(
        "vulkan: vkEnumeratePhysicalDevices failed with VkResult %d", status));
    physicalDevices.clear();
  } else if (physicalDevices.empty()) {
    result.notes.push_back("vulkan: loader and driver found, no device");
  }

  uint32_t hostCores = 0;
  for (size_t index = 0; index < physicalDevices.size(); ++index) {
    VkPhysicalDevice physical = physicalDevices[index];
    detail::VulkanRawDevice raw;
    vk.vkGetPhysicalDeviceProperties(physical, &raw.properties);
    vk.vkGetPhysicalDeviceMemoryProperties(physical, &raw.memory);
    uint32_t families = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    raw.queueFamilies.resize(families);
    vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &families,
                                                raw.queueFamilies.data());
    raw.queueFamilies.resize(families);
    // Properties2 needs a 1.1 instance and a 1.1 device.
    if (getProperties2 && raw.properties.apiVersion >= VK_API_VERSION_1_1) {
      raw.subgroup.sType =
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
      raw.id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
      raw.subgroup.pNext = &raw.id;
      VkPhysicalDeviceProperties2 props2 = {};
      props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
      props2.pNext = &raw.subgroup;
      getProperties2(physical, &props2);
      raw.subgroup.pNext = nullptr;
      raw.haveProperties2 = true;
    }
    if (raw.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU &&
        !hostCores) {
      ProbeResult cpu = probeCpu();
      hostCores = cpu.devices.empty() ? 0 : cpu.devices.front().cores;
    }
    result.devices.push_back(detail::deriveVulkanDevice(
        static_cast<uint32_t>(index), raw, hostCores, result.notes));
  }

  vk.vkDestroyInstance(instance, nullptr);
  return result;
}

} // namespace fuel::probe
