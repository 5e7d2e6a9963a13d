//===- VulkanArena.h - Sub-allocation of large memory blocks ----*- C++ -*-===//
//
// The Vulkan device's memory allocator, independent of Vulkan: a few large
// blocks (one VkDeviceMemory each), sub-allocated best-fit with alignment,
// freed ranges coalesced with their neighbours. The arena only does the
// bookkeeping; its owner creates and destroys the memory of each block.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_VULKAN_VULKANARENA_H
#define FUEL_RUNTIME_DEVICE_VULKAN_VULKANARENA_H

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace fuel::rt {

class Arena {
public:
  struct Allocation {
    uint32_t block = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
  };

  /// Places `size` bytes (0 counts as 1) aligned to `alignment` (a power of
  /// two) in the live block whose fitting free range is smallest; nullopt
  /// when no block has room (the owner then adds one).
  std::optional<Allocation> allocate(uint64_t size, uint64_t alignment);

  /// Adds an empty block of `size` bytes; returns its index. Indices of
  /// removed blocks are reused.
  uint32_t addBlock(uint64_t size);

  /// Returns an allocation's range to its block, merged with free
  /// neighbours.
  void free(const Allocation &a);

  /// Whether block `b` is live and holds no allocation.
  bool isEmpty(uint32_t b) const;

  /// Forgets an empty block.
  void removeBlock(uint32_t b);

  /// Live blocks.
  size_t numBlocks() const;

  /// The free ranges of block `b` (offset -> size), for tests.
  const std::map<uint64_t, uint64_t> &freeRanges(uint32_t b) const {
    return blocks_[b].free;
  }

  uint64_t blockSize(uint32_t b) const { return blocks_[b].size; }

private:
  struct Block {
    bool live = false;
    uint64_t size = 0;
    uint64_t used = 0;
    std::map<uint64_t, uint64_t> free;
  };
  std::vector<Block> blocks_;
};

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICE_VULKAN_VULKANARENA_H
