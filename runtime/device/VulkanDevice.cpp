//===- VulkanDevice.cpp - A Vulkan physical device as a device ------------===//
//
// The loader is opened with dlopen and every entry point is fetched with
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

#include "VulkanDevice.h"

#include "BatchingQueue.h"
#include "DeviceChecks.h"
#include "VulkanArena.h"

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <functional>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace fuel::rt {

using detail::checkRange;
using detail::outOfRange;
using detail::unknownBuffer;

namespace {

// Every entry point the device uses.
#define FUEL_VK_INSTANCE_FNS(X)                                                \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties)                                             \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkEnumerateDeviceExtensionProperties)                                      \
  X(vkCreateDevice)                                                            \
  X(vkGetDeviceProcAddr)

#define FUEL_VK_DEVICE_FNS(X)                                                  \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkDeviceWaitIdle)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements)                                             \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkMapMemory)                                                               \
  X(vkBindBufferMemory)                                                        \
  X(vkCreateShaderModule)                                                      \
  X(vkDestroyShaderModule)                                                     \
  X(vkCreateDescriptorSetLayout)                                               \
  X(vkDestroyDescriptorSetLayout)                                              \
  X(vkCreatePipelineLayout)                                                    \
  X(vkDestroyPipelineLayout)                                                   \
  X(vkCreatePipelineCache)                                                     \
  X(vkDestroyPipelineCache)                                                    \
  X(vkGetPipelineCacheData)                                                    \
  X(vkCreateComputePipelines)                                                  \
  X(vkDestroyPipeline)                                                         \
  X(vkCreateDescriptorPool)                                                    \
  X(vkDestroyDescriptorPool)                                                   \
  X(vkResetDescriptorPool)                                                     \
  X(vkAllocateDescriptorSets)                                                  \
  X(vkUpdateDescriptorSets)                                                    \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkResetCommandBuffer)                                                      \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkCmdBindPipeline)                                                         \
  X(vkCmdBindDescriptorSets)                                                   \
  X(vkCmdPushConstants)                                                        \
  X(vkCmdDispatch)                                                             \
  X(vkCmdCopyBuffer)                                                           \
  X(vkCmdPipelineBarrier)                                                      \
  X(vkCmdWriteTimestamp)                                                       \
  X(vkCmdResetQueryPool)                                                       \
  X(vkCreateQueryPool)                                                         \
  X(vkDestroyQueryPool)                                                        \
  X(vkGetQueryPoolResults)                                                     \
  X(vkQueueSubmit)                                                             \
  X(vkCreateSemaphore)                                                         \
  X(vkDestroySemaphore)                                                        \
  X(vkWaitSemaphores)                                                          \
  X(vkGetSemaphoreCounterValue)                                                \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkWaitForFences)                                                           \
  X(vkResetFences)

struct Vk {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkCreateInstance vkCreateInstance = nullptr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion = nullptr;
#define FUEL_VK_MEMBER(name) PFN_##name name = nullptr;
  FUEL_VK_INSTANCE_FNS(FUEL_VK_MEMBER)
  FUEL_VK_DEVICE_FNS(FUEL_VK_MEMBER)
#undef FUEL_VK_MEMBER
  PFN_vkGetCalibratedTimestampsEXT vkGetCalibratedTimestampsEXT = nullptr;
};

std::atomic<uint64_t> nextHandleId{1ull << 40};
uint64_t newId() { return nextHandleId.fetch_add(1); }

constexpr uint64_t kBlockSize = 64ull << 20;
constexpr uint64_t kMaxAlignment = 65536;
constexpr uint64_t kStagingBytes = 8ull << 20;
constexpr uint64_t kWaitForever = ~uint64_t(0);
// Descriptors of one batch: the batch ends before a command that would need
// more.
constexpr uint32_t kMaxSets = 4;
constexpr uint32_t kBatchSets = VulkanDevice::kMaxBatch * kMaxSets;
constexpr uint32_t kBatchDescriptors = 4096;
// Command-buffer slots of a queue in flight at once.
constexpr size_t kMaxSlots = 4;

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

uint64_t fnv1a(const void *data, size_t size) {
  const auto *p = static_cast<const uint8_t *>(data);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(const uint8_t *p, size_t n) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
  return buf;
}

// Opened once and never closed (drivers register exit handlers). A
// function-local static, not std::call_once, whose TLS would add the
// dynamic linker to libfuelrt's DT_NEEDED.
void *openLoader(std::string &why) {
  struct Loader {
    void *handle = nullptr;
    std::string error;
    Loader() {
      handle = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        const char *e = dlerror();
        error = std::string("no Vulkan loader: dlopen(\"libvulkan.so.1\") "
                            "failed: ") +
                (e ? e : "unknown error");
      }
    }
  };
  static Loader loader;
  why = loader.error;
  return loader.handle;
}

bool mkdirs(const std::string &dir) {
  if (dir.empty())
    return false;
  std::string path;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    path = dir.substr(0, pos);
    if (path.empty())
      continue;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  }
  struct stat st;
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The pipeline cache file: this header, then the driver's cache data.
struct CacheFileHeader {
  char magic[8];
  uint64_t payloadBytes;
  uint64_t payloadChecksum;
};
constexpr char kCacheMagic[8] = {'F', 'U', 'E', 'L', 'V', 'K', 'P', '1'};

} // namespace

class VulkanQueue;

class VulkanDevice::Impl {
public:
  struct BufferRec {
    VkBuffer buffer = VK_NULL_HANDLE;
    uint64_t size = 0;
    Arena::Allocation alloc;
    char *mapped = nullptr;
  };
  struct KernelRec {
    uint64_t module = 0;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::vector<VkDescriptorSetLayout> setLayouts;
    std::vector<std::pair<uint32_t, uint32_t>> slots;
    uint32_t numSets = 0;
    uint32_t pushBytes = 0;
  };
  struct ModuleRec {
    VkShaderModule shader = VK_NULL_HANDLE;
    std::vector<uint64_t> kernels;
  };
  struct Block {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    char *mapped = nullptr;
  };

  ~Impl();

  Vk vk;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  uint32_t timestampBits = 0;
  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceMemoryProperties memProps{};
  uint8_t deviceUUID[VK_UUID_SIZE]{};
  uint32_t bufferType = 0;  // The memory type of buffers.
  uint32_t stagingType = 0; // Host-visible, coherent.
  bool mapped = false;      // Buffers are host-visible and mapped.
  bool staging = true;      // write/read go through the staging buffer.
  uint32_t pushBytes = 0;
  double timestampPeriod = 1;
  int64_t timestampOffsetNs = 0;

  DeviceInfo info;
  std::string cacheDir;
  VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                             VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT;

  mutable std::mutex mu; // Buffers, kernels, modules, arena, queues.
  std::unordered_map<uint64_t, BufferRec> buffers;
  std::unordered_map<uint64_t, KernelRec> kernels;
  std::unordered_map<uint64_t, ModuleRec> modules;
  std::map<const Queue *, VulkanQueue *> queues;
  Arena arena;
  std::vector<Block> blocks;
  uint64_t allocated = 0;
  uint64_t workspaceBytes = 0;

  std::mutex submitMu; // vkQueueSubmit on `queue`.

  std::mutex xferMu; // The synchronous transfers of write/read/copy.
  VkCommandPool xferPool = VK_NULL_HANDLE;
  VkCommandBuffer xferCmd = VK_NULL_HANDLE;
  VkFence xferFence = VK_NULL_HANDLE;
  VkBuffer stagingBuffer = VK_NULL_HANDLE;
  VkDeviceMemory stagingMemory = VK_NULL_HANDLE;
  char *stagingMap = nullptr;

