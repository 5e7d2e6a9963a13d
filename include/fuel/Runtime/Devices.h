//===- Devices.h - Opening the runtime's devices ----------------*- C++ -*-===//
//
// How a session, a tool or an embedder opens libfuelrt's devices: one
// options struct and one opener per backend (the CPU, Vulkan and CUDA
// devices of runtime/device/{cpu,vulkan,cuda}), and the few things a
// session does with a device beyond the Device interface: loading library
// kernels and copying between two devices whose drivers can do it without
// the host. The backends' own headers stay private to the runtime and its
// tests. LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICES_H
#define FUEL_RUNTIME_DEVICES_H

#include "fuel/Runtime/Device.h"
#include "fuel/Runtime/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fuel::rt {

/// How to create the CPU device.
struct CpuDeviceOptions {
  /// Threads that run a dispatch, the queue's own thread included; 0 means
  /// one per online core.
  unsigned threads = 0;
  /// The most bytes of buffers at once; 0 means the physical memory.
  uint64_t memoryLimit = 0;
  /// The initial per-worker workspace (see Device::reserveWorkspace).
  uint64_t workspaceBytes = 0;
};

/// How to open a Vulkan device.
struct VulkanDeviceOptions {
  /// Persist a VkPipelineCache per module on disk.
  bool pipelineCache = true;
  /// Where the pipeline caches live. Empty: $FUEL_CACHE_DIR, else
  /// $XDG_CACHE_HOME/fuel, else $HOME/.cache/fuel.
  std::string cacheDir;
  /// The most bytes of buffers at once; 0 means the device-local heaps.
  uint64_t memoryLimit = 0;
  /// Stage write() and read() through a host-visible buffer even where the
  /// device memory is host-visible (for tests of the staging path).
  bool forceStaging = false;
};

/// How to open a CUDA device.
struct CudaDeviceOptions {
  /// The driver library's file name (or path), opened with dlopen.
  std::string driverLibrary = "libcuda.so.1";
  /// Directories (':' separated) searched for libcublas before the dynamic
  /// loader's default; empty: the toolkit's lib64 found when the runtime
  /// was configured.
  std::string cublasSearchPath;
  /// The most bytes of buffers at once; 0 means the device's memory.
  uint64_t memoryLimit = 0;
  /// The pinned host buffer write() and read() are staged through.
  uint64_t stagingBytes = 8ull << 20;
};

/// Opens the host CPU as a device (cpu).
StatusOr<std::unique_ptr<Device>>
openCpuDevice(const CpuDeviceOptions &options = {});

/// Opens physical device `ordinal` in vkEnumeratePhysicalDevices order (the
/// probe's vulkan:N). Unavailable, with the reason, when there is no loader,
/// no device or no such ordinal.
StatusOr<std::unique_ptr<Device>>
openVulkanDevice(uint32_t ordinal, const VulkanDeviceOptions &options = {});

/// Opens CUDA device `ordinal` in driver order (the probe's cuda:N).
/// Unavailable, with the reason, when the driver library cannot be opened,
/// is the toolkit's stub ("stub library, no driver"), has no device or no
/// such ordinal.
StatusOr<std::unique_ptr<Device>>
openCudaDevice(uint32_t ordinal, const CudaDeviceOptions &options = {});

/// The directory shims are installed in: the directory of the file that
/// holds libfuelrt's code (libfuelrt.so, or the executable it is linked
/// into), found with dladdr. Empty when it cannot be determined.
std::string runtimeDirectory();

/// The path of shim `name`: runtimeDirectory() + "/libfuel-shim-" + name +
/// ".so".
std::string shimPath(const std::string &name);

/// Threads that run one dispatch of `device`: the CPU device's workers
/// and its queue thread; 1 for any other device.
unsigned dispatchThreads(const Device &device);

/// Loads library kernels on `device` and resolves `entries` in them: on the
/// CPU device the shim file `shim` of `shimDirectory` (a file name, not a
/// path; include/fuel-c/ShimABI.h), on a CUDA device the vendor library the
/// shim name stands for ("cublas", or "libfuel-shim-cublas.so"). The
/// device's kernels then run them like a module's. InvalidArgument on any
/// other device.
StatusOr<ModuleHandle>
loadLibraryKernels(Device &device, const std::string &shimDirectory,
                   const std::string &shim,
                   const std::vector<std::string> &entries);

/// Copies `bytes` from `srcBuffer` at `srcOffset` on `src` to `dstBuffer`
/// at `dstOffset` on `dst` without the caller's host staging, where both
/// devices' drivers can (two CUDA devices: a peer copy, or staged through
/// the driver's pinned memory), synchronously. False, having copied
/// nothing, where they cannot: the caller copies through the host.
StatusOr<bool> copyBetweenDevices(Device &src, Buffer srcBuffer,
                                  uint64_t srcOffset, Device &dst,
                                  Buffer dstBuffer, uint64_t dstOffset,
                                  uint64_t bytes);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICES_H
