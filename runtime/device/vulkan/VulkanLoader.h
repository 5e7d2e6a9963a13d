//===- VulkanLoader.h - The Vulkan loader, opened at run time ---*- C++ -*-===//
//
// Opens the Vulkan loader with dlopen (once per name, never closed: drivers
// register exit handlers) and takes the entry points of VulkanSymbols.h into
// one table. The Vulkan device and the probe (lib/Probe) reach Vulkan
// through it; nothing links against the loader. docs/RUNTIME.md, "Vulkan
// device".
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_VULKAN_VULKANLOADER_H
#define FUEL_RUNTIME_DEVICE_VULKAN_VULKANLOADER_H

#include "fuel/Runtime/Status.h"
#include "vulkan/VulkanSymbols.h"

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan_core.h>

#include <string>

namespace fuel::rt {

/// The loader's entry points, one member per row of VulkanSymbols.h.
struct VulkanSymbols {
  /// The loader library, as opened.
  std::string library;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define FUEL_VK_MEMBER(name) PFN_##name name = nullptr;
  FUEL_VK_GLOBAL_SYMBOLS(FUEL_VK_MEMBER, FUEL_VK_MEMBER)
  FUEL_VK_INSTANCE_SYMBOLS(FUEL_VK_MEMBER, FUEL_VK_MEMBER)
  FUEL_VK_DEVICE_SYMBOLS(FUEL_VK_MEMBER, FUEL_VK_MEMBER)
#undef FUEL_VK_MEMBER
};

/// The loader's soname; never the unversioned development link.
inline constexpr const char *kVulkanLoaderLibrary = "libvulkan.so.1";

/// Opens `library` (dlopen RTLD_NOW | RTLD_LOCAL, once per name per
/// process) and takes vkGetInstanceProcAddr and the global entry points.
/// Unavailable with the reason otherwise: "no Vulkan loader (<dlerror>)",
/// "<library> is not a Vulkan loader (vkGetInstanceProcAddr missing)".
StatusOr<VulkanSymbols> openVulkanLoader(const std::string &library);

/// Takes the instance entry points of `instance`: Unavailable "the Vulkan
/// loader has no vkX" for a missing REQUIRED one.
Status loadVulkanInstanceSymbols(VulkanSymbols &symbols, VkInstance instance);

/// Takes the device entry points of `device` (vkGetDeviceProcAddr, an
/// instance entry point, first): Unavailable "the Vulkan device has no vkX"
/// for a missing REQUIRED one.
Status loadVulkanDeviceSymbols(VulkanSymbols &symbols, VkDevice device);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICE_VULKAN_VULKANLOADER_H
