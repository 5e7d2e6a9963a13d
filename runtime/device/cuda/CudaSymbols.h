//===- CudaSymbols.h - The CUDA driver entry points, one table --*- C++ -*-===//
//
// Every CUDA driver API entry point fuel calls, in one X-macro table: the
// CUDA device and the probe (lib/Probe) take them through one loader
// (CudaDriver.h), so an entry point is declared once, with the signature
// cuda.h gives it. Each row is
//
//   REQUIRED(member, (parameter types), "symbol", "older symbol"...)
//   OPTIONAL(member, (parameter types), "symbol", ...)
//
// with every entry point returning CUresult; the loader takes the first of
// the symbols the library exports (a newer ABI version first). A library
// missing a REQUIRED entry point is not a CUDA driver; an OPTIONAL one is
// null where the driver lacks it, and its users say what they do then.
// Include CudaDriver.h, which defines the types the rows name.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_CUDA_CUDASYMBOLS_H
#define FUEL_RUNTIME_DEVICE_CUDA_CUDASYMBOLS_H

#define FUEL_CUDA_DRIVER_SYMBOLS(REQUIRED, OPTIONAL)                           \
  REQUIRED(cuInit, (unsigned), "cuInit")                                       \
  OPTIONAL(cuGetErrorName, (CUresult, const char **), "cuGetErrorName")        \
  OPTIONAL(cuGetErrorString, (CUresult, const char **), "cuGetErrorString")    \
  /* The driver's version: part of a device's identity in the profile */       \
  /* database (without it the identity is the name alone). */                  \
  OPTIONAL(cuDriverGetVersion, (int *), "cuDriverGetVersion")                  \
  REQUIRED(cuDeviceGetCount, (int *), "cuDeviceGetCount")                      \
  REQUIRED(cuDeviceGet, (CUdevice *, int), "cuDeviceGet")                      \
  REQUIRED(cuDeviceGetName, (char *, int, CUdevice), "cuDeviceGetName")        \
  REQUIRED(cuDeviceTotalMem, (size_t *, CUdevice), "cuDeviceTotalMem_v2")      \
  REQUIRED(cuDeviceGetAttribute, (int *, int, CUdevice),                       \
           "cuDeviceGetAttribute")                                             \
  /* The PCI address, from which the probe reads the PCI device id. */         \
  OPTIONAL(cuDeviceGetPCIBusId, (char *, int, CUdevice),                       \
           "cuDeviceGetPCIBusId")                                              \
  REQUIRED(cuDevicePrimaryCtxRetain, (CUcontext *, CUdevice),                  \
           "cuDevicePrimaryCtxRetain")                                         \
  REQUIRED(cuDevicePrimaryCtxRelease, (CUdevice),                              \
           "cuDevicePrimaryCtxRelease_v2")                                     \
  REQUIRED(cuCtxSetCurrent, (CUcontext), "cuCtxSetCurrent")                    \
  REQUIRED(cuMemAlloc, (CUdeviceptr *, size_t), "cuMemAlloc_v2")               \
  REQUIRED(cuMemFree, (CUdeviceptr), "cuMemFree_v2")                           \
  REQUIRED(cuMemHostAlloc, (void **, size_t, unsigned), "cuMemHostAlloc")      \
  REQUIRED(cuMemFreeHost, (void *), "cuMemFreeHost")                           \
  REQUIRED(cuMemcpyHtoD, (CUdeviceptr, const void *, size_t),                  \
           "cuMemcpyHtoD_v2")                                                  \
  REQUIRED(cuMemcpyDtoH, (void *, CUdeviceptr, size_t), "cuMemcpyDtoH_v2")     \
  REQUIRED(cuMemcpyDtoD, (CUdeviceptr, CUdeviceptr, size_t),                   \
           "cuMemcpyDtoD_v2")                                                  \
  REQUIRED(cuMemcpyDtoDAsync, (CUdeviceptr, CUdeviceptr, size_t, CUstream),    \
           "cuMemcpyDtoDAsync_v2")                                             \
  REQUIRED(cuStreamCreate, (CUstream *, unsigned), "cuStreamCreate")           \
  REQUIRED(cuStreamDestroy, (CUstream), "cuStreamDestroy_v2")                  \
  REQUIRED(cuStreamSynchronize, (CUstream), "cuStreamSynchronize")             \
  REQUIRED(cuStreamWaitEvent, (CUstream, CUevent, unsigned),                   \
           "cuStreamWaitEvent")                                                \
  REQUIRED(cuEventCreate, (CUevent *, unsigned), "cuEventCreate")              \
  REQUIRED(cuEventDestroy, (CUevent), "cuEventDestroy_v2")                     \
  REQUIRED(cuEventRecord, (CUevent, CUstream), "cuEventRecord")                \
  REQUIRED(cuEventQuery, (CUevent), "cuEventQuery")                            \
  REQUIRED(cuEventSynchronize, (CUevent), "cuEventSynchronize")                \
  /* CUDA 12.8 added a _v2 with the same signature; older drivers have */      \
  /* only the first. */                                                        \
  REQUIRED(cuEventElapsedTime, (float *, CUevent, CUevent),                    \
           "cuEventElapsedTime_v2", "cuEventElapsedTime")                      \
  REQUIRED(cuModuleLoadDataEx,                                                 \
           (CUmodule *, const void *, unsigned, int *, void **),               \
           "cuModuleLoadDataEx")                                               \
  REQUIRED(cuModuleUnload, (CUmodule), "cuModuleUnload")                       \
  REQUIRED(cuModuleGetFunction, (CUfunction *, CUmodule, const char *),        \
           "cuModuleGetFunction")                                              \
  REQUIRED(cuLaunchKernel,                                                     \
           (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,      \
            unsigned, unsigned, CUstream, void **, void **),                   \
           "cuLaunchKernel")                                                   \
  /* Peer copies, all three or none (the loader clears the others when */      \
  /* one is missing); without them copies between devices are staged. */       \
  OPTIONAL(cuDeviceCanAccessPeer, (int *, CUdevice, CUdevice),                 \
           "cuDeviceCanAccessPeer")                                            \
  OPTIONAL(cuCtxEnablePeerAccess, (CUcontext, unsigned),                       \
           "cuCtxEnablePeerAccess")                                            \
  OPTIONAL(cuMemcpyPeerAsync,                                                  \
           (CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t, CUstream), \
           "cuMemcpyPeerAsync")

#endif // FUEL_RUNTIME_DEVICE_CUDA_CUDASYMBOLS_H