  std::atomic<bool> lost{false};
  std::atomic<uint64_t> submits{0}, commandBuffers{0}, commands{0},
      cacheHits{0}, cacheWrites{0};

  const BufferRec *find(Buffer b) const {
    auto it = buffers.find(b.id);
    return it == buffers.end() ? nullptr : &it->second;
  }
  VulkanQueue *findQueue(const Queue *q) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = queues.find(q);
    return it == queues.end() ? nullptr : it->second;
  }
  Status checkLost(VkResult r, const char *call) {
    if (r == VK_ERROR_DEVICE_LOST)
      lost = true;
    return vkStatus(call, r);
  }
  uint64_t toHostNs(uint64_t ticks) const {
    if (timestampBits < 64)
      ticks &= (uint64_t(1) << timestampBits) - 1;
    return uint64_t(int64_t(double(ticks) * timestampPeriod) +
                    timestampOffsetNs);
  }

  Status init(uint32_t ordinal, const VulkanDeviceOptions &options);
  Status calibrate();
  StatusOr<Block> newBlock(uint64_t size);
  Status transfer(const std::function<void(VkCommandBuffer)> &record);
  void recordCopy(VkCommandBuffer cb, VkBuffer src, uint64_t srcOffset,
                  VkBuffer dst, uint64_t dstOffset, uint64_t bytes,
                  bool sameBuffer);
  Status createPipelines(ModuleRec &m, const ModuleImage &image,
                         std::vector<KernelRec> &out);
};

