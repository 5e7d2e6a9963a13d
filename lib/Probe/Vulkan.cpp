//===- Vulkan.cpp - Enumerate Vulkan physical devices through the loader --===//
//
// Loads the Vulkan loader at run time with dlopen("libvulkan.so.1"), reaches
// every entry point through vkGetInstanceProcAddr, creates a Vulkan 1.0
// instance without layers or extensions, and reads each physical device's
// properties and memory heaps. The Vulkan types used are declared here, so
// neither the build nor the link needs libvulkan-dev. See docs/PROBE.md.
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include "Support.h"

#include <cstddef>
#include <dlfcn.h>
#include <vector>

namespace fuel::probe {

using detail::format;

namespace {

// Minimal declarations from vulkan_core.h (Vulkan 1.0, whose ABI is frozen).
// On Linux VKAPI_CALL and VKAPI_ATTR are empty, so plain function pointers
// have the right calling convention.
using VkResult = int32_t;
using VkFlags = uint32_t;
using VkDeviceSize = uint64_t;
using VkInstance = struct VkInstance_T *;
using VkPhysicalDevice = struct VkPhysicalDevice_T *;
using PFN_vkVoidFunction = void (*)();

constexpr VkResult kVkSuccess = 0;
constexpr VkResult kVkIncomplete = 5;
constexpr VkResult kVkErrorIncompatibleDriver = -9;
constexpr int32_t kStructureTypeApplicationInfo = 0;
constexpr int32_t kStructureTypeInstanceCreateInfo = 1;
constexpr uint32_t kApiVersion10 = 1u << 22; // VK_MAKE_API_VERSION(0, 1, 0, 0)
constexpr int32_t kPhysicalDeviceTypeCpu = 4;
constexpr VkFlags kMemoryHeapDeviceLocal = 0x1;

struct VkApplicationInfo {
  int32_t sType;
  const void *pNext;
  const char *pApplicationName;
  uint32_t applicationVersion;
  const char *pEngineName;
  uint32_t engineVersion;
  uint32_t apiVersion;
};

struct VkInstanceCreateInfo {
  int32_t sType;
  const void *pNext;
  VkFlags flags;
  const VkApplicationInfo *pApplicationInfo;
  uint32_t enabledLayerCount;
  const char *const *ppEnabledLayerNames;
  uint32_t enabledExtensionCount;
  const char *const *ppEnabledExtensionNames;
};

/// VkPhysicalDeviceProperties up to the limits, which are not read; the tail
/// is larger than the real limits and sparse properties (528 bytes together)
/// so the driver never writes past the object.
struct VkPhysicalDeviceProperties {
  uint32_t apiVersion;
  uint32_t driverVersion;
  uint32_t vendorID;
  uint32_t deviceID;
  int32_t deviceType;
  char deviceName[256];
  uint8_t pipelineCacheUUID[16];
  alignas(8) unsigned char limitsAndSparseProperties[1024];
};
static_assert(offsetof(VkPhysicalDeviceProperties, deviceName) == 20);
static_assert(offsetof(VkPhysicalDeviceProperties, limitsAndSparseProperties) ==
              296);

struct VkMemoryType {
  VkFlags propertyFlags;
  uint32_t heapIndex;
};

struct VkMemoryHeap {
  VkDeviceSize size;
  VkFlags flags;
};

struct VkPhysicalDeviceMemoryProperties {
  uint32_t memoryTypeCount;
  VkMemoryType memoryTypes[32];
  uint32_t memoryHeapCount;
  VkMemoryHeap memoryHeaps[16];
};
static_assert(sizeof(VkPhysicalDeviceMemoryProperties) == 520);

using PFN_vkGetInstanceProcAddr = PFN_vkVoidFunction (*)(VkInstance,
                                                         const char *);
using PFN_vkCreateInstance = VkResult (*)(const VkInstanceCreateInfo *,
                                          const void *, VkInstance *);
using PFN_vkDestroyInstance = void (*)(VkInstance, const void *);
using PFN_vkEnumeratePhysicalDevices = VkResult (*)(VkInstance, uint32_t *,
                                                    VkPhysicalDevice *);
using PFN_vkGetPhysicalDeviceProperties =
    void (*)(VkPhysicalDevice, VkPhysicalDeviceProperties *);
using PFN_vkGetPhysicalDeviceMemoryProperties =
    void (*)(VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *);

/// Returns the SIMD width llvmpipe writes in its name, "llvmpipe (LLVM 15.0.6,
/// 256 bits)", or 0.
uint32_t vectorBitsFromDeviceName(std::string_view name) {
  size_t bits = name.rfind(" bits)");
  if (bits == std::string_view::npos)
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

} // namespace

ProbeResult probeVulkan(const char *library) {
  ProbeResult result;
  void *handle = detail::openLibrary(library, "vulkan", "loader", result.notes);
  if (!handle)
    return result;
  auto getProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(handle, "vkGetInstanceProcAddr"));
  if (!getProcAddr) {
    result.notes.push_back(format(
        "vulkan: %s is not a Vulkan loader (vkGetInstanceProcAddr missing)",
        library));
    dlclose(handle);
    return result;
  }
  auto createInstance = reinterpret_cast<PFN_vkCreateInstance>(
      getProcAddr(nullptr, "vkCreateInstance"));
  if (!createInstance) {
    result.notes.push_back("vulkan: vkCreateInstance not available");
    dlclose(handle);
    return result;
  }

