//===- VulkanDeviceImpl.h - The Vulkan device's shared state ----*- C++ -*-===//
//
// Private to runtime/device/vulkan: the state every part of the Vulkan
// device shares, and their helpers. The device is split by job:
//
//   VulkanDevice.cpp   bring-up: loader, instance, physical and logical
//                      device, memory types, clock calibration, opening
//   VulkanMemory.cpp   buffers, the arena's blocks, write/read/copy and
//                      the synchronous transfers behind them
//   VulkanQueue.cpp    queues: batching, recording, submission, fences and
//                      timestamps
//   VulkanModules.cpp  SPIR-V modules, compute pipelines and the on-disk
//                      pipeline cache
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_VULKAN_VULKANDEVICEIMPL_H
#define FUEL_RUNTIME_DEVICE_VULKAN_VULKANDEVICEIMPL_H

#include "vulkan/VulkanArena.h"
#include "vulkan/VulkanDevice.h"
#include "vulkan/VulkanLoader.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace fuel::rt {

namespace vulkan_detail {

/// Ids of buffers, kernels and modules, unique in the process.
inline std::atomic<uint64_t> nextHandleId{1ull << 40};
inline uint64_t newId() { return nextHandleId.fetch_add(1); }

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

/// "VK_ERROR_DEVICE_LOST" and the like; null for a code not named here.
const char *vkResultName(VkResult r);

/// "`call` failed with VkResult <n> <name>".
std::string vkError(const char *call, VkResult r);

/// vkError as a Status: out of memory or objects ResourceExhausted, a lost
/// device Unavailable, anything else Internal.
Status vkStatus(const char *call, VkResult r);

/// A memory barrier from every write of compute, transfer and host to
/// `dstStage`/`dstAccess`.
void barrier(const VulkanSymbols &vk, VkCommandBuffer cb,
             VkPipelineStageFlags dstStage, VkAccessFlags dstAccess);

constexpr VkPipelineStageFlags kWorkStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kWorkAccess =
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

} // namespace vulkan_detail

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

  VulkanSymbols vk;
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
    return vulkan_detail::vkStatus(call, r);
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

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICE_VULKAN_VULKANDEVICEIMPL_H
