//===- Devices.cpp - Opening the runtime's devices ------------------------===//
//
// The openers and the per-backend operations of fuel/Runtime/Devices.h,
// dispatched on the device's backend.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Devices.h"

#include "cpu/CpuDevice.h"
#include "cuda/CudaDevice.h"

namespace fuel::rt {

StatusOr<std::unique_ptr<Device>>
openCpuDevice(const CpuDeviceOptions &options) {
  StatusOr<std::unique_ptr<CpuDevice>> cpu = CpuDevice::create(options);
  if (!cpu)
    return cpu.status();
  return std::unique_ptr<Device>(std::move(*cpu));
}

unsigned dispatchThreads(const Device &device) {
  if (auto *cpu = dynamic_cast<const CpuDevice *>(&device))
    return cpu->threadCount();
  return 1;
}

StatusOr<ModuleHandle>
loadLibraryKernels(Device &device, const std::string &shimDirectory,
                   const std::string &shim,
                   const std::vector<std::string> &entries) {
  if (shim.find('/') != std::string::npos)
    return Status::error(StatusCode::InvalidArgument,
                         "shim '" + shim + "' must be a file name, not a path");
  if (auto *cuda = dynamic_cast<CudaDevice *>(&device)) {
    // A CUDA library is named by its source ("cublas"), or as a shim file
    // would be ("libfuel-shim-cublas.so").
    std::string name = shim;
    if (name.rfind("libfuel-shim-", 0) == 0)
      name = name.substr(13);
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".so") == 0)
      name.resize(name.size() - 3);
    return cuda->loadLibrary(name, entries);
  }
  if (auto *cpu = dynamic_cast<CpuDevice *>(&device))
    return cpu->loadShim(shimDirectory + "/" + shim, entries);
  return Status::error(StatusCode::InvalidArgument,
                       "library kernels run on the cpu (shims) or on cuda "
                       "(cuBLAS), not on " +
                           device.info().id.str());
}

StatusOr<bool> copyBetweenDevices(Device &src, Buffer srcBuffer,
                                  uint64_t srcOffset, Device &dst,
                                  Buffer dstBuffer, uint64_t dstOffset,
                                  uint64_t bytes) {
  auto *cudaSrc = dynamic_cast<CudaDevice *>(&src);
  auto *cudaDst = dynamic_cast<CudaDevice *>(&dst);
  if (!cudaSrc || !cudaDst)
    return false;
  // GPU to GPU where the driver allows it (cuda/CudaDevice.h).
  StatusOr<CudaCopyPath> path = copyBetweenCudaDevices(
      *cudaSrc, srcBuffer, srcOffset, *cudaDst, dstBuffer, dstOffset, bytes);
  if (!path)
    return path.status();
  return true;
}

} // namespace fuel::rt
