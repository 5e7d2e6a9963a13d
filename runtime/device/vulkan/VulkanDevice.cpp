//===- VulkanDevice.cpp - A Vulkan physical device as a device ------------===//
//
// Bring-up (VulkanDeviceImpl.h lists the other parts): the loader is opened
// through VulkanLoader.h and every entry point is fetched with
// vkGetInstanceProcAddr / vkGetDeviceProcAddr (VK_NO_PROTOTYPES). Buffers
// are VkBuffers bound to sub-ranges of a few large VkDeviceMemory blocks
// (VulkanArena.h). A queue keeps its submitted commands pending and records
// them into one command buffer, submitted once, when one of its fences is
// waited on or asked about, when finish() is called or when the batch is
// full; a buffer freed or a kernel unloaded before that fails the command
// when it is recorded. Fences are the values of one timeline semaphore per
// queue; each batch signals its last command's value.
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanDeviceImpl.h"

#include "DeviceChecks.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace fuel::rt {

using namespace vulkan_detail;
using detail::checkRange;
using detail::outOfRange;
using detail::unknownBuffer;

namespace vulkan_detail {

const char *vkResultName(VkResult r) {
  switch (r) {
  case VK_ERROR_OUT_OF_HOST_MEMORY:
    return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED:
    return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST:
    return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_EXTENSION_NOT_PRESENT:
    return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_FEATURE_NOT_PRESENT:
    return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_INCOMPATIBLE_DRIVER:
    return "VK_ERROR_INCOMPATIBLE_DRIVER (no Vulkan driver)";
  case VK_ERROR_TOO_MANY_OBJECTS:
    return "VK_ERROR_TOO_MANY_OBJECTS";
  case VK_ERROR_OUT_OF_POOL_MEMORY:
    return "VK_ERROR_OUT_OF_POOL_MEMORY";
  case VK_ERROR_INVALID_SHADER_NV:
    return "VK_ERROR_INVALID_SHADER_NV";
  default:
    return nullptr;
  }
}

std::string vkError(const char *call, VkResult r) {
  std::string s =
      std::string(call) + " failed with VkResult " + std::to_string(int(r));
  if (const char *name = vkResultName(r))
    s += std::string(" ") + name;
  return s;
}

Status vkStatus(const char *call, VkResult r) {
  StatusCode code = StatusCode::Internal;
  if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY ||
      r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_TOO_MANY_OBJECTS)
    code = StatusCode::ResourceExhausted;
  else if (r == VK_ERROR_DEVICE_LOST)
    code = StatusCode::Unavailable;
  std::string msg = vkError(call, r);
  if (r == VK_ERROR_DEVICE_LOST)
    msg += " (device lost)";
  return Status::error(code, msg);
}

