//===- VulkanDevice.h - A Vulkan physical device as a device ----*- C++ -*-===//
//
// The Vulkan device: the loader is opened with dlopen("libvulkan.so.1") (the
// runtime never links libvulkan), buffers are device-local memory from the
// device's own arena allocator (VulkanArena.h), mapped directly where a
// memory type is both device-local and host-visible and staged through a
// host-visible buffer otherwise, modules are SPIR-V with one compute
// pipeline per kernel created at load (with a pipeline cache persisted on
// disk), and queues batch their commands into as few vkQueueSubmit calls
// as the fences asked for allow. docs/RUNTIME.md, "Vulkan device".
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_VULKAN_VULKANDEVICE_H
#define FUEL_RUNTIME_DEVICE_VULKAN_VULKANDEVICE_H

#include "fuel/Runtime/Device.h"
#include "fuel/Runtime/Devices.h"

#include <cstdint>
#include <memory>
#include <string>

namespace fuel::rt {

/// Counters of what the device did, for tests and benchmarks.
struct VulkanDeviceCounters {
  /// vkQueueSubmit calls of the device's queues (not of write/read/copy).
  uint64_t submits = 0;
  /// Command buffers recorded by the device's queues.
  uint64_t commandBuffers = 0;
  /// Commands (dispatches and copies) recorded by the device's queues.
  uint64_t commands = 0;
  /// Modules whose pipelines were created from a pipeline cache file read
  /// from disk.
  uint64_t pipelineCacheHits = 0;
  /// Pipeline cache files written.
  uint64_t pipelineCacheWrites = 0;
  /// VkDeviceMemory blocks currently allocated by the arena.
  uint64_t memoryBlocks = 0;
};

class VulkanDevice;

class VulkanDevice final : public Device {
public:
  ~VulkanDevice() override;

  const DeviceInfo &info() const override;
  StatusOr<Buffer> allocate(uint64_t size, uint64_t alignment) override;
  StatusOr<Buffer> importHost(void *data, uint64_t size) override;
  Status free(Buffer buffer) override;
  StatusOr<uint64_t> bufferSize(Buffer buffer) const override;
  StatusOr<void *> hostPointer(Buffer buffer) const override;
  uint64_t bytesAllocated() const override;
  Status write(Buffer dst, uint64_t dstOffset, const void *src,
               uint64_t bytes) override;
  Status read(Buffer src, uint64_t srcOffset, void *dst,
              uint64_t bytes) override;
  Status copy(Buffer src, uint64_t srcOffset, Buffer dst, uint64_t dstOffset,
              uint64_t bytes) override;
  StatusOr<ModuleHandle> loadModule(const ModuleImage &image) override;
  Status unloadModule(const ModuleHandle &module) override;
  Status reserveWorkspace(uint64_t bytes) override;
  StatusOr<std::unique_ptr<Queue>> createQueue() override;

  VulkanDeviceCounters counters() const;

  /// The directory pipeline caches are written to ("" when caching is off).
  const std::string &pipelineCacheDir() const;

  /// The largest number of commands one submit of a queue takes.
  static constexpr size_t kMaxBatch = 256;

  class Impl;

private:
  friend StatusOr<std::unique_ptr<Device>>
  openVulkanDevice(uint32_t ordinal, const VulkanDeviceOptions &options);
  explicit VulkanDevice(std::shared_ptr<Impl> impl);
  // Shared with the device's queues.
  std::shared_ptr<Impl> impl_;
};

/// The directory of pipeline caches for `options`: options.cacheDir, else
/// $FUEL_CACHE_DIR, else $XDG_CACHE_HOME/fuel, else $HOME/.cache/fuel; ""
/// when none is set.
std::string vulkanCacheDirectory(const VulkanDeviceOptions &options);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICE_VULKAN_VULKANDEVICE_H
