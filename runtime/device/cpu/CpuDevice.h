//===- CpuDevice.h - The host CPU as a device -------------------*- C++ -*-===//
//
// The CPU device: buffers are host memory, modules are ELF shared objects
// loaded from bytes in memory (memfd_create + dlopen of /proc/self/fd/N,
// RTLD_NOW | RTLD_LOCAL, no temporary file), kernels are fuel_kernel_fn
// symbols, and dispatches run on the runtime's ThreadPool. Shims (library
// kernels, include/fuel-c/ShimABI.h) load as modules too.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_CPU_CPUDEVICE_H
#define FUEL_RUNTIME_DEVICE_CPU_CPUDEVICE_H

#include "fuel/Runtime/Device.h"
#include "fuel/Runtime/Devices.h"

#include <memory>
#include <string>
#include <vector>

namespace fuel::rt {

class ThreadPool;

class CpuDevice final : public Device {
public:
  static StatusOr<std::unique_ptr<CpuDevice>>
  create(const CpuDeviceOptions &options = {});
  ~CpuDevice() override;

  const DeviceInfo &info() const override;
  StatusOr<Buffer> allocate(uint64_t size, uint64_t alignment) override;
  StatusOr<Buffer> importHost(void *data, uint64_t size) override;
  Status free(Buffer buffer) override;
  StatusOr<uint64_t> bufferSize(Buffer buffer) const override;
  StatusOr<void *> hostPointer(Buffer buffer) const override;
  uint64_t bytesAllocated() const override;
  Status write(Buffer dst, uint64_t dstOffset, const void *src,
               uint64_t bytes) override;
  Status read(Buffer src, uint64_t srcOffset, void *dst,
              uint64_t bytes) override;
  Status copy(Buffer src, uint64_t srcOffset, Buffer dst, uint64_t dstOffset,
              uint64_t bytes) override;
  StatusOr<ModuleHandle> loadModule(const ModuleImage &image) override;
  Status unloadModule(const ModuleHandle &module) override;
  Status reserveWorkspace(uint64_t bytes) override;
  StatusOr<std::unique_ptr<Queue>> createQueue() override;
  /// Commands run by the thread that waits for them (Device.h); the
  /// caller joins the pool's workers for a dispatch as a queue thread does.
  StatusOr<std::unique_ptr<Queue>> createCallerQueue() override;

  /// Loads the shim at `path` (dlopen RTLD_NOW | RTLD_LOCAL), checks its
  /// fuel_shim_info, runs its init and resolves `entries` as kernels.
  StatusOr<ModuleHandle> loadShim(const std::string &path,
                                  const std::vector<std::string> &entries);

  /// Threads that run one dispatch (workers plus the queue thread).
  unsigned threadCount() const;

  /// The pool's worker stack size.
  size_t workerStackBytes() const;

  class Impl;

private:
  explicit CpuDevice(std::shared_ptr<Impl> impl);
  // Shared with the device's queues: buffers, modules and the pool live
  // until the device and every queue of it are gone.
  std::shared_ptr<Impl> impl_;
};

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICE_CPU_CPUDEVICE_H
