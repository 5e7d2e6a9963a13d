//===- DeviceChecks.h - Checks every device makes alike ---------*- C++ -*-===//
//
// The argument checks the CPU, Vulkan and CUDA devices share, so that their
// refusals read the same: an allocation's alignment and the memory limit,
// write's and read's host pointer, byte ranges inside a buffer, unknown
// buffers, a submit's wait list and a copy command's buffers and ranges.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_DEVICECHECKS_H
#define FUEL_RUNTIME_DEVICE_DEVICECHECKS_H

#include "fuel/Runtime/Device.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace fuel::rt::detail {

// `what` is a C string so that a check that passes allocates nothing (the
// CPU device's submit must not allocate); the std::string forms are for
// messages built at the call.

/// "WHAT: bytes [offset, offset + bytes) are outside a buffer of SIZE bytes".
Status outOfRange(const char *what, uint64_t offset, uint64_t bytes,
                  uint64_t size);
inline Status outOfRange(const std::string &what, uint64_t offset,
                         uint64_t bytes, uint64_t size) {
  return outOfRange(what.c_str(), offset, bytes, size);
}

/// OutOfRange unless [offset, offset + bytes) lies inside `size` bytes (no
/// overflow).
Status checkRange(const char *what, uint64_t offset, uint64_t bytes,
                  uint64_t size);
inline Status checkRange(const std::string &what, uint64_t offset,
                         uint64_t bytes, uint64_t size) {
  return checkRange(what.c_str(), offset, bytes, size);
}

/// "WHAT: buffer N is not a live buffer of this device".
Status unknownBuffer(const char *what, Buffer b);
inline Status unknownBuffer(const std::string &what, Buffer b) {
  return unknownBuffer(what.c_str(), b);
}

/// allocate()'s alignment: 0 stands for 64; InvalidArgument unless it is a
/// power of two of at most `maxAlignment`. Returns the alignment to use.
StatusOr<uint64_t> checkAlignment(uint64_t alignment, uint64_t maxAlignment);

/// ResourceExhausted unless `size` more bytes fit in `limit` with
/// `allocated` in use (no overflow).
Status checkMemoryLimit(uint64_t size, uint64_t allocated, uint64_t limit);

/// write()'s source or read()'s destination (`what`: "write: null source"):
/// InvalidArgument when it is null and there are bytes to move.
inline Status checkHostPointer(const void *p, uint64_t bytes,
                               const char *what) {
  if (bytes && !p)
    return Status::error(StatusCode::InvalidArgument, what);
  return Status::ok();
}

/// A submit's wait list: at most `limit` fences, not null when there are
/// some, each nonzero fence with a queue.
Status checkWaitList(const Fence *waits, size_t numWaits, size_t limit);

/// A copy command, given the sizes of its source and destination buffers
/// (null: not a live buffer of the device).
Status checkCopyCommand(const Command &c, const uint64_t *srcSize,
                        const uint64_t *dstSize);

/// checkCopyCommand with the buffers looked up by `find(Buffer)`, which
/// returns a record with a `size` or null.
template <typename Find>
Status checkCopyCommandIn(const Command &c, Find &&find) {
  const auto *src = find(c.src);
  const auto *dst = find(c.dst);
  return checkCopyCommand(c, src ? &src->size : nullptr,
                          dst ? &dst->size : nullptr);
}

/// "dispatch: kernel N is not a loaded kernel of this device".
Status unknownKernel(Kernel k);

/// "submit: the DEVICE device was lost" (`device`: "CUDA", "Vulkan").
Status deviceLost(const char *device);

/// A dispatch's binding list: at most kMaxBindings bindings, not null where
/// it has some.
Status checkBindingList(const Command &c);

/// A dispatch's argument lists: checkBindingList, at most
/// kMaxPushConstants push constants, not null where it has some, and
/// a workspace within the `reservedWorkspace` bytes reserveWorkspace
/// reserved.
Status checkDispatchArguments(const Command &c, uint64_t reservedWorkspace);

} // namespace fuel::rt::detail

#endif // FUEL_RUNTIME_DEVICE_DEVICECHECKS_H