namespace {

void barrier(const Vk &vk, VkCommandBuffer cb, VkPipelineStageFlags dstStage,
             VkAccessFlags dstAccess) {
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

constexpr VkPipelineStageFlags kWorkStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kWorkAccess =
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

} // namespace

// A copy whose ranges overlap within one buffer goes in chunks no longer
// than the distance between them, in the order memmove would take, with a
// barrier between chunks.
void VulkanDevice::Impl::recordCopy(VkCommandBuffer cb, VkBuffer src,
                                    uint64_t srcOffset, VkBuffer dst,
                                    uint64_t dstOffset, uint64_t bytes,
                                    bool sameBuffer) {
  if (!bytes || (sameBuffer && srcOffset == dstOffset))
    return;
  uint64_t distance =
      srcOffset > dstOffset ? srcOffset - dstOffset : dstOffset - srcOffset;
  if (!sameBuffer || distance >= bytes) {
    VkBufferCopy region{srcOffset, dstOffset, bytes};
    vk.vkCmdCopyBuffer(cb, src, dst, 1, &region);
    return;
  }
  uint64_t chunks = (bytes + distance - 1) / distance;
  for (uint64_t c = 0; c < chunks; ++c) {
    // Forward when moving down, backward when moving up.
    uint64_t k = dstOffset < srcOffset ? c : chunks - 1 - c;
    uint64_t begin = k * distance;
    uint64_t len = std::min(distance, bytes - begin);
    if (c)
      barrier(vk, cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
              VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferCopy region{srcOffset + begin, dstOffset + begin, len};
    vk.vkCmdCopyBuffer(cb, src, dst, 1, &region);
  }
}

//===----------------------------------------------------------------------===//
// Queues
//===----------------------------------------------------------------------===//

class VulkanQueue final : public detail::BatchingQueue<std::mutex> {
public:
  explicit VulkanQueue(std::shared_ptr<VulkanDevice::Impl> dev)
      : BatchingQueue(VulkanDevice::kMaxBatch), dev_(std::move(dev)) {}
  ~VulkanQueue() override;

  Status init();

  /// Submits every pending command with a fence value up to `value`, after
  /// the commands of other queues they wait for.
  void flushUpTo(uint64_t value) override;

  std::atomic<uint64_t> submitted_{0};

private:
  using Pending = detail::PendingCommand;
  struct Slot {
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    bool inFlight = false;
    uint64_t signal = 0;
    // The timing record of each recorded command, null when not timed.
    std::vector<CommandTiming *> timings;
  };

  Status validate(const Command &c, const Fence *waits,
                  size_t numWaits) override;
  Status waitFor(uint64_t value, uint64_t last) override;
  bool signalled(uint64_t value, uint64_t last) override;
  StatusOr<Slot *> acquireSlot();
  void collect();
  Status waitValue(uint64_t value) const;
  Status recordCommand(Slot &s, const Pending &p, size_t index);
  Status checkWaits(const Pending &p);

  std::shared_ptr<VulkanDevice::Impl> dev_;
  const Vk *vk_ = nullptr;
  VkSemaphore timeline_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::vector<Slot> slots_;
  uint64_t lastSignal_ = 0;
};

Status VulkanQueue::init() {
  vk_ = &dev_->vk;
  const Vk &vk = *vk_;
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = 0;
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  sci.pNext = &type;
  if (VkResult r =
          vk.vkCreateSemaphore(dev_->device, &sci, nullptr, &timeline_);
      r != VK_SUCCESS)
    return vkStatus("vkCreateSemaphore", r);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = dev_->queueFamily;
  if (VkResult r = vk.vkCreateCommandPool(dev_->device, &pci, nullptr, &pool_);
      r != VK_SUCCESS)
    return vkStatus("vkCreateCommandPool", r);
  slots_.reserve(kMaxSlots);
  return Status::ok();
}

VulkanQueue::~VulkanQueue() {
  if (vk_) {
    {
      std::lock_guard<std::mutex> lock(dev_->mu);
      dev_->queues.erase(this);
    }
    if (lastSignal_ && timeline_ && !dev_->lost)
      (void)waitValue(lastSignal_);
    const Vk &vk = *vk_;
    for (Slot &s : slots_) {
      if (s.pool)
        vk.vkDestroyDescriptorPool(dev_->device, s.pool, nullptr);
      if (s.queries)
        vk.vkDestroyQueryPool(dev_->device, s.queries, nullptr);
    }
    if (pool_)
      vk.vkDestroyCommandPool(dev_->device, pool_, nullptr);
    if (timeline_)
      vk.vkDestroySemaphore(dev_->device, timeline_, nullptr);
  }
}

Status VulkanQueue::validate(const Command &c, const Fence *waits,
                             size_t numWaits) {
  if (dev_->lost)
    return detail::deviceLost("Vulkan");
  std::lock_guard<std::mutex> lock(dev_->mu);
  if (c.kind == Command::Kind::Copy)
    return detail::checkCopyCommandIn(c,
                                      [&](Buffer b) { return dev_->find(b); });
  if (c.kind != Command::Kind::Dispatch)
    return Status::error(StatusCode::InvalidArgument,
                         "submit: unknown command kind");
  auto k = dev_->kernels.find(c.kernel.id);
  if (k == dev_->kernels.end())
    return detail::unknownKernel(c.kernel);
  const uint32_t *maxCount = dev_->props.limits.maxComputeWorkGroupCount;
  for (int i = 0; i < 3; ++i)
    if (c.grid[i] > maxCount[i])
      return Status::error(
          StatusCode::InvalidArgument,
          "dispatch: grid dimension " + std::to_string(i) + " of " +
              std::to_string(c.grid[i]) +
              " exceeds the device's maxComputeWorkGroupCount of " +
              std::to_string(maxCount[i]));
  FUEL_RT_RETURN_IF_ERROR(detail::checkBindingList(c));
  if (c.numBindings != k->second.slots.size())
    return Status::error(StatusCode::InvalidArgument,
                         "dispatch: kernel " + std::to_string(c.kernel.id) +
                             " takes " +
                             std::to_string(k->second.slots.size()) +
                             " bindings, not " + std::to_string(c.numBindings));
  if (c.numPushConstants && !c.pushConstants)
    return Status::error(StatusCode::InvalidArgument,
                         "dispatch: null push constants");
  if (c.numPushConstants * 4 > k->second.pushBytes)
    return Status::error(StatusCode::InvalidArgument,
                         "dispatch: " + std::to_string(c.numPushConstants) +
                             " push constants exceed the device's " +
                             std::to_string(k->second.pushBytes / 4));
  if (c.workspaceBytes > dev_->workspaceBytes)
    return Status::error(StatusCode::FailedPrecondition,
                         "dispatch: needs a workspace of " +
                             std::to_string(c.workspaceBytes) +
                             " bytes; reserveWorkspace reserved " +
                             std::to_string(dev_->workspaceBytes));
  const uint64_t align = dev_->info.bindingOffsetAlignment;
  const uint64_t maxRange = dev_->props.limits.maxStorageBufferRange;
  for (size_t i = 0; i < c.numBindings; ++i) {
    const Binding &b = c.bindings[i];
    const auto *a = dev_->find(b.buffer);
    if (!a)
      return unknownBuffer("dispatch: binding " + std::to_string(i), b.buffer);
    if (b.offset > a->size || b.length > a->size - b.offset)
      return outOfRange("dispatch: binding " + std::to_string(i), b.offset,
                        b.length, a->size);
    if (b.offset % align)
      return Status::error(
          StatusCode::InvalidArgument,
          "dispatch: binding " + std::to_string(i) + " offset " +
              std::to_string(b.offset) +
              " is not a multiple of the device's binding offset alignment "
              "(minStorageBufferOffsetAlignment, " +
              std::to_string(align) + ")");
    if (b.length > maxRange)
      return Status::error(StatusCode::InvalidArgument,
                           "dispatch: binding " + std::to_string(i) + " of " +
                               std::to_string(b.length) +
                               " bytes exceeds the device's "
                               "maxStorageBufferRange (" +
                               std::to_string(maxRange) + ")");
  }
  return Status::ok();
}

StatusOr<VulkanQueue::Slot *> VulkanQueue::acquireSlot() {
  const Vk &vk = *vk_;
  collect();
  for (Slot &s : slots_)
    if (!s.inFlight)
      return &s;
  if (slots_.size() < kMaxSlots) {
    Slot s;
    VkCommandBufferAllocateInfo ai{
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    if (VkResult r = vk.vkAllocateCommandBuffers(dev_->device, &ai, &s.cb);
        r != VK_SUCCESS)
      return vkStatus("vkAllocateCommandBuffers", r);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              kBatchDescriptors};
    VkDescriptorPoolCreateInfo dpi{
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = kBatchSets;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &size;
    if (VkResult r =
            vk.vkCreateDescriptorPool(dev_->device, &dpi, nullptr, &s.pool);
        r != VK_SUCCESS)
      return vkStatus("vkCreateDescriptorPool", r);
    if (dev_->timestampBits) {
      VkQueryPoolCreateInfo qpi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
      qpi.queryCount = 2 * VulkanDevice::kMaxBatch;
      if (VkResult r =
              vk.vkCreateQueryPool(dev_->device, &qpi, nullptr, &s.queries);
          r != VK_SUCCESS) {
        vk.vkDestroyDescriptorPool(dev_->device, s.pool, nullptr);
        return vkStatus("vkCreateQueryPool", r);
      }
    }
    s.timings.reserve(VulkanDevice::kMaxBatch);
    slots_.push_back(std::move(s));
    return &slots_.back();
  }
  // Every slot is in flight: wait for the oldest.
  Slot *oldest = &slots_[0];
  for (Slot &s : slots_)
    if (s.signal < oldest->signal)
      oldest = &s;
  if (Status s = waitValue(oldest->signal); !s.isOk())
    return s;
  collect();
  return oldest;
}

// Reads the timestamps of finished batches into their commands' timing
// records and frees their slots.
void VulkanQueue::collect() {
  const Vk &vk = *vk_;
  uint64_t done = 0;
  if (vk.vkGetSemaphoreCounterValue(dev_->device, timeline_, &done) !=
      VK_SUCCESS)
    return;
  for (Slot &s : slots_) {
    if (!s.inFlight || s.signal > done)
      continue;
    for (size_t i = 0; i < s.timings.size(); ++i) {
      CommandTiming *t = s.timings[i];
      if (!t)
        continue;
      uint64_t ticks[2] = {0, 0};
      if (s.queries &&
          vk.vkGetQueryPoolResults(dev_->device, s.queries, uint32_t(2 * i), 2,
                                   sizeof ticks, ticks, sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
        t->startNs = dev_->toHostNs(ticks[0]);
        t->endNs = std::max(t->startNs, dev_->toHostNs(ticks[1]));
      } else {
        t->startNs = t->endNs = monotonicNs();
      }
    }
    s.timings.clear();
    s.inFlight = false;
  }
}

Status VulkanQueue::waitValue(uint64_t value) const {
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wi.semaphoreCount = 1;
  wi.pSemaphores = &timeline_;
  wi.pValues = &value;
  VkResult r = vk_->vkWaitSemaphores(dev_->device, &wi, kWaitForever);
  if (r != VK_SUCCESS)
    return dev_->checkLost(r, "vkWaitSemaphores");
  return Status::ok();
}

Status VulkanQueue::checkWaits(const Pending &p) {
  for (size_t w = 0; w < p.numWaits; ++w) {
    const Fence &f = p.waits[w];
    if (f.queue == this)
      continue; // Ordered by the queue itself.
    if (VulkanQueue *q = dev_->findQueue(f.queue)) {
      if (Status s = q->failureAt(f.value); !s.isOk())
        return Status::error(s.code(),
                             "waited-on fence failed: " + s.message());
      continue;
    }
    // A queue of another device: it has signalled (flushUpTo waited).
    if (Status s = const_cast<Queue *>(f.queue)->wait(f); !s.isOk())
      return Status::error(s.code(), "waited-on fence failed: " + s.message());
  }
  return Status::ok();
}

Status VulkanQueue::recordCommand(Slot &s, const Pending &p, size_t index) {
  const Vk &vk = *vk_;
  const Command &c = p.command;
  VkCommandBuffer cb = s.cb;
  bool timed = c.timing && s.queries;
  if (index)
    barrier(vk, cb, kWorkStages, kWorkAccess);
  if (timed)
    vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s.queries,
                           uint32_t(2 * index));
  std::lock_guard<std::mutex> lock(dev_->mu);
  if (c.kind == Command::Kind::Copy) {
    const auto *src = dev_->find(c.src);
    const auto *dst = dev_->find(c.dst);
    if (!src || !dst)
      return Status::error(StatusCode::FailedPrecondition,
                           "copy command: a buffer was freed before the "
                           "command ran");
    dev_->recordCopy(cb, src->buffer, c.srcOffset, dst->buffer, c.dstOffset,
                     c.bytes, c.src == c.dst);
  } else {
    auto k = dev_->kernels.find(c.kernel.id);
    if (k == dev_->kernels.end())
      return Status::error(StatusCode::FailedPrecondition,
                           "dispatch: the kernel was unloaded before the "
                           "command ran");
    const auto &kr = k->second;
    VkDescriptorSet sets[kMaxSets] = {};
    if (kr.numSets) {
      VkDescriptorSetAllocateInfo ai{
          VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      ai.descriptorPool = s.pool;
      ai.descriptorSetCount = kr.numSets;
      ai.pSetLayouts = kr.setLayouts.data();
      if (VkResult r = vk.vkAllocateDescriptorSets(dev_->device, &ai, sets);
          r != VK_SUCCESS)
        return vkStatus("vkAllocateDescriptorSets", r);
    }
    VkDescriptorBufferInfo infos[kMaxBindings];
    VkWriteDescriptorSet writes[kMaxBindings];
    for (size_t i = 0; i < c.numBindings; ++i) {
      const Binding &b = c.bindings[i];
      const auto *a = dev_->find(b.buffer);
      if (!a)
        return Status::error(StatusCode::FailedPrecondition,
                             "dispatch: binding " + std::to_string(i) +
                                 " was freed before the command ran");
      // A zero-length binding still needs a range; the VkBuffer has room.
      infos[i] = {a->buffer, b.offset, std::max<uint64_t>(b.length, 4)};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = sets[kr.slots[i].first];
      writes[i].dstBinding = kr.slots[i].second;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    if (c.numBindings)
      vk.vkUpdateDescriptorSets(dev_->device, uint32_t(c.numBindings), writes,
                                0, nullptr);
    vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kr.pipeline);
    if (kr.numSets)
      vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kr.layout,
                                 0, kr.numSets, sets, 0, nullptr);
    if (kr.pushBytes) {
      uint32_t push[kMaxPushConstants] = {};
      // No constants: pushConstants may be null, which memcpy must not see
      // even for zero bytes.
      if (c.numPushConstants)
        std::memcpy(push, c.pushConstants, 4 * c.numPushConstants);
      vk.vkCmdPushConstants(cb, kr.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                            kr.pushBytes, push);
    }
    if (c.grid[0] && c.grid[1] && c.grid[2])
      vk.vkCmdDispatch(cb, c.grid[0], c.grid[1], c.grid[2]);
  }
  if (timed)
    vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries,
                           uint32_t(2 * index + 1));
  s.timings.push_back(timed ? c.timing : nullptr);
  return Status::ok();
}

void VulkanQueue::flushUpTo(uint64_t value) {
  const Vk &vk = *vk_;
  for (;;) {
    std::unique_lock<std::mutex> lock(mu_);
    if (pending_.empty() || pending_.front().value > value)
      return;
    // Once a command failed, every later one is skipped.
    if (failedAt()) {
      uint64_t last = 0;
      size_t n = 0;
      while (n < pending_.size() && pending_[n].value <= value)
        last = pending_[n++].value;
      pending_.erase(pending_.begin(), pending_.begin() + n);
      submitted_ = last;
      return;
    }
    // The batch: commands up to `value`, within the descriptor budget.
    size_t n = 0;
    uint32_t descriptors = 0, sets = 0;
    while (n < pending_.size() && pending_[n].value <= value &&
           n < VulkanDevice::kMaxBatch) {
      const Command &c = pending_[n].command;
      bool dispatch = c.kind == Command::Kind::Dispatch;
      uint32_t d = dispatch ? uint32_t(c.numBindings) : 0;
      uint32_t st = dispatch ? kMaxSets : 0;
      if (n && (descriptors + d > kBatchDescriptors || sets + st > kBatchSets))
        break;
      descriptors += d;
      sets += st;
      ++n;
    }
    // Other queues' commands this batch waits for go in first.
    const Fence *unmet = nullptr;
    VulkanQueue *unmetQueue = nullptr;
    for (size_t i = 0; i < n && !unmet; ++i)
      for (size_t w = 0; w < pending_[i].numWaits && !unmet; ++w) {
        const Fence &f = pending_[i].waits[w];
        if (f.queue == this)
          continue;
        VulkanQueue *q = dev_->findQueue(f.queue);
        if (q ? q->submitted_.load() < f.value : !f.queue->isSignalled(f)) {
          unmet = &f;
          unmetQueue = q;
        }
      }
    if (unmet) {
      Fence f = *unmet;
      lock.unlock();
      if (unmetQueue)
        unmetQueue->flushUpTo(f.value);
      else
        (void)const_cast<Queue *>(f.queue)->wait(f);
      continue;
    }

    StatusOr<Slot *> slotOr = acquireSlot();
    uint64_t lastValue = pending_[n - 1].value;
    if (!slotOr.isOk()) {
      fail(pending_[0].value, slotOr.status());
      pending_.erase(pending_.begin(), pending_.begin() + n);
      submitted_ = lastValue;
      continue;
    }
    Slot &s = **slotOr;
    vk.vkResetDescriptorPool(dev_->device, s.pool, 0);
    vk.vkResetCommandBuffer(s.cb, 0);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VkResult br = vk.vkBeginCommandBuffer(s.cb, &bi);
    if (br != VK_SUCCESS) {
      fail(pending_[0].value, vkStatus("vkBeginCommandBuffer", br));
      pending_.erase(pending_.begin(), pending_.begin() + n);
      submitted_ = lastValue;
      continue;
    }
    if (s.queries)
      vk.vkCmdResetQueryPool(s.cb, s.queries, 0, uint32_t(2 * n));
    // After every earlier command on the device's queue, and host writes.
    barrier(vk, s.cb, kWorkStages, kWorkAccess);
    s.timings.clear();
    VkSemaphore waitSems[64];
    uint64_t waitValues[sizeof waitSems / sizeof waitSems[0]];
    VkPipelineStageFlags waitStages[sizeof waitSems / sizeof waitSems[0]];
    uint32_t numWaitSems = 0;
    size_t recorded = 0;
    for (; recorded < n; ++recorded) {
      const Pending &p = pending_[recorded];
      Status st = checkWaits(p);
      if (st.isOk())
        st = recordCommand(s, p, recorded);
      if (!st.isOk()) {
        fail(p.value, st);
        break;
      }
      for (size_t w = 0; w < p.numWaits; ++w) {
        const Fence &f = p.waits[w];
        VulkanQueue *q = f.queue == this ? nullptr : dev_->findQueue(f.queue);
        if (!q)
          continue;
        uint32_t j = 0;
        while (j < numWaitSems && waitSems[j] != q->timeline_)
          ++j;
        if (j == numWaitSems) {
          if (numWaitSems == sizeof waitSems / sizeof waitSems[0]) {
            // Wait on the host instead.
            (void)q->waitValue(f.value);
            continue;
          }
          waitSems[numWaitSems] = q->timeline_;
          waitValues[numWaitSems] = 0;
          waitStages[numWaitSems++] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
        }
        waitValues[j] = std::max(waitValues[j], f.value);
      }
    }
    // Results become visible to the host (mapped buffers).
    barrier(vk, s.cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    VkResult er = vk.vkEndCommandBuffer(s.cb);
    if (recorded && er == VK_SUCCESS) {
      uint64_t signal = pending_[recorded - 1].value;
      VkTimelineSemaphoreSubmitInfo ts{
          VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
      ts.waitSemaphoreValueCount = numWaitSems;
      ts.pWaitSemaphoreValues = waitValues;
      ts.signalSemaphoreValueCount = 1;
      ts.pSignalSemaphoreValues = &signal;
      VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      si.pNext = &ts;
      si.waitSemaphoreCount = numWaitSems;
      si.pWaitSemaphores = waitSems;
      si.pWaitDstStageMask = waitStages;
      si.commandBufferCount = 1;
      si.pCommandBuffers = &s.cb;
      si.signalSemaphoreCount = 1;
      si.pSignalSemaphores = &timeline_;
      VkResult r;
      {
        std::lock_guard<std::mutex> submitLock(dev_->submitMu);
        r = vk.vkQueueSubmit(dev_->queue, 1, &si, VK_NULL_HANDLE);
      }
      if (r == VK_SUCCESS) {
        s.inFlight = true;
        s.signal = signal;
        lastSignal_ = signal;
        ++dev_->submits;
        ++dev_->commandBuffers;
        dev_->commands += recorded;
      } else {
        s.timings.clear();
        fail(pending_[0].value, dev_->checkLost(r, "vkQueueSubmit"));
      }
    } else if (er != VK_SUCCESS) {
      s.timings.clear();
      fail(pending_[0].value, vkStatus("vkEndCommandBuffer", er));
    } else {
      s.timings.clear();
    }
    if (failedAt()) {
      // The failed command and every later one are skipped.
      uint64_t last = pending_.back().value;
      pending_.clear();
      submitted_ = last;
      return;
    }
    pending_.erase(pending_.begin(), pending_.begin() + n);
    submitted_ = lastValue;
  }
}

Status VulkanQueue::waitFor(uint64_t value, uint64_t last) {
  flushUpTo(last);
  uint64_t upTo = value;
  Status failed = failureAt(value);
  if (!failed.isOk())
    upTo = failedAt() - 1;
  uint64_t signal;
  {
    std::lock_guard<std::mutex> lock(mu_);
    signal = std::min(upTo, lastSignal_);
  }
  if (signal)
    if (Status s = waitValue(signal); !s.isOk())
      return s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    collect();
  }
  return failed;
}

bool VulkanQueue::signalled(uint64_t value, uint64_t last) {
  flushUpTo(last);
  uint64_t failed = failedAt();
  uint64_t done = 0;
  if (vk_->vkGetSemaphoreCounterValue(dev_->device, timeline_, &done) !=
      VK_SUCCESS)
    return false;
  bool signalled =
      done >= value || (failed && value >= failed && done + 1 >= failed);
  if (signalled) {
    std::lock_guard<std::mutex> lock(mu_);
    collect();
  }
  return signalled;
}

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
  std::string why;
  void *loader = openLoader(why);
  if (!loader)
    return Status::error(StatusCode::Unavailable, why);
  vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(loader, "vkGetInstanceProcAddr"));
  if (!vk.vkGetInstanceProcAddr)
    return Status::error(StatusCode::Unavailable,
                         "the Vulkan loader has no vkGetInstanceProcAddr");
  vk.vkCreateInstance = reinterpret_cast<PFN_vkCreateInstance>(
      vk.vkGetInstanceProcAddr(nullptr, "vkCreateInstance"));
  vk.vkEnumerateInstanceVersion =
      reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
          vk.vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
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
#define FUEL_VK_LOAD(name)                                                     \
  vk.name =                                                                    \
      reinterpret_cast<PFN_##name>(vk.vkGetInstanceProcAddr(instance, #name)); \
  if (!vk.name)                                                                \
    return Status::error(StatusCode::Unavailable,                              \
                         "the Vulkan loader has no " #name);
  FUEL_VK_INSTANCE_FNS(FUEL_VK_LOAD)
#undef FUEL_VK_LOAD

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
#define FUEL_VK_LOAD(name)                                                     \
  vk.name =                                                                    \
      reinterpret_cast<PFN_##name>(vk.vkGetDeviceProcAddr(device, #name));     \
  if (!vk.name)                                                                \
    return Status::error(StatusCode::Unavailable,                              \
                         "the Vulkan device has no " #name);
  FUEL_VK_DEVICE_FNS(FUEL_VK_LOAD)
#undef FUEL_VK_LOAD
  if (calibrated)
    vk.vkGetCalibratedTimestampsEXT =
        reinterpret_cast<PFN_vkGetCalibratedTimestampsEXT>(
            vk.vkGetDeviceProcAddr(device, "vkGetCalibratedTimestampsEXT"));
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

// Records one command buffer with `record`, submits it and waits for it.
Status VulkanDevice::Impl::transfer(
    const std::function<void(VkCommandBuffer)> &record) {
  if (lost)
    return Status::error(StatusCode::Unavailable, "the Vulkan device was lost");
  vk.vkResetCommandBuffer(xferCmd, 0);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = vk.vkBeginCommandBuffer(xferCmd, &bi); r != VK_SUCCESS)
    return vkStatus("vkBeginCommandBuffer", r);
  barrier(vk, xferCmd, kWorkStages, kWorkAccess);
  record(xferCmd);
  barrier(vk, xferCmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  if (VkResult r = vk.vkEndCommandBuffer(xferCmd); r != VK_SUCCESS)
    return vkStatus("vkEndCommandBuffer", r);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &xferCmd;
  VkResult r;
  {
    std::lock_guard<std::mutex> lock(submitMu);
    r = vk.vkQueueSubmit(queue, 1, &si, xferFence);
  }
  if (r != VK_SUCCESS)
    return checkLost(r, "vkQueueSubmit");
  r = vk.vkWaitForFences(device, 1, &xferFence, VK_TRUE, kWaitForever);
  vk.vkResetFences(device, 1, &xferFence);
  if (r != VK_SUCCESS)
    return checkLost(r, "vkWaitForFences");
  return Status::ok();
}

StatusOr<VulkanDevice::Impl::Block>
VulkanDevice::Impl::newBlock(uint64_t size) {
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = size;
  mai.memoryTypeIndex = bufferType;
  Block b;
  if (VkResult r = vk.vkAllocateMemory(device, &mai, nullptr, &b.memory);
      r != VK_SUCCESS)
    return Status::error(StatusCode::ResourceExhausted,
                         "allocate: " + vkError("vkAllocateMemory", r) +
                             " for a block of " + std::to_string(size) +
                             " bytes");
  if (mapped) {
    void *p = nullptr;
    if (VkResult r = vk.vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &p);
        r != VK_SUCCESS) {
      vk.vkFreeMemory(device, b.memory, nullptr);
      return vkStatus("vkMapMemory", r);
    }
    b.mapped = static_cast<char *>(p);
  }
  return b;
}

VulkanDevice::VulkanDevice(std::shared_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

VulkanDevice::~VulkanDevice() {
  if (impl_ && impl_->device)
    impl_->vk.vkDeviceWaitIdle(impl_->device);
}

const DeviceInfo &VulkanDevice::info() const { return impl_->info; }

StatusOr<Buffer> VulkanDevice::allocate(uint64_t size, uint64_t requested) {
  StatusOr<uint64_t> aligned =
      detail::checkAlignment(requested, impl_->info.maxAlignment);
  if (!aligned)
    return aligned.status();
  const uint64_t alignment = *aligned;
  Impl &d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkMemoryLimit(size, d.allocated, d.info.memoryLimit));
  // Room after the end, so that a zero-length binding has a range.
  uint64_t vkSize = ((size + 15) & ~uint64_t(15)) + 16;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = vkSize;
  bci.usage = d.usage;
  Impl::BufferRec rec;
  rec.size = size;
  if (VkResult r = d.vk.vkCreateBuffer(d.device, &bci, nullptr, &rec.buffer);
      r != VK_SUCCESS)
    return Status::error(StatusCode::ResourceExhausted,
                         "allocate: " + vkError("vkCreateBuffer", r));
  VkMemoryRequirements req;
  d.vk.vkGetBufferMemoryRequirements(d.device, rec.buffer, &req);
  uint64_t align = std::max<uint64_t>(alignment, req.alignment);
  auto placed = d.arena.allocate(req.size, align);
  if (!placed) {
    uint64_t blockSize =
        std::max<uint64_t>(kBlockSize, (req.size + 4095) & ~uint64_t(4095));
    auto block = d.newBlock(blockSize);
    if (!block.isOk()) {
      d.vk.vkDestroyBuffer(d.device, rec.buffer, nullptr);
      return block.status();
    }
    uint32_t b = d.arena.addBlock(blockSize);
    if (b >= d.blocks.size())
      d.blocks.resize(b + 1);
    d.blocks[b] = *block;
    placed = d.arena.allocate(req.size, align);
  }
  rec.alloc = *placed;
  const Impl::Block &block = d.blocks[rec.alloc.block];
  if (VkResult r = d.vk.vkBindBufferMemory(d.device, rec.buffer, block.memory,
                                           rec.alloc.offset);
      r != VK_SUCCESS) {
    d.arena.free(rec.alloc);
    d.vk.vkDestroyBuffer(d.device, rec.buffer, nullptr);
    return vkStatus("vkBindBufferMemory", r);
  }
  if (block.mapped)
    rec.mapped = block.mapped + rec.alloc.offset;
  uint64_t id = newId();
  d.buffers[id] = rec;
  d.allocated += size;
  return Buffer{id};
}

StatusOr<Buffer> VulkanDevice::importHost(void *, uint64_t) {
  return Status::error(StatusCode::Unimplemented,
                       "importHost: the Vulkan device does not import host "
                       "memory; allocate a buffer and write to it");
}

Status VulkanDevice::free(Buffer buffer) {
  Impl &d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.buffers.find(buffer.id);
  if (it == d.buffers.end())
    return unknownBuffer("free", buffer);
  d.vk.vkDestroyBuffer(d.device, it->second.buffer, nullptr);
  uint32_t b = it->second.alloc.block;
  d.arena.free(it->second.alloc);
  d.allocated -= it->second.size;
  d.buffers.erase(it);
  // Keep one block; return others once empty.
  if (d.arena.isEmpty(b) && d.arena.numBlocks() > 1) {
    d.vk.vkFreeMemory(d.device, d.blocks[b].memory, nullptr);
    d.blocks[b] = Impl::Block{};
    d.arena.removeBlock(b);
  }
  return Status::ok();
}

StatusOr<uint64_t> VulkanDevice::bufferSize(Buffer buffer) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto *a = impl_->find(buffer);
  if (!a)
    return unknownBuffer("bufferSize", buffer);
  return a->size;
}

StatusOr<void *> VulkanDevice::hostPointer(Buffer buffer) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto *a = impl_->find(buffer);
  if (!a)
    return unknownBuffer("hostPointer", buffer);
  if (!a->mapped)
    return Status::error(StatusCode::FailedPrecondition,
                         "hostPointer: the Vulkan device's memory is not "
                         "host-visible");
  return static_cast<void *>(a->mapped);
}

uint64_t VulkanDevice::bytesAllocated() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->allocated;
}

