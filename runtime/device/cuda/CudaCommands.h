//===- CudaCommands.h - What the CUDA device hands the driver ---*- C++ -*-===//
//
// The pieces of the CUDA device's commands that need no driver, so they are
// tested without one: kernel parameters in the CUDA kernel ABI, the check of
// a PTX image before cuModuleLoadDataEx sees it, and overlapping copies
// split into pieces. docs/RUNTIME.md, "CUDA device".
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_CUDA_CUDACOMMANDS_H
#define FUEL_RUNTIME_DEVICE_CUDA_CUDACOMMANDS_H

#include "cuda/CudaDriver.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fuel::rt::cuda {

/// One kernel parameter per binding (the 64-bit device address of the
/// range's first byte) followed by one 32-bit parameter per push constant:
/// the CUDA kernel ABI. Fills `storage` with the values and `args` with a
/// pointer to each, as cuLaunchKernel's kernelParams takes them; both must
/// hold numBindings + numPush entries.
void packKernelParams(const CUdeviceptr *bindingAddresses, size_t numBindings,
                      const uint32_t *push, size_t numPush, uint64_t *storage,
                      void **args);

/// Checks a PTX module image before the driver sees it: what the
/// executable's reader checks (readPtxModule, fuel/Runtime/Ptx.h: text, no
/// NUL before the end, a `.version` and a `.target` directive; the image's
/// terminating NUL may be missing here) and a `.entry` for every kernel
/// name. The message names what is wrong.
Status checkPtxImage(const void *data, size_t size,
                     const std::vector<std::string> &kernelNames);

/// Splits a copy of `bytes` from `src` to `dst` (addresses in one space)
/// into pieces none of which overlaps itself, in an order that gives
/// memmove's result when the pieces run one after another: `emit(dst, src,
/// bytes)` is called per piece. Returns the first error emit returns.
template <typename Emit>
Status forEachCopyPiece(uint64_t dst, uint64_t src, uint64_t bytes,
                        Emit &&emit) {
  if (bytes == 0 || dst == src)
    return Status::ok();
  uint64_t distance = dst > src ? dst - src : src - dst;
  if (distance >= bytes)
    return emit(dst, src, bytes);
  if (dst < src) {
    for (uint64_t done = 0; done < bytes; done += distance) {
      uint64_t n = bytes - done < distance ? bytes - done : distance;
      FUEL_RT_RETURN_IF_ERROR(emit(dst + done, src + done, n));
    }
    return Status::ok();
  }
  for (uint64_t left = bytes; left > 0;) {
    uint64_t n = left < distance ? left : distance;
    left -= n;
    FUEL_RT_RETURN_IF_ERROR(emit(dst + left, src + left, n));
  }
  return Status::ok();
}

} // namespace fuel::rt::cuda

#endif // FUEL_RUNTIME_DEVICE_CUDA_CUDACOMMANDS_H
