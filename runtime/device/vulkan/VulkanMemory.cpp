//===- VulkanMemory.cpp - The Vulkan device's buffers and transfers -------===//
//
// Buffers bound to sub-ranges of the arena's VkDeviceMemory blocks, mapped
// where the memory is host-visible; write/read/copy as synchronous
// transfers, staged through a host-visible buffer where the memory is not
// mapped (VulkanDeviceImpl.h).
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanDeviceImpl.h"

#include "DeviceChecks.h"

#include <algorithm>
#include <cstring>

namespace fuel::rt {

using namespace vulkan_detail;
using detail::checkRange;
using detail::outOfRange;
using detail::unknownBuffer;

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

} // namespace fuel::rt
