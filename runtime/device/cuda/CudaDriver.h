//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The few CUDA driver API types and constants fuel uses, declared here
// (their values are part of cuda.h's ABI) so that the runtime builds where
// no CUDA toolkit exists, and the loader of the entry points of
// CudaSymbols.h, taken with dlsym from dlopen("libcuda.so.1"): the CUDA
// device and the probe (lib/Probe) load the driver through it. The runtime
// never links -lcuda and never opens the unversioned "libcuda.so", which in a
// toolkit's stubs directory is a link stub whose cuInit fails with
// CUDA_ERROR_STUB_LIBRARY (34). docs/RUNTIME.md, "CUDA device".
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_CUDA_CUDADRIVER_H
#define FUEL_RUNTIME_DEVICE_CUDA_CUDADRIVER_H

#include "cuda/CudaSymbols.h"
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
inline constexpr int kAttrMemoryClockRateKHz = 36;
inline constexpr int kAttrGlobalMemoryBusWidth = 37;
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

/// The driver's entry points, one member per row of CudaSymbols.h. Every
/// REQUIRED member is set once openDriver() succeeds; an OPTIONAL one is
/// null where the driver lacks it.
struct Driver {
  void *handle = nullptr;
  std::string library;
#define FUEL_CUDA_MEMBER(member, params, ...)                                  \
  CUresult(*member) params = nullptr;
  FUEL_CUDA_DRIVER_SYMBOLS(FUEL_CUDA_MEMBER, FUEL_CUDA_MEMBER)
#undef FUEL_CUDA_MEMBER
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
/// process, never closed: the driver starts threads in cuInit) and takes
/// every entry point of CudaSymbols.h; does not call cuInit. Unavailable
/// with the reason otherwise: "no CUDA driver (<dlerror>)", "<library> is
/// not a CUDA driver (cuX missing)". The probe enumerates through it.
StatusOr<const Driver *> openDriver(const std::string &library);

/// openDriver, then cuInit(0), once per name per process: Unavailable with
/// "cuInit(0) failed with 34 (CUDA_ERROR_STUB_LIBRARY ...)" and the like.
StatusOr<const Driver *> loadDriver(const std::string &library);

} // namespace fuel::rt::cuda

#endif // FUEL_RUNTIME_DEVICE_CUDA_CUDADRIVER_H
