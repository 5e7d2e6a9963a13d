//===- DeviceChecks.cpp - Checks every device makes alike -----------------===//
//
// Implements DeviceChecks.h.
//
//===----------------------------------------------------------------------===//

#include "DeviceChecks.h"

namespace fuel::rt::detail {

Status outOfRange(const char *what, uint64_t offset, uint64_t bytes,
                  uint64_t size) {
  return Status::error(
      StatusCode::OutOfRange,
      std::string(what) + ": bytes [" + std::to_string(offset) + ", " +
          std::to_string(offset) + " + " + std::to_string(bytes) +
          ") are outside a buffer of " + std::to_string(size) + " bytes");
}

Status checkRange(const char *what, uint64_t offset, uint64_t bytes,
                  uint64_t size) {
  if (offset > size || bytes > size - offset)
    return outOfRange(what, offset, bytes, size);
  return Status::ok();
}

StatusOr<uint64_t> checkAlignment(uint64_t alignment, uint64_t maxAlignment) {
  if (alignment == 0)
    alignment = 64;
  if (alignment & (alignment - 1))
    return Status::error(StatusCode::InvalidArgument,
                         "allocate: alignment " + std::to_string(alignment) +
                             " is not a power of two");
  if (alignment > maxAlignment)
    return Status::error(StatusCode::InvalidArgument,
                         "allocate: alignment " + std::to_string(alignment) +
                             " exceeds the device's maximum of " +
                             std::to_string(maxAlignment));
  return alignment;
}

Status checkMemoryLimit(uint64_t size, uint64_t allocated, uint64_t limit) {
  if (size > limit || allocated > limit - size)
    return Status::error(StatusCode::ResourceExhausted,
                         "allocate: " + std::to_string(size) +
                             " bytes would exceed the device memory limit (" +
                             std::to_string(allocated) + " of " +
                             std::to_string(limit) + " bytes in use)");
  return Status::ok();
}

Status unknownBuffer(const char *what, Buffer b) {
  return Status::error(StatusCode::InvalidArgument,
                       std::string(what) + ": buffer " + std::to_string(b.id) +
                           " is not a live buffer of this device");
}

Status checkWaitList(const Fence *waits, size_t numWaits, size_t limit) {
  if (numWaits > limit)
    return Status::error(StatusCode::InvalidArgument,
                         "submit: " + std::to_string(numWaits) +
                             " wait fences exceed the limit of " +
                             std::to_string(limit));
  if (numWaits && !waits)
    return Status::error(StatusCode::InvalidArgument,
                         "submit: null wait fences");
  for (size_t i = 0; i < numWaits; ++i)
    if (waits[i].value != 0 && !waits[i].queue)
      return Status::error(StatusCode::InvalidArgument, "submit: wait fence " +
                                                            std::to_string(i) +
                                                            " has no queue");
  return Status::ok();
}

Status checkCopyCommand(const Command &c, const uint64_t *srcSize,
                        const uint64_t *dstSize) {
  if (!srcSize)
    return unknownBuffer("copy command: source", c.src);
  if (!dstSize)
    return unknownBuffer("copy command: destination", c.dst);
  FUEL_RT_RETURN_IF_ERROR(
      checkRange("copy command: source", c.srcOffset, c.bytes, *srcSize));
  return checkRange("copy command: destination", c.dstOffset, c.bytes,
                    *dstSize);
}

Status unknownKernel(Kernel k) {
  return Status::error(StatusCode::InvalidArgument,
                       "dispatch: kernel " + std::to_string(k.id) +
                           " is not a loaded kernel of this device");
}

Status deviceLost(const char *device) {
  return Status::error(StatusCode::Unavailable, std::string("submit: the ") +
                                                    device +
                                                    " device was lost");
}

Status checkBindingList(const Command &c) {
  if (c.numBindings > kMaxBindings)
    return Status::error(StatusCode::InvalidArgument,
                         "dispatch: " + std::to_string(c.numBindings) +
                             " bindings exceed the limit of " +
                             std::to_string(kMaxBindings));
  if (c.numBindings && !c.bindings)
    return Status::error(StatusCode::InvalidArgument,
                         "dispatch: null bindings");
  return Status::ok();
}

Status checkDispatchArguments(const Command &c, uint64_t reservedWorkspace) {
  FUEL_RT_RETURN_IF_ERROR(checkBindingList(c));
  if (c.numPushConstants > kMaxPushConstants)
    return Status::error(StatusCode::InvalidArgument,
                         "dispatch: " + std::to_string(c.numPushConstants) +
                             " push constants exceed the limit of " +
                             std::to_string(kMaxPushConstants));
  if (c.numPushConstants && !c.pushConstants)
    return Status::error(StatusCode::InvalidArgument,
                         "dispatch: null push constants");
  if (c.workspaceBytes > reservedWorkspace)
    return Status::error(StatusCode::FailedPrecondition,
                         "dispatch: needs a workspace of " +
                             std::to_string(c.workspaceBytes) +
                             " bytes; reserveWorkspace reserved " +
                             std::to_string(reservedWorkspace));
  return Status::ok();
}

} // namespace fuel::rt::detail