  VkApplicationInfo app = {};
  app.sType = kStructureTypeApplicationInfo;
  app.pApplicationName = "fuel-probe";
  app.pEngineName = "fuel";
  app.apiVersion = kApiVersion10;
  VkInstanceCreateInfo createInfo = {};
  createInfo.sType = kStructureTypeInstanceCreateInfo;
  createInfo.pApplicationInfo = &app;
  VkInstance instance = nullptr;
  VkResult status = createInstance(&createInfo, nullptr, &instance);
  // The loader and the drivers it loaded stay in the process from here on:
  // some drivers keep threads or atexit handlers and do not survive dlclose.
  if (status != kVkSuccess || !instance) {
    if (status == kVkErrorIncompatibleDriver)
      result.notes.push_back("vulkan: loader found, no Vulkan driver "
                             "(VK_ERROR_INCOMPATIBLE_DRIVER)");
    else
      result.notes.push_back(
          format("vulkan: vkCreateInstance failed with VkResult %d", status));
    return result;
  }

  auto destroyInstance = reinterpret_cast<PFN_vkDestroyInstance>(
      getProcAddr(instance, "vkDestroyInstance"));
  auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(
      getProcAddr(instance, "vkEnumeratePhysicalDevices"));
  auto getProperties = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(
      getProcAddr(instance, "vkGetPhysicalDeviceProperties"));
  auto getMemoryProperties =
      reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(
          getProcAddr(instance, "vkGetPhysicalDeviceMemoryProperties"));
  if (!enumerate || !getProperties || !getMemoryProperties) {
    result.notes.push_back("vulkan: instance entry points missing");
    if (destroyInstance)
      destroyInstance(instance, nullptr);
    return result;
  }

  // The count may grow between the two calls (VK_INCOMPLETE); retry a few
  // times rather than loop forever on a misbehaving driver.
  std::vector<VkPhysicalDevice> physicalDevices;
  for (int attempt = 0; attempt < 4; ++attempt) {
    uint32_t count = 0;
    status = enumerate(instance, &count, nullptr);
    if (status != kVkSuccess)
      break;
    physicalDevices.assign(count, nullptr);
    if (count == 0)
      break;
    status = enumerate(instance, &count, physicalDevices.data());
    physicalDevices.resize(count);
    if (status != kVkIncomplete)
      break;
  }
  if (status != kVkSuccess && status != kVkIncomplete) {
    result.notes.push_back(format(
        "vulkan: vkEnumeratePhysicalDevices failed with VkResult %d", status));
    physicalDevices.clear();
  } else if (physicalDevices.empty()) {
    result.notes.push_back("vulkan: loader and driver found, no device");
  }

  uint32_t hostCores = 0;
  for (size_t index = 0; index < physicalDevices.size(); ++index) {
    VkPhysicalDeviceProperties props = {};
    getProperties(physicalDevices[index], &props);
    VkPhysicalDeviceMemoryProperties memory = {};
    getMemoryProperties(physicalDevices[index], &memory);

    ProbedDevice dev;
    dev.kind = Kind::Vulkan;
    dev.ordinal = static_cast<uint32_t>(index);
    props.deviceName[sizeof(props.deviceName) - 1] = '\0';
    dev.name = props.deviceName;
    if (dev.name.empty())
      dev.name = "unknown Vulkan device";
    dev.vendorId = props.vendorID;
    dev.deviceId = props.deviceID;
    dev.cpuType = props.deviceType == kPhysicalDeviceTypeCpu;

    // Device memory is the sum of the device-local heaps; a device without
    // one reports its largest heap.
    uint64_t local = 0, largest = 0;
    uint32_t heaps = memory.memoryHeapCount < 16 ? memory.memoryHeapCount : 16;
    for (uint32_t h = 0; h < heaps; ++h) {
      if (memory.memoryHeaps[h].flags & kMemoryHeapDeviceLocal)
        local += memory.memoryHeaps[h].size;
      if (memory.memoryHeaps[h].size > largest)
        largest = memory.memoryHeaps[h].size;
    }
    dev.memoryBytes = local ? local : largest;

    // A CPU-type device (lavapipe) runs on the host's cores; llvmpipe also
    // names its SIMD width. Its speed is not the host's peak, so the peak and
    // bandwidth stay unknown.
    if (dev.cpuType) {
      if (!hostCores) {
        ProbeResult cpu = probeCpu();
        hostCores = cpu.devices.empty() ? 0 : cpu.devices.front().cores;
      }
      dev.cores = hostCores;
      dev.vectorBits = vectorBitsFromDeviceName(dev.name);
    }
    result.devices.push_back(std::move(dev));
  }

  if (destroyInstance)
    destroyInstance(instance, nullptr);
  return result;
}

} // namespace fuel::probe