Status VulkanDevice::write(Buffer dst, uint64_t dstOffset, const void *src,
                           uint64_t bytes) {
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkHostPointer(src, bytes, "write: null source"));
  Impl &d = *impl_;
  std::unique_lock<std::mutex> lock(d.mu);
  const auto *a = d.find(dst);
  if (!a)
    return unknownBuffer("write", dst);
  if (Status s = checkRange("write", dstOffset, bytes, a->size); !s.isOk())
    return s;
  if (!bytes)
    return Status::ok();
  if (!d.staging) {
    std::memcpy(a->mapped + dstOffset, src, bytes);
    return Status::ok();
  }
  VkBuffer target = a->buffer;
  lock.unlock();
  std::lock_guard<std::mutex> xfer(d.xferMu);
  for (uint64_t done = 0; done < bytes; done += kStagingBytes) {
    uint64_t n = std::min(kStagingBytes, bytes - done);
    std::memcpy(d.stagingMap, static_cast<const char *>(src) + done, n);
    if (Status s = d.transfer([&](VkCommandBuffer cb) {
          VkBufferCopy region{0, dstOffset + done, n};
          d.vk.vkCmdCopyBuffer(cb, d.stagingBuffer, target, 1, &region);
        });
        !s.isOk())
      return s;
  }
  return Status::ok();
}

