//===- VulkanQueue.cpp - The Vulkan device's queues -----------------------===//
//
// A queue keeps its submitted commands pending and records them into one
// command buffer, submitted once, when one of its fences is waited on or
// asked about, when finish() is called or when the batch is full. Fences
// are the values of one timeline semaphore per queue; each batch signals
// its last command's value; timestamps of timed commands are read back
// when their batch is collected (VulkanDeviceImpl.h).
//
//===----------------------------------------------------------------------===//

#include "vulkan/VulkanDeviceImpl.h"

#include "BatchingQueue.h"
#include "DeviceChecks.h"

#include <algorithm>
#include <cstring>

namespace fuel::rt {

using namespace vulkan_detail;
using detail::checkRange;
using detail::outOfRange;
using detail::unknownBuffer;

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
  const VulkanSymbols *vk_ = nullptr;
  VkSemaphore timeline_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::vector<Slot> slots_;
  uint64_t lastSignal_ = 0;
};

Status VulkanQueue::init() {
  vk_ = &dev_->vk;
  const VulkanSymbols &vk = *vk_;
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
    const VulkanSymbols &vk = *vk_;
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
  const VulkanSymbols &vk = *vk_;
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
  const VulkanSymbols &vk = *vk_;
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
  const VulkanSymbols &vk = *vk_;
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
  const VulkanSymbols &vk = *vk_;
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

} // namespace fuel::rt
