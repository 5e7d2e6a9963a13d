//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The few CUDA driver API types, constants and entry points the CUDA device
// uses, declared here (their values are part of cuda.h's ABI) so that the
// runtime builds where no CUDA toolkit exists, and the table of entry points
// taken with dlsym from dlopen("libcuda.so.1"). The runtime never links
// -lcuda and never opens the unversioned "libcuda.so", which in a toolkit's
// stubs directory is a link stub whose cuInit fails with
// CUDA_ERROR_STUB_LIBRARY (34). docs/RUNTIME.md, "CUDA device".
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_CUDADRIVER_H
#define FUEL_RUNTIME_DEVICE_CUDADRIVER_H

#include "fuel/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fuel::rt::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

inline constexpr CUresult kSuccess = 0;
inline constexpr CUresult kErrorOutOfMemory = 2;
inline constexpr CUresult kErrorStubLibrary = 34;
inline constexpr CUresult kErrorNoDevice = 100;
inline constexpr CUresult kErrorInvalidPtx = 218;
inline constexpr CUresult kErrorNotReady = 600;
inline constexpr CUresult kErrorPeerAccessAlreadyEnabled = 704;

inline constexpr int kAttrMaxThreadsPerBlock = 1;
inline constexpr int kAttrMaxBlockDimX = 2;
inline constexpr int kAttrMaxGridDimX = 5;
inline constexpr int kAttrClockRateKHz = 13;
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;

inline constexpr int kJitInfoLogBuffer = 3;
inline constexpr int kJitInfoLogBufferSizeBytes = 4;
inline constexpr int kJitErrorLogBuffer = 5;
inline constexpr int kJitErrorLogBufferSizeBytes = 6;
inline constexpr int kJitLogVerbose = 12;

inline constexpr unsigned kStreamNonBlocking = 1;
inline constexpr unsigned kEventDefault = 0;
inline constexpr unsigned kEventDisableTiming = 2;
inline constexpr unsigned kMemHostAllocPortable = 1;

/// The driver's entry points. Every member is set once load() succeeds.
struct Driver {
  void *handle = nullptr;
  std::string library;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
  CUresult (*cuMemFreeHost)(void *);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventQuery)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  // Peer copies; null where the driver lacks them (copies are then staged).
  CUresult (*cuDeviceCanAccessPeer)(int *, CUdevice, CUdevice) = nullptr;
  CUresult (*cuCtxEnablePeerAccess)(CUcontext, unsigned) = nullptr;
  CUresult (*cuMemcpyPeerAsync)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext,
                                size_t, CUstream) = nullptr;
};

/// "34 (CUDA_ERROR_STUB_LIBRARY: the toolkit's link stub, not a driver)".
/// The codes the device meets before a driver can name them (a stub names
/// nothing) are known here; others are named by cuGetErrorName when
/// `driver` has it.
std::string errorText(const Driver *driver, CUresult code);

/// The StatusCode of a driver error: out of memory is ResourceExhausted, a
/// missing or unusable driver (stub, insufficient driver, no device)
/// Unavailable, invalid PTX InvalidArgument, anything else Internal.
StatusCode statusCodeOf(CUresult code);

/// Ok for kSuccess, else "`call` failed with <errorText>".
Status check(const Driver &driver, CUresult code, const char *call);

/// Opens `library` (dlopen RTLD_NOW | RTLD_LOCAL, once per name per
/// process, never closed: the driver starts threads in cuInit), takes every
/// entry point and calls cuInit(0). Unavailable with the reason otherwise:
/// "no driver (<dlerror>)", "<library> is not a CUDA driver (cuX missing)",
/// "cuInit(0) failed with 34 (CUDA_ERROR_STUB_LIBRARY ...)".
StatusOr<const Driver *> loadDriver(const std::string &library);

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

#endif // FUEL_RUNTIME_DEVICE_CUDADRIVER_H