Status VulkanDevice::read(Buffer src, uint64_t srcOffset, void *dst,
                          uint64_t bytes) {
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkHostPointer(dst, bytes, "read: null destination"));
  Impl &d = *impl_;
  std::unique_lock<std::mutex> lock(d.mu);
  const auto *a = d.find(src);
  if (!a)
    return unknownBuffer("read", src);
  if (Status s = checkRange("read", srcOffset, bytes, a->size); !s.isOk())
    return s;
  if (!bytes)
    return Status::ok();
  if (!d.staging) {
    std::memcpy(dst, a->mapped + srcOffset, bytes);
    return Status::ok();
  }
  VkBuffer source = a->buffer;
  lock.unlock();
  std::lock_guard<std::mutex> xfer(d.xferMu);
  for (uint64_t done = 0; done < bytes; done += kStagingBytes) {
    uint64_t n = std::min(kStagingBytes, bytes - done);
    if (Status s = d.transfer([&](VkCommandBuffer cb) {
          VkBufferCopy region{srcOffset + done, 0, n};
          d.vk.vkCmdCopyBuffer(cb, source, d.stagingBuffer, 1, &region);
        });
        !s.isOk())
      return s;
    std::memcpy(static_cast<char *>(dst) + done, d.stagingMap, n);
  }
  return Status::ok();
}

