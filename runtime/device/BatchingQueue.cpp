//===- BatchingQueue.cpp - A queue that keeps commands till asked ---------===//
//
// Implements the non-template part of BatchingQueue.h.
//
//===----------------------------------------------------------------------===//

#include "BatchingQueue.h"

namespace fuel::rt::detail {

void QueueFailure::record(uint64_t value, Status s) {
  std::lock_guard<std::mutex> lock(mu_);
  if (failedAt_ && failedAt_ <= value)
    return;
  failure_ = std::move(s);
  failedAt_ = value;
}

Status QueueFailure::at(uint64_t value) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (failedAt_ && value >= failedAt_)
    return failure_;
  return Status::ok();
}

} // namespace fuel::rt::detail
