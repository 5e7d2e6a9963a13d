//===- CudaCommands.cpp - What the CUDA device hands the driver -----------===//
//
// Kernel parameters, PTX image checks and copy pieces (CudaCommands.h).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommands.h"

#include "fuel/Runtime/Ptx.h"

#include <algorithm>
#include <cstring>

namespace fuel::rt::cuda {

void packKernelParams(const CUdeviceptr *bindingAddresses, size_t numBindings,
                      const uint32_t *push, size_t numPush, uint64_t *storage,
                      void **args) {
  for (size_t i = 0; i < numBindings; ++i) {
    storage[i] = bindingAddresses[i];
    args[i] = &storage[i];
  }
  for (size_t i = 0; i < numPush; ++i) {
    // A 32-bit parameter is read from the first 4 bytes its pointer points
    // at; the slot is zeroed so that the rest is defined.
    uint64_t &slot = storage[numBindings + i];
    slot = 0;
    std::memcpy(&slot, &push[i], sizeof(uint32_t));
    args[numBindings + i] = &slot;
  }
}

Status checkPtxImage(const void *data, size_t size,
                     const std::vector<std::string> &kernelNames) {
  if (!data || size == 0)
    return Status::error(StatusCode::InvalidArgument,
                         "cuda: empty PTX module image");
  // The executable's reader takes the text with its terminating NUL; an
  // image without one is read from a copy that has it.
  const char *text = static_cast<const char *>(data);
  std::string terminated;
  if (text[size - 1] != '\0') {
    terminated.assign(text, size);
    terminated.push_back('\0');
    text = terminated.data();
    size = terminated.size();
  }
  StatusOr<PtxModuleInfo> info = readPtxModule(text, size);
  if (!info)
    return Status::error(StatusCode::InvalidArgument,
                         "cuda: the PTX module image is not text or not PTX: " +
                             info.status().message());
  for (const std::string &name : kernelNames)
    if (std::find(info->entries.begin(), info->entries.end(), name) ==
        info->entries.end())
      return Status::error(StatusCode::InvalidArgument,
                           "cuda: the PTX module image has no .entry '" + name +
                               "'");
  return Status::ok();
}

} // namespace fuel::rt::cuda