Status VulkanDevice::copy(Buffer src, uint64_t srcOffset, Buffer dst,
                          uint64_t dstOffset, uint64_t bytes) {
  Impl &d = *impl_;
  std::unique_lock<std::mutex> lock(d.mu);
  const auto *s = d.find(src);
  const auto *t = d.find(dst);
  if (!s)
    return unknownBuffer("copy: source", src);
  if (!t)
    return unknownBuffer("copy: destination", dst);
  if (Status st = checkRange("copy: source", srcOffset, bytes, s->size);
      !st.isOk())
    return st;
  if (Status st = checkRange("copy: destination", dstOffset, bytes, t->size);
      !st.isOk())
    return st;
  if (!bytes)
    return Status::ok();
  if (!d.staging) {
    std::memmove(t->mapped + dstOffset, s->mapped + srcOffset, bytes);
    return Status::ok();
  }
  VkBuffer from = s->buffer, to = t->buffer;
  lock.unlock();
  std::lock_guard<std::mutex> xfer(d.xferMu);
  return d.transfer([&](VkCommandBuffer cb) {
    d.recordCopy(cb, from, srcOffset, to, dstOffset, bytes, src == dst);
  });
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

namespace {

struct SpirvEntry {
  uint32_t id = 0;
  uint32_t model = 0;
  uint32_t localSize[3] = {0, 0, 0};
};

// The entry points of a SPIR-V module and their LocalSize, checking the
// instruction stream's framing on the way.
Status parseSpirv(const uint32_t *words, size_t n,
                  std::map<std::string, SpirvEntry> &entries) {
  std::vector<std::pair<uint32_t, std::array<uint32_t, 3>>> sizes;
  for (size_t i = 5; i < n;) {
    uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
    if (count == 0 || count > n - i)
      return Status::error(StatusCode::InvalidArgument,
                           "module: SPIR-V instruction at word " +
                               std::to_string(i) + " has a bad word count");
    if (op == 15 && count >= 4) { // OpEntryPoint
      size_t maxChars = 4 * (count - 3);
      const char *s = reinterpret_cast<const char *>(words + i + 3);
      std::string name(s, strnlen(s, maxChars));
      SpirvEntry e;
      e.model = words[i + 1];
      e.id = words[i + 2];
      entries[name] = e;
    } else if (op == 16 && count >= 6 && words[i + 2] == 17) {
      // OpExecutionMode %id LocalSize x y z
      sizes.push_back(
          {words[i + 1], {words[i + 3], words[i + 4], words[i + 5]}});
    }
    i += count;
  }
  for (auto &[name, e] : entries)
    for (auto &[id, s] : sizes)
      if (id == e.id)
        std::copy(s.begin(), s.end(), e.localSize);
  return Status::ok();
}

} // namespace

Status VulkanDevice::Impl::createPipelines(ModuleRec &m,
                                           const ModuleImage &image,
                                           std::vector<KernelRec> &out) {
  // The pipeline cache: read from disk where it matches this device.
  std::string cachePath;
  std::vector<char> cacheData;
  bool hit = false;
  if (!cacheDir.empty()) {
    uint64_t sum = fnv1a(image.data, image.size);
    for (const auto &name : image.kernelNames)
      sum = fnv1a(name.data(), name.size()) ^ (sum * 1099511628211ull);
    cachePath =
        cacheDir + "/vulkan-pipelines-" + hex(deviceUUID, VK_UUID_SIZE) + "-" +
        hex64(props.driverVersion).substr(8) + "-" + hex64(sum) + ".bin";
    if (FILE *f = std::fopen(cachePath.c_str(), "rb")) {
      std::vector<char> bytes;
      char buf[65536];
      size_t got;
      while ((got = std::fread(buf, 1, sizeof buf, f)) > 0)
        bytes.insert(bytes.end(), buf, buf + got);
      std::fclose(f);
      CacheFileHeader h;
      if (bytes.size() >= sizeof h) {
        std::memcpy(&h, bytes.data(), sizeof h);
        const char *payload = bytes.data() + sizeof h;
        size_t payloadBytes = bytes.size() - sizeof h;
        // The driver's header (VkPipelineCacheHeaderVersionOne).
        uint32_t vh[4] = {};
        if (payloadBytes >= 16 + VK_UUID_SIZE)
          std::memcpy(vh, payload, 16);
        if (std::memcmp(h.magic, kCacheMagic, 8) == 0 &&
            h.payloadBytes == payloadBytes &&
            h.payloadChecksum == fnv1a(payload, payloadBytes) &&
            payloadBytes >= 16 + VK_UUID_SIZE && vh[0] >= 16 + VK_UUID_SIZE &&
            vh[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
            vh[2] == props.vendorID && vh[3] == props.deviceID &&
            std::memcmp(payload + 16, props.pipelineCacheUUID, VK_UUID_SIZE) ==
                0) {
          cacheData.assign(payload, payload + payloadBytes);
          hit = true;
        }
      }
    }
  }
  VkPipelineCache cache = VK_NULL_HANDLE;
  if (!cacheDir.empty()) {
    VkPipelineCacheCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    pci.initialDataSize = cacheData.size();
    pci.pInitialData = cacheData.empty() ? nullptr : cacheData.data();
    if (vk.vkCreatePipelineCache(device, &pci, nullptr, &cache) != VK_SUCCESS) {
      pci.initialDataSize = 0;
      pci.pInitialData = nullptr;
      hit = false;
      if (vk.vkCreatePipelineCache(device, &pci, nullptr, &cache) != VK_SUCCESS)
        cache = VK_NULL_HANDLE;
    }
  }
  Status status = Status::ok();
  for (size_t i = 0; i < image.kernelNames.size() && status.isOk(); ++i) {
    const KernelLayout &layout = image.layouts[i];
    KernelRec k;
    k.slots = layout.bindingSlots;
    k.pushBytes = pushBytes;
    for (const auto &slot : k.slots)
      k.numSets = std::max(k.numSets, slot.first + 1);
    for (uint32_t set = 0; set < k.numSets; ++set) {
      std::vector<VkDescriptorSetLayoutBinding> bindings;
      for (const auto &slot : k.slots)
        if (slot.first == set) {
          VkDescriptorSetLayoutBinding b{};
          b.binding = slot.second;
          b.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
          b.descriptorCount = 1;
          b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
          bindings.push_back(b);
        }
      VkDescriptorSetLayoutCreateInfo li{
          VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      li.bindingCount = uint32_t(bindings.size());
      li.pBindings = bindings.data();
      VkDescriptorSetLayout l;
      if (VkResult r = vk.vkCreateDescriptorSetLayout(device, &li, nullptr, &l);
          r != VK_SUCCESS) {
        status = vkStatus("vkCreateDescriptorSetLayout", r);
        break;
      }
      k.setLayouts.push_back(l);
    }
    if (!status.isOk()) {
      out.push_back(std::move(k));
      break;
    }
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, k.pushBytes};
    VkPipelineLayoutCreateInfo pli{
        VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = uint32_t(k.setLayouts.size());
    pli.pSetLayouts = k.setLayouts.data();
    pli.pushConstantRangeCount = k.pushBytes ? 1 : 0;
    pli.pPushConstantRanges = &range;
    if (VkResult r =
            vk.vkCreatePipelineLayout(device, &pli, nullptr, &k.layout);
        r != VK_SUCCESS) {
      status = vkStatus("vkCreatePipelineLayout", r);
      out.push_back(std::move(k));
      break;
    }
    VkComputePipelineCreateInfo cpi{
        VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = m.shader;
    cpi.stage.pName = image.kernelNames[i].c_str();
    cpi.layout = k.layout;
    if (VkResult r = vk.vkCreateComputePipelines(device, cache, 1, &cpi,
                                                 nullptr, &k.pipeline);
        r != VK_SUCCESS) {
      k.pipeline = VK_NULL_HANDLE;
      status = vkStatus(
          ("vkCreateComputePipelines for kernel '" + image.kernelNames[i] + "'")
              .c_str(),
          r);
    }
    out.push_back(std::move(k));
  }
  if (cache && status.isOk()) {
    if (hit) {
      ++cacheHits;
    } else if (mkdirs(cacheDir)) {
      size_t size = 0;
      std::vector<char> data;
      if (vk.vkGetPipelineCacheData(device, cache, &size, nullptr) ==
              VK_SUCCESS &&
          size) {
        data.resize(size);
        if (vk.vkGetPipelineCacheData(device, cache, &size, data.data()) !=
            VK_SUCCESS)
          data.clear();
        data.resize(size);
      }
      if (!data.empty()) {
        // Written whole to a temporary file, then renamed over the old one.
        std::string tmp = cachePath + ".tmp" + std::to_string(::getpid()) +
                          "." + std::to_string(newId());
        CacheFileHeader h;
        std::memcpy(h.magic, kCacheMagic, 8);
        h.payloadBytes = data.size();
        h.payloadChecksum = fnv1a(data.data(), data.size());
        bool ok = false;
        if (FILE *f = std::fopen(tmp.c_str(), "wb")) {
          ok = std::fwrite(&h, sizeof h, 1, f) == 1 &&
               std::fwrite(data.data(), 1, data.size(), f) == data.size();
          ok = (std::fclose(f) == 0) && ok;
        }
        if (ok && std::rename(tmp.c_str(), cachePath.c_str()) == 0)
          ++cacheWrites;
        else
          std::remove(tmp.c_str());
      }
    }
  }
  if (cache)
    vk.vkDestroyPipelineCache(device, cache, nullptr);
  return status;
}

StatusOr<ModuleHandle> VulkanDevice::loadModule(const ModuleImage &image) {
  Impl &d = *impl_;
  if (!image.data && image.size)
    return Status::error(StatusCode::InvalidArgument,
                         "module: null data with a non-zero size");
  if (image.size % 4 || image.size < 20)
    return Status::error(StatusCode::InvalidArgument,
                         "module: a SPIR-V module of " +
                             std::to_string(image.size) +
                             " bytes is not a whole number of 32-bit words "
                             "with a header");
  std::vector<uint32_t> words(image.size / 4);
  std::memcpy(words.data(), image.data, image.size);
  if (words[0] != 0x07230203)
    return Status::error(StatusCode::InvalidArgument,
                         "module: not SPIR-V (bad magic number)");
  if (image.layouts.size() != image.kernelNames.size())
    return Status::error(StatusCode::InvalidArgument,
                         "module: " + std::to_string(image.kernelNames.size()) +
                             " kernel names but " +
                             std::to_string(image.layouts.size()) + " layouts");
  std::map<std::string, SpirvEntry> entries;
  if (Status s = parseSpirv(words.data(), words.size(), entries); !s.isOk())
    return s;
  const VkPhysicalDeviceLimits &lim = d.props.limits;
  for (size_t i = 0; i < image.kernelNames.size(); ++i) {
    const std::string &name = image.kernelNames[i];
    const KernelLayout &l = image.layouts[i];
    auto e = entries.find(name);
    if (e == entries.end())
      return Status::error(StatusCode::InvalidArgument,
                           "module: no entry point '" + name +
                               "' in the SPIR-V module");
    if (e->second.model != 5) // GLCompute
      return Status::error(StatusCode::InvalidArgument,
                           "module: entry point '" + name +
                               "' is not a compute (GLCompute) entry point");
    uint64_t invocations = 1;
    for (int a = 0; a < 3; ++a) {
      uint32_t w = l.workgroupSize[a];
      if (w == 0 || w > lim.maxComputeWorkGroupSize[a])
        return Status::error(
            StatusCode::InvalidArgument,
            "module: kernel '" + name + "' workgroup size " +
                std::to_string(w) + " in dimension " + std::to_string(a) +
                " is outside the device's maxComputeWorkGroupSize of " +
                std::to_string(lim.maxComputeWorkGroupSize[a]));
      invocations *= w;
      if (e->second.localSize[0] && e->second.localSize[a] != w)
        return Status::error(
            StatusCode::InvalidArgument,
            "module: kernel '" + name + "' layout's workgroup size " +
                std::to_string(w) + " in dimension " + std::to_string(a) +
                " differs from the module's LocalSize " +
                std::to_string(e->second.localSize[a]));
    }
    if (invocations > lim.maxComputeWorkGroupInvocations)
      return Status::error(
          StatusCode::InvalidArgument,
          "module: kernel '" + name + "' has " + std::to_string(invocations) +
              " invocations per workgroup; the device's "
              "maxComputeWorkGroupInvocations is " +
              std::to_string(lim.maxComputeWorkGroupInvocations));
    if (l.bindingSlots.size() > kMaxBindings)
      return Status::error(StatusCode::InvalidArgument,
                           "module: kernel '" + name + "' has " +
                               std::to_string(l.bindingSlots.size()) +
                               " bindings; the limit is " +
                               std::to_string(kMaxBindings));
    for (size_t j = 0; j < l.bindingSlots.size(); ++j) {
      if (l.bindingSlots[j].first >= kMaxSets ||
          l.bindingSlots[j].first >= lim.maxBoundDescriptorSets)
        return Status::error(StatusCode::InvalidArgument,
                             "module: kernel '" + name + "' binding " +
                                 std::to_string(j) + " uses descriptor set " +
                                 std::to_string(l.bindingSlots[j].first) +
                                 "; at most " +
                                 std::to_string(std::min<uint32_t>(
                                     kMaxSets, lim.maxBoundDescriptorSets)) +
                                 " sets are supported");
      for (size_t k = 0; k < j; ++k)
        if (l.bindingSlots[k] == l.bindingSlots[j])
          return Status::error(StatusCode::InvalidArgument,
                               "module: kernel '" + name + "' bindings " +
                                   std::to_string(k) + " and " +
                                   std::to_string(j) +
                                   " share one (set, binding) slot");
    }
  }
  if (d.lost)
    return Status::error(StatusCode::Unavailable,
                         "module: the Vulkan device was lost");
  Impl::ModuleRec m;
  VkShaderModuleCreateInfo sci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sci.codeSize = image.size;
  sci.pCode = words.data();
  if (VkResult r =
          d.vk.vkCreateShaderModule(d.device, &sci, nullptr, &m.shader);
      r != VK_SUCCESS)
    return vkStatus("vkCreateShaderModule", r);
  std::vector<Impl::KernelRec> kernels;
  Status s = d.createPipelines(m, image, kernels);
  if (!s.isOk()) {
    for (auto &k : kernels) {
      if (k.pipeline)
        d.vk.vkDestroyPipeline(d.device, k.pipeline, nullptr);
      if (k.layout)
        d.vk.vkDestroyPipelineLayout(d.device, k.layout, nullptr);
      for (VkDescriptorSetLayout l : k.setLayouts)
        d.vk.vkDestroyDescriptorSetLayout(d.device, l, nullptr);
    }
    d.vk.vkDestroyShaderModule(d.device, m.shader, nullptr);
    return s;
  }
  ModuleHandle handle;
  handle.id = newId();
  std::lock_guard<std::mutex> lock(d.mu);
  for (auto &k : kernels) {
    uint64_t id = newId();
    k.module = handle.id;
    d.kernels[id] = std::move(k);
    m.kernels.push_back(id);
    handle.kernels.push_back(Kernel{id});
  }
  d.modules[handle.id] = std::move(m);
  return handle;
}

Status VulkanDevice::unloadModule(const ModuleHandle &module) {
  Impl &d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.modules.find(module.id);
  if (it == d.modules.end())
    return Status::error(StatusCode::InvalidArgument,
                         "unloadModule: module " + std::to_string(module.id) +
                             " is not a loaded module of this device");
  for (uint64_t id : it->second.kernels) {
    auto k = d.kernels.find(id);
    d.vk.vkDestroyPipeline(d.device, k->second.pipeline, nullptr);
    d.vk.vkDestroyPipelineLayout(d.device, k->second.layout, nullptr);
    for (VkDescriptorSetLayout l : k->second.setLayouts)
      d.vk.vkDestroyDescriptorSetLayout(d.device, l, nullptr);
    d.kernels.erase(k);
  }
  d.vk.vkDestroyShaderModule(d.device, it->second.shader, nullptr);
  d.modules.erase(it);
  return Status::ok();
}

Status VulkanDevice::reserveWorkspace(uint64_t bytes) {
  // Kernels keep their scratch in registers and shared memory; the size is
  // only recorded, so that dispatches asking for more are refused as on
  // every device.
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->workspaceBytes = std::max(impl_->workspaceBytes, bytes);
  return Status::ok();
}

StatusOr<std::unique_ptr<Queue>> VulkanDevice::createQueue() {
  if (impl_->lost)
    return Status::error(StatusCode::Unavailable,
                         "createQueue: the Vulkan device was lost");
  auto q = std::make_unique<VulkanQueue>(impl_);
  if (Status s = q->init(); !s.isOk())
    return s;
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->queues[q.get()] = q.get();
  return std::unique_ptr<Queue>(std::move(q));
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