void barrier(const VulkanSymbols &vk, VkCommandBuffer cb,
             VkPipelineStageFlags dstStage, VkAccessFlags dstAccess) {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                     VK_ACCESS_HOST_WRITE_BIT;
  mb.dstAccessMask = dstAccess;
  vk.vkCmdPipelineBarrier(cb,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                              VK_PIPELINE_STAGE_TRANSFER_BIT |
                              VK_PIPELINE_STAGE_HOST_BIT,
                          dstStage, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

} // namespace vulkan_detail

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

VulkanDevice::Impl::~Impl() {
  if (device) {
    vk.vkDeviceWaitIdle(device);
    for (auto &[id, k] : kernels) {
      vk.vkDestroyPipeline(device, k.pipeline, nullptr);
      vk.vkDestroyPipelineLayout(device, k.layout, nullptr);
      for (VkDescriptorSetLayout l : k.setLayouts)
        vk.vkDestroyDescriptorSetLayout(device, l, nullptr);
    }
    for (auto &[id, m] : modules)
      vk.vkDestroyShaderModule(device, m.shader, nullptr);
    for (auto &[id, b] : buffers)
      vk.vkDestroyBuffer(device, b.buffer, nullptr);
    for (Block &b : blocks)
      if (b.memory)
        vk.vkFreeMemory(device, b.memory, nullptr);
    if (stagingBuffer)
      vk.vkDestroyBuffer(device, stagingBuffer, nullptr);
    if (stagingMemory)
      vk.vkFreeMemory(device, stagingMemory, nullptr);
    if (xferFence)
      vk.vkDestroyFence(device, xferFence, nullptr);
    if (xferPool)
      vk.vkDestroyCommandPool(device, xferPool, nullptr);
    vk.vkDestroyDevice(device, nullptr);
  }
  if (instance)
    vk.vkDestroyInstance(instance, nullptr);
}

Status VulkanDevice::Impl::init(uint32_t ordinal,
                                const VulkanDeviceOptions &options) {
  StatusOr<VulkanSymbols> loader = openVulkanLoader(kVulkanLoaderLibrary);
  if (!loader)
    return loader.status();
  vk = *loader;
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion)
    vk.vkEnumerateInstanceVersion(&loaderVersion);
  if (!vk.vkCreateInstance || loaderVersion < VK_API_VERSION_1_2)
    return Status::error(StatusCode::Unavailable,
                         "the Vulkan loader does not support Vulkan 1.2");
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "fuel";
  app.pEngineName = "fuel";
  app.apiVersion = std::min<uint32_t>(loaderVersion, VK_API_VERSION_1_3);
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  if (VkResult r = vk.vkCreateInstance(&ici, nullptr, &instance);
      r != VK_SUCCESS)
    return Status::error(StatusCode::Unavailable,
                         vkError("vkCreateInstance", r));
  FUEL_RT_RETURN_IF_ERROR(loadVulkanInstanceSymbols(vk, instance));
  // Vulkan 1.2 devices only (below), whose instances have them.
  if (!vk.vkGetPhysicalDeviceProperties2 || !vk.vkGetPhysicalDeviceFeatures2)
    return Status::error(StatusCode::Unavailable,
                         "the Vulkan loader has no "
                         "vkGetPhysicalDeviceProperties2");

  uint32_t count = 0;
  if (VkResult r = vk.vkEnumeratePhysicalDevices(instance, &count, nullptr);
      r != VK_SUCCESS)
    return Status::error(StatusCode::Unavailable,
                         vkError("vkEnumeratePhysicalDevices", r));
  if (count == 0)
    return Status::error(StatusCode::Unavailable,
                         "no Vulkan device: vkEnumeratePhysicalDevices "
                         "found none");
  if (ordinal >= count)
    return Status::error(StatusCode::Unavailable,
                         "no Vulkan device vulkan:" + std::to_string(ordinal) +
                             ": there are " + std::to_string(count));
  std::vector<VkPhysicalDevice> physicals(count);
  vk.vkEnumeratePhysicalDevices(instance, &count, physicals.data());
  physical = physicals[ordinal];
  VkPhysicalDeviceIDProperties idProps{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props2.pNext = &idProps;
  vk.vkGetPhysicalDeviceProperties2(physical, &props2);
  props = props2.properties;
  std::memcpy(deviceUUID, idProps.deviceUUID, VK_UUID_SIZE);
  if (props.apiVersion < VK_API_VERSION_1_2)
    return Status::error(StatusCode::Unavailable,
                         std::string("Vulkan device ") + props.deviceName +
                             " does not support Vulkan 1.2");
  vk.vkGetPhysicalDeviceMemoryProperties(physical, &memProps);

  uint32_t families = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> fam(families);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, fam.data());
  bool found = false;
  for (uint32_t i = 0; i < families && !found; ++i)
    if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      queueFamily = i;
      timestampBits = fam[i].timestampValidBits;
      found = true;
    }
  if (!found)
    return Status::error(StatusCode::Unavailable,
                         std::string("Vulkan device ") + props.deviceName +
                             " has no compute queue");

  // Extensions: shader clock and calibrated timestamps where present.
  uint32_t numExt = 0;
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &numExt, nullptr);
  std::vector<VkExtensionProperties> exts(numExt);
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &numExt,
                                          exts.data());
  auto has = [&](const char *name) {
    for (const auto &e : exts)
      if (std::strcmp(e.extensionName, name) == 0)
        return true;
    return false;
  };
  std::vector<const char *> enabled;
  bool shaderClock = has(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
  bool calibrated = has(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
  if (shaderClock)
    enabled.push_back(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
  if (calibrated)
    enabled.push_back(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);

  // Every feature the device has, so that generated kernels may use them.
  VkPhysicalDeviceShaderClockFeaturesKHR clockFeatures{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  VkPhysicalDeviceVulkan13Features f13{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan11Features f11{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &f11;
  f11.pNext = &f12;
  void **tail = &f12.pNext;
  if (props.apiVersion >= VK_API_VERSION_1_3 &&
      app.apiVersion >= VK_API_VERSION_1_3) {
    *tail = &f13;
    tail = &f13.pNext;
  }
  if (shaderClock)
    *tail = &clockFeatures;
  vk.vkGetPhysicalDeviceFeatures2(physical, &features);
  if (!f12.timelineSemaphore)
    return Status::error(StatusCode::Unavailable,
                         std::string("Vulkan device ") + props.deviceName +
                             " has no timeline semaphores");
  features.features.robustBufferAccess = VK_FALSE;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queueFamily;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &features;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = uint32_t(enabled.size());
  dci.ppEnabledExtensionNames = enabled.data();
  if (VkResult r = vk.vkCreateDevice(physical, &dci, nullptr, &device);
      r != VK_SUCCESS) {
    device = VK_NULL_HANDLE;
    return Status::error(StatusCode::Unavailable, vkError("vkCreateDevice", r));
  }
  FUEL_RT_RETURN_IF_ERROR(loadVulkanDeviceSymbols(vk, device));
  // Only with the extension enabled (a loader may answer for it anyway).
  if (!calibrated)
    vk.vkGetCalibratedTimestampsEXT = nullptr;
  vk.vkGetDeviceQueue(device, queueFamily, 0, &queue);

  // Memory types: buffers in a device-local type, host-visible and coherent
  // where one is (unified memory: mapped directly).
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 256;
  bci.usage = usage;
  VkBuffer probe;
  if (VkResult r = vk.vkCreateBuffer(device, &bci, nullptr, &probe);
      r != VK_SUCCESS)
    return vkStatus("vkCreateBuffer", r);
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(device, probe, &req);
  vk.vkDestroyBuffer(device, probe, nullptr);
  const VkMemoryPropertyFlags hostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int local = -1, unified = -1, host = -1;
  for (uint32_t i = 0; i < memProps.memoryTypeCount; ++i) {
    if (!(req.memoryTypeBits & (1u << i)))
      continue;
    VkMemoryPropertyFlags f = memProps.memoryTypes[i].propertyFlags;
    bool isLocal = f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    bool isHost = (f & hostFlags) == hostFlags;
    if (isLocal && local < 0)
      local = int(i);
    if (isLocal && isHost && unified < 0)
      unified = int(i);
    if (isHost && host < 0)
      host = int(i);
  }
  if (local < 0 && host >= 0)
    local = host;
  if (local < 0 || host < 0)
    return Status::error(StatusCode::Unavailable,
                         std::string("Vulkan device ") + props.deviceName +
                             " has no usable memory type for buffers");
  bufferType = uint32_t(unified >= 0 ? unified : local);
  stagingType = uint32_t(host);
  mapped = unified >= 0;
  staging = !mapped || options.forceStaging;

  info.id = ::fuel::Device::vulkan(ordinal);
  info.name = props.deviceName;
  uint64_t heap =
      memProps.memoryHeaps[memProps.memoryTypes[bufferType].heapIndex].size;
  info.memoryLimit = options.memoryLimit ? options.memoryLimit : heap;
  info.maxAlignment = kMaxAlignment;
  info.hostVisible = mapped;
  info.bindingOffsetAlignment =
      std::max<uint64_t>(1, props.limits.minStorageBufferOffsetAlignment);
  pushBytes = std::min<uint32_t>(props.limits.maxPushConstantsSize,
                                 uint32_t(kMaxPushConstants * 4)) &
              ~3u;
  timestampPeriod = props.limits.timestampPeriod;
  if (options.pipelineCache)
    cacheDir = vulkanCacheDirectory(options);

  // The synchronous transfers.
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = queueFamily;
  if (VkResult r = vk.vkCreateCommandPool(device, &pci, nullptr, &xferPool);
      r != VK_SUCCESS)
    return vkStatus("vkCreateCommandPool", r);
  VkCommandBufferAllocateInfo ai{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = xferPool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  if (VkResult r = vk.vkAllocateCommandBuffers(device, &ai, &xferCmd);
      r != VK_SUCCESS)
    return vkStatus("vkAllocateCommandBuffers", r);
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (VkResult r = vk.vkCreateFence(device, &fci, nullptr, &xferFence);
      r != VK_SUCCESS)
    return vkStatus("vkCreateFence", r);
  if (staging) {
    bci.size = kStagingBytes;
    bci.usage =
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (VkResult r = vk.vkCreateBuffer(device, &bci, nullptr, &stagingBuffer);
        r != VK_SUCCESS)
      return vkStatus("vkCreateBuffer", r);
    vk.vkGetBufferMemoryRequirements(device, stagingBuffer, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = stagingType;
    if (VkResult r = vk.vkAllocateMemory(device, &mai, nullptr, &stagingMemory);
        r != VK_SUCCESS)
      return vkStatus("vkAllocateMemory", r);
    if (VkResult r =
            vk.vkBindBufferMemory(device, stagingBuffer, stagingMemory, 0);
        r != VK_SUCCESS)
      return vkStatus("vkBindBufferMemory", r);
    void *p = nullptr;
    if (VkResult r =
            vk.vkMapMemory(device, stagingMemory, 0, VK_WHOLE_SIZE, 0, &p);
        r != VK_SUCCESS)
      return vkStatus("vkMapMemory", r);
    stagingMap = static_cast<char *>(p);
  }
  return calibrate();
}

// The offset from device timestamps to the host's steady clock: from
// VK_EXT_calibrated_timestamps where the device has it, else from one
// timestamp written between two host readings.
Status VulkanDevice::Impl::calibrate() {
  if (!timestampBits)
    return Status::ok();
  if (vk.vkGetCalibratedTimestampsEXT) {
    VkCalibratedTimestampInfoEXT infos[2] = {
        {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
         VK_TIME_DOMAIN_DEVICE_EXT},
        {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
         VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
    uint64_t ts[2], deviation = 0;
    if (vk.vkGetCalibratedTimestampsEXT(device, 2, infos, ts, &deviation) ==
        VK_SUCCESS) {
      timestampOffsetNs =
          int64_t(ts[1]) - int64_t(double(ts[0]) * timestampPeriod);
      return Status::ok();
    }
  }
  VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qpi.queryCount = 1;
  VkQueryPool pool;
  if (VkResult r = vk.vkCreateQueryPool(device, &qpi, nullptr, &pool);
      r != VK_SUCCESS)
    return vkStatus("vkCreateQueryPool", r);
  uint64_t before = monotonicNs();
  Status s = transfer([&](VkCommandBuffer cb) {
    vk.vkCmdResetQueryPool(cb, pool, 0, 1);
    vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
  });
  uint64_t after = monotonicNs();
  uint64_t ticks = 0;
  if (s.isOk() && vk.vkGetQueryPoolResults(
                      device, pool, 0, 1, sizeof ticks, &ticks, sizeof ticks,
                      VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
    timestampOffsetNs =
        int64_t(before + (after - before) / 2) -
        int64_t(double(ticks &
                       (timestampBits < 64 ? (uint64_t(1) << timestampBits) - 1
                                           : ~uint64_t(0))) *
                timestampPeriod);
  }
  vk.vkDestroyQueryPool(device, pool, nullptr);
  return s;
}

VulkanDevice::VulkanDevice(std::shared_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

VulkanDevice::~VulkanDevice() {
  if (impl_ && impl_->device)
    impl_->vk.vkDeviceWaitIdle(impl_->device);
}

const DeviceInfo &VulkanDevice::info() const { return impl_->info; }

Status VulkanDevice::reserveWorkspace(uint64_t bytes) {
  // Kernels keep their scratch in registers and shared memory; the size is
  // only recorded, so that dispatches asking for more are refused as on
  // every device.
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->workspaceBytes = std::max(impl_->workspaceBytes, bytes);
  return Status::ok();
}

VulkanDeviceCounters VulkanDevice::counters() const {
  VulkanDeviceCounters c;
  c.submits = impl_->submits;
  c.commandBuffers = impl_->commandBuffers;
  c.commands = impl_->commands;
  c.pipelineCacheHits = impl_->cacheHits;
  c.pipelineCacheWrites = impl_->cacheWrites;
  std::lock_guard<std::mutex> lock(impl_->mu);
  c.memoryBlocks = impl_->arena.numBlocks();
  return c;
}

const std::string &VulkanDevice::pipelineCacheDir() const {
  return impl_->cacheDir;
}

std::string vulkanCacheDirectory(const VulkanDeviceOptions &options) {
  if (!options.cacheDir.empty())
    return options.cacheDir;
  if (const char *d = std::getenv("FUEL_CACHE_DIR"); d && *d)
    return d;
  if (const char *d = std::getenv("XDG_CACHE_HOME"); d && *d)
    return std::string(d) + "/fuel";
  if (const char *d = std::getenv("HOME"); d && *d)
    return std::string(d) + "/.cache/fuel";
  return "";
}

StatusOr<std::unique_ptr<Device>>
openVulkanDevice(uint32_t ordinal, const VulkanDeviceOptions &options) {
  auto impl = std::make_shared<VulkanDevice::Impl>();
  if (Status s = impl->init(ordinal, options); !s.isOk())
    return s;
  return std::unique_ptr<Device>(new VulkanDevice(std::move(impl)));
}

} // namespace fuel::rt
