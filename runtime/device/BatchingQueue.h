//===- BatchingQueue.h - A queue that keeps commands till asked -*- C++ -*-===//
//
// What the CUDA and Vulkan queues share: a submitted command is checked and
// kept pending with its fence value and wait list; the pending commands go
// to the device (a derived queue's flushUpTo) when a fence is waited on or
// asked about, at finish(), or when the batch is full. The first failure is
// kept with the fence value it happened at: that command and every later
// one fail with it. Only the calls into the device's API differ, in the
// derived queue's validate, flushUpTo, waitFor and signalled.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_BATCHINGQUEUE_H
#define FUEL_RUNTIME_DEVICE_BATCHINGQUEUE_H

#include "DeviceChecks.h"

#include "fuel/Runtime/Device.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace fuel::rt::detail {

/// The most fences one command of a batching queue waits for.
constexpr size_t kMaxQueueWaits = 8;

/// A submitted command not yet given to the device.
struct PendingCommand {
  Command command;
  /// Its fence value.
  uint64_t value = 0;
  /// Its nonzero wait fences.
  Fence waits[kMaxQueueWaits];
  size_t numWaits = 0;
};

/// The first failure of a queue's commands and the fence value it happened
/// at; thread-safe.
class QueueFailure {
public:
  /// Keeps `s` as the failure at `value` unless an earlier (or the same)
  /// command failed already.
  void record(uint64_t value, Status s);
  /// The failure when command `value` is at or after the first failed one,
  /// else ok.
  Status at(uint64_t value) const;
  /// The fence value of the first failed command, 0 when none failed.
  uint64_t first() const { return failedAt_; }

private:
  mutable std::mutex mu_;
  std::atomic<uint64_t> failedAt_{0};
  Status failure_;
};

/// A queue that keeps commands pending until they are needed. `Mutex`
/// guards the pending commands and fence values together with the derived
/// queue's own state (a recursive mutex where the derived queue's flush
/// calls back into its own locked members).
template <typename Mutex> class BatchingQueue : public Queue {
public:
  StatusOr<Fence> submit(const Command &command, const Fence *waits,
                         size_t numWaits) final;
  Status wait(Fence fence) final;
  bool isSignalled(Fence fence) const final;
  Status finish() final;

  /// Gives every pending command with a fence value up to `value` to the
  /// device.
  virtual void flushUpTo(uint64_t value) = 0;

  /// The failure of the first failed command at or before `value`.
  Status failureAt(uint64_t value) const { return failure_.at(value); }

protected:
  /// `maxBatch`: the most commands kept pending before they are flushed.
  explicit BatchingQueue(size_t maxBatch) : maxBatch_(maxBatch) {
    pending_.reserve(maxBatch);
  }

  /// Checks a command and its wait list before it is kept (the list has
  /// been checked against kMaxQueueWaits by then).
  virtual Status validate(const Command &command, const Fence *waits,
                          size_t numWaits) = 0;
  /// wait() for this queue's command `value` (nonzero, returned by submit);
  /// `last` is the newest fence value returned.
  virtual Status waitFor(uint64_t value, uint64_t last) = 0;
  /// isSignalled() for this queue's command `value` (nonzero, returned by
  /// submit); `last` is the newest fence value returned.
  virtual bool signalled(uint64_t value, uint64_t last) = 0;

  void fail(uint64_t value, Status s) { failure_.record(value, std::move(s)); }
  /// The fence value of the first failed command, 0 when none failed.
  uint64_t failedAt() const { return failure_.first(); }

  mutable Mutex mu_;
  /// Pending commands in fence order (guarded by mu_).
  std::vector<PendingCommand> pending_;
  /// The fence value of the next command (guarded by mu_).
  uint64_t nextValue_ = 1;

private:
  /// The newest fence value returned, or the refusal of `fence` (0 when
  /// it needs no waiting: value 0).
  StatusOr<uint64_t> checkFence(Fence fence) const;

  size_t maxBatch_;
  QueueFailure failure_;
};

template <typename Mutex>
StatusOr<Fence> BatchingQueue<Mutex>::submit(const Command &command,
                                             const Fence *waits,
                                             size_t numWaits) {
  FUEL_RT_RETURN_IF_ERROR(checkWaitList(waits, numWaits, kMaxQueueWaits));
  FUEL_RT_RETURN_IF_ERROR(validate(command, waits, numWaits));
  bool full;
  Fence f{this, 0};
  {
    std::lock_guard<Mutex> lock(mu_);
    for (size_t i = 0; i < numWaits; ++i)
      if (waits[i].value != 0 && waits[i].queue == this &&
          waits[i].value >= nextValue_)
        return Status::error(StatusCode::InvalidArgument,
                             "submit: wait fence " + std::to_string(i) +
                                 " was never returned by its queue");
    PendingCommand p;
    p.command = command;
    p.value = nextValue_++;
    for (size_t i = 0; i < numWaits; ++i)
      if (waits[i].value != 0)
        p.waits[p.numWaits++] = waits[i];
    pending_.push_back(p);
    f.value = p.value;
    full = pending_.size() >= maxBatch_;
  }
  if (full)
    flushUpTo(f.value);
  return f;
}

template <typename Mutex>
StatusOr<uint64_t> BatchingQueue<Mutex>::checkFence(Fence fence) const {
  if (fence.queue != this)
    return Status::error(StatusCode::InvalidArgument,
                         "wait: the fence belongs to another queue");
  std::lock_guard<Mutex> lock(mu_);
  if (fence.value >= nextValue_)
    return Status::error(StatusCode::InvalidArgument,
                         "wait: fence " + std::to_string(fence.value) +
                             " was never returned by this queue");
  return nextValue_ - 1;
}

template <typename Mutex> Status BatchingQueue<Mutex>::wait(Fence fence) {
  if (fence.value == 0)
    return Status::ok();
  StatusOr<uint64_t> last = checkFence(fence);
  if (!last)
    return last.status();
  return waitFor(fence.value, *last);
}

template <typename Mutex>
bool BatchingQueue<Mutex>::isSignalled(Fence fence) const {
  if (fence.value == 0)
    return true;
  StatusOr<uint64_t> last = checkFence(fence);
  if (!last)
    return false;
  // Asking may flush: the pending commands are the queue's, not the
  // caller's.
  return const_cast<BatchingQueue *>(this)->signalled(fence.value, *last);
}

template <typename Mutex> Status BatchingQueue<Mutex>::finish() {
  uint64_t last;
  {
    std::lock_guard<Mutex> lock(mu_);
    last = nextValue_ - 1;
  }
  if (!last)
    return Status::ok();
  return wait(Fence{this, last});
}

} // namespace fuel::rt::detail

#endif // FUEL_RUNTIME_DEVICE_BATCHINGQUEUE_H
