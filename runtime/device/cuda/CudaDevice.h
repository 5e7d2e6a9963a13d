//===- CudaDevice.h - A CUDA device through the driver API ------*- C++ -*-===//
//
// The CUDA device: the driver API through dlopen("libcuda.so.1") (the
// runtime never links libcuda), the device's primary context, buffers from
// cuMemAlloc, write and read staged through pinned host memory, modules from
// PTX with cuModuleLoadDataEx (the JIT's error and info logs in the error
// message), one stream per queue with an event per command for its fence and
// timestamps, and library kernels as cuBLAS calls (Cublas.h).
// docs/RUNTIME.md, "CUDA device".
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_CUDA_CUDADEVICE_H
#define FUEL_RUNTIME_DEVICE_CUDA_CUDADEVICE_H

#include "fuel/Runtime/Device.h"
#include "fuel/Runtime/Devices.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fuel::rt {

/// Counters of what the device did, for tests and benchmarks.
struct CudaDeviceCounters {
  /// Kernel launches (cuLaunchKernel) and cuBLAS calls of the queues.
  uint64_t launches = 0;
  uint64_t libraryCalls = 0;
  /// Asynchronous copies (pieces) of the queues.
  uint64_t copies = 0;
  /// Bytes write() and read() staged through pinned memory.
  uint64_t stagedBytes = 0;
  /// Bytes copyBetweenCudaDevices copied into this device from another by
  /// peer copies, and staged through the host.
  uint64_t peerCopyBytes = 0;
  uint64_t stagedCopyBytes = 0;
};

/// The way copyBetweenCudaDevices took.
enum class CudaCopyPath {
  /// cuMemcpyPeerAsync, GPU to GPU.
  Peer,
  /// Through the source's pinned host buffer, in pieces.
  Staged,
  /// Both buffers are on one device: copy().
  SameDevice,
};

class CudaDevice;

/// Copies `bytes` from `srcBuffer` at `srcOffset` on `src` to `dstBuffer` at
/// `dstOffset` on `dst`, synchronously (the bytes are in place when it
/// returns; the session's copies between devices). A peer copy
/// (cuMemcpyPeerAsync on a stream of `dst`, after cuCtxEnablePeerAccess from
/// dst's context to src's, once per pair) where `allowPeer`, both devices
/// are on one driver and the driver reports that dst can access src's
/// memory (cuDeviceCanAccessPeer, what a `peer` link of the topology
/// stands for); else staged through src's pinned host buffer. Both buffers
/// and ranges are checked first; every error names both devices
/// ("copy cuda:0 -> cuda:1: ...").
StatusOr<CudaCopyPath>
copyBetweenCudaDevices(CudaDevice &src, Buffer srcBuffer, uint64_t srcOffset,
                       CudaDevice &dst, Buffer dstBuffer, uint64_t dstOffset,
                       uint64_t bytes, bool allowPeer = true);

class CudaDevice final : public Device {
public:
  ~CudaDevice() override;

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

  /// Library kernels: `library` must be "cublas"; each entry (Cublas.h's
  /// kCublasSgemmEntry, kCublasSgemmBatchedEntry) becomes a kernel whose
  /// push constants are the entry's params and whose bindings are A, B, C.
  /// Loads libcublas (from the options' search path) on first use.
  StatusOr<ModuleHandle> loadLibrary(const std::string &library,
                                     const std::vector<std::string> &entries);

  /// The compute capability, e.g. {9, 0}.
  std::pair<int, int> computeCapability() const;

  CudaDeviceCounters counters() const;

  /// The largest number of commands a queue keeps before it enqueues them.
  static constexpr size_t kMaxBatch = 256;

  class Impl;

private:
  friend StatusOr<std::unique_ptr<Device>>
  openCudaDevice(uint32_t ordinal, const CudaDeviceOptions &options);
  friend StatusOr<CudaCopyPath>
  copyBetweenCudaDevices(CudaDevice &src, Buffer srcBuffer, uint64_t srcOffset,
                         CudaDevice &dst, Buffer dstBuffer, uint64_t dstOffset,
                         uint64_t bytes, bool allowPeer);
  explicit CudaDevice(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICE_CUDA_CUDADEVICE_H
