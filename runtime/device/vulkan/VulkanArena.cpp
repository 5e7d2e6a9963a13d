//===- VulkanArena.cpp - Sub-allocation of large memory blocks ------------===//
//
// Best fit over every live block's free ranges; a free merges the range
// with the free ranges just before and after it.
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanArena.h"

#include <cassert>
#include <iterator>

namespace fuel::rt {

std::optional<Arena::Allocation> Arena::allocate(uint64_t size,
                                                 uint64_t alignment) {
  if (size == 0)
    size = 1;
  if (alignment == 0)
    alignment = 1;
  std::optional<Allocation> best;
  uint64_t bestWaste = ~uint64_t(0);
  for (uint32_t b = 0; b < blocks_.size(); ++b) {
    const Block &block = blocks_[b];
    if (!block.live || block.size - block.used < size)
      continue;
    for (const auto &[offset, length] : block.free) {
      uint64_t aligned = (offset + alignment - 1) & ~(alignment - 1);
      if (aligned < offset || aligned - offset >= length ||
          length - (aligned - offset) < size)
        continue;
      uint64_t waste = length - size;
      if (waste < bestWaste) {
        bestWaste = waste;
        best = Allocation{b, aligned, size};
      }
    }
  }
  if (!best)
    return std::nullopt;
  Block &block = blocks_[best->block];
  auto it = block.free.upper_bound(best->offset);
  --it;
  uint64_t rangeOffset = it->first, rangeLength = it->second;
  block.free.erase(it);
  if (best->offset > rangeOffset)
    block.free[rangeOffset] = best->offset - rangeOffset;
  uint64_t end = best->offset + size, rangeEnd = rangeOffset + rangeLength;
  if (rangeEnd > end)
    block.free[end] = rangeEnd - end;
  block.used += size;
  return best;
}

uint32_t Arena::addBlock(uint64_t size) {
  uint32_t b = 0;
  while (b < blocks_.size() && blocks_[b].live)
    ++b;
  if (b == blocks_.size())
    blocks_.emplace_back();
  Block &block = blocks_[b];
  block.live = true;
  block.size = size;
  block.used = 0;
  block.free.clear();
  if (size)
    block.free[0] = size;
  return b;
}

void Arena::free(const Allocation &a) {
  assert(a.block < blocks_.size() && blocks_[a.block].live);
  Block &block = blocks_[a.block];
  block.used -= a.size;
  uint64_t offset = a.offset, length = a.size;
  auto next = block.free.lower_bound(offset);
  if (next != block.free.end() && next->first == offset + length) {
    length += next->second;
    next = block.free.erase(next);
  }
  if (next != block.free.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += length;
      return;
    }
  }
  block.free[offset] = length;
}

bool Arena::isEmpty(uint32_t b) const {
  return b < blocks_.size() && blocks_[b].live && blocks_[b].used == 0;
}

void Arena::removeBlock(uint32_t b) {
  assert(isEmpty(b));
  blocks_[b].live = false;
  blocks_[b].free.clear();
}

size_t Arena::numBlocks() const {
  size_t n = 0;
  for (const Block &b : blocks_)
    n += b.live;
  return n;
}

} // namespace fuel::rt
