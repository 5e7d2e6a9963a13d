//===- VulkanLoader.cpp - The Vulkan loader, opened at run time -----------===//
//
// dlopen once per name, then the tables of VulkanSymbols.h through
// vkGetInstanceProcAddr and vkGetDeviceProcAddr (VulkanLoader.h).
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanLoader.h"

#include <dlfcn.h>
#include <map>
#include <mutex>

namespace fuel::rt {

namespace {

/// Opens one library; Unavailable with the reason.
StatusOr<VulkanSymbols> openOnce(const std::string &library) {
  dlerror();
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Status::error(StatusCode::Unavailable,
                         std::string("no Vulkan loader (") +
                             (why ? why : library.c_str()) + ")");
  }
  VulkanSymbols s;
  s.library = library;
  s.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(handle, "vkGetInstanceProcAddr"));
  if (!s.vkGetInstanceProcAddr)
    return Status::error(StatusCode::Unavailable,
                         library + " is not a Vulkan loader "
                                   "(vkGetInstanceProcAddr missing)");
  const char *missing = nullptr;
#define FUEL_VK_GLOBAL(name)                                                   \
  s.name = reinterpret_cast<PFN_##name>(                                       \
      s.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name));
#define FUEL_VK_REQUIRED_GLOBAL(name)                                          \
  FUEL_VK_GLOBAL(name)                                                         \
  if (!s.name && !missing)                                                     \
    missing = #name;
  FUEL_VK_GLOBAL_SYMBOLS(FUEL_VK_REQUIRED_GLOBAL, FUEL_VK_GLOBAL)
#undef FUEL_VK_REQUIRED_GLOBAL
#undef FUEL_VK_GLOBAL
  if (missing)
    return Status::error(StatusCode::Unavailable,
                         library + " is not a Vulkan loader (" + missing +
                             " missing)");
  return s;
}

} // namespace

StatusOr<VulkanSymbols> openVulkanLoader(const std::string &library) {
  // A function-local map behind a mutex, not std::call_once, whose TLS
  // would add the dynamic linker to libfuelrt's DT_NEEDED.
  static std::mutex mu;
  static auto *opened = new std::map<std::string, StatusOr<VulkanSymbols>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = opened->find(library);
  if (it == opened->end())
    it = opened->emplace(library, openOnce(library)).first;
  return it->second;
}

Status loadVulkanInstanceSymbols(VulkanSymbols &s, VkInstance instance) {
#define FUEL_VK_OPTIONAL(name)                                                 \
  s.name =                                                                     \
      reinterpret_cast<PFN_##name>(s.vkGetInstanceProcAddr(instance, #name));
#define FUEL_VK_REQUIRED(name)                                                 \
  FUEL_VK_OPTIONAL(name)                                                       \
  if (!s.name)                                                                 \
    return Status::error(StatusCode::Unavailable,                              \
                         "the Vulkan loader has no " #name);
  FUEL_VK_INSTANCE_SYMBOLS(FUEL_VK_REQUIRED, FUEL_VK_OPTIONAL)
#undef FUEL_VK_REQUIRED
#undef FUEL_VK_OPTIONAL
  return Status::ok();
}

Status loadVulkanDeviceSymbols(VulkanSymbols &s, VkDevice device) {
  if (!s.vkGetDeviceProcAddr)
    return Status::error(StatusCode::Unavailable,
                         "the Vulkan loader has no vkGetDeviceProcAddr");
#define FUEL_VK_OPTIONAL(name)                                                 \
  s.name = reinterpret_cast<PFN_##name>(s.vkGetDeviceProcAddr(device, #name));
#define FUEL_VK_REQUIRED(name)                                                 \
  FUEL_VK_OPTIONAL(name)                                                       \
  if (!s.name)                                                                 \
    return Status::error(StatusCode::Unavailable,                              \
                         "the Vulkan device has no " #name);
  FUEL_VK_DEVICE_SYMBOLS(FUEL_VK_REQUIRED, FUEL_VK_OPTIONAL)
#undef FUEL_VK_REQUIRED
#undef FUEL_VK_OPTIONAL
  return Status::ok();
}

} // namespace fuel::rt
