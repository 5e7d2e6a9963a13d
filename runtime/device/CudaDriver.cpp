//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// Loads libcuda.so.1 with dlopen, names its errors, packs kernel
// parameters and checks PTX images (CudaDriver.h).
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include "fuel/Runtime/Ptx.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>

namespace fuel::rt::cuda {

std::string errorText(const Driver *driver, CUresult code) {
  const char *name = nullptr;
  switch (code) {
  case 1:
    name = "CUDA_ERROR_INVALID_VALUE";
    break;
  case 2:
    name = "CUDA_ERROR_OUT_OF_MEMORY";
    break;
  case 3:
    name = "CUDA_ERROR_NOT_INITIALIZED";
    break;
  case kErrorStubLibrary:
    name = "CUDA_ERROR_STUB_LIBRARY: stub library, no driver";
    break;
  case 35:
    name = "CUDA_ERROR_INSUFFICIENT_DRIVER";
    break;
  case kErrorNoDevice:
    name = "CUDA_ERROR_NO_DEVICE";
    break;
  case 101:
    name = "CUDA_ERROR_INVALID_DEVICE";
    break;
  case kErrorInvalidPtx:
    name = "CUDA_ERROR_INVALID_PTX";
    break;
  case 500:
    name = "CUDA_ERROR_NOT_FOUND";
    break;
  case kErrorNotReady:
    name = "CUDA_ERROR_NOT_READY";
    break;
  case 801:
    name = "CUDA_ERROR_NOT_SUPPORTED";
    break;
  case 999:
    name = "CUDA_ERROR_UNKNOWN";
    break;
  default:
    if (!driver || !driver->cuGetErrorName ||
        driver->cuGetErrorName(code, &name) != kSuccess)
      name = nullptr;
    break;
  }
  std::string text = std::to_string(code);
  if (name)
    text += std::string(" (") + name + ")";
  return text;
}

StatusCode statusCodeOf(CUresult code) {
  switch (code) {
  case kSuccess:
    return StatusCode::Ok;
  case kErrorOutOfMemory:
    return StatusCode::ResourceExhausted;
  case 3:
  case kErrorStubLibrary:
  case 35:
  case kErrorNoDevice:
  case 101:
  case 4:   // CUDA_ERROR_DEINITIALIZED
  case 46:  // CUDA_ERROR_DEVICES_UNAVAILABLE
  case 999: // CUDA_ERROR_UNKNOWN: a lost device
    return StatusCode::Unavailable;
  case 1:
  case kErrorInvalidPtx:
  case 500:
    return StatusCode::InvalidArgument;
  case 801:
    return StatusCode::Unimplemented;
  default:
    return StatusCode::Internal;
  }
}

Status check(const Driver &driver, CUresult code, const char *call) {
  if (code == kSuccess)
    return Status::ok();
  return Status::error(statusCodeOf(code), std::string("cuda: ") + call +
                                               " failed with " +
                                               errorText(&driver, code));
}

namespace {

template <typename Fn> bool take(void *handle, Fn &fn, const char *symbol) {
  fn = reinterpret_cast<Fn>(dlsym(handle, symbol));
  return fn != nullptr;
}

/// Loads one library; Unavailable with the reason.
StatusOr<std::unique_ptr<Driver>> loadOnce(const std::string &library) {
  dlerror();
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Status::error(StatusCode::Unavailable,
                         std::string("no CUDA driver (") +
                             (why ? why : library.c_str()) + ")");
  }
  auto d = std::make_unique<Driver>();
  d->handle = handle;
  d->library = library;
  const char *missing = nullptr;
  auto need = [&](auto &fn, const char *symbol) {
    if (!take(handle, fn, symbol) && !missing)
      missing = symbol;
  };
  need(d->cuInit, "cuInit");
  take(handle, d->cuGetErrorName, "cuGetErrorName");
  take(handle, d->cuGetErrorString, "cuGetErrorString");
  need(d->cuDeviceGetCount, "cuDeviceGetCount");
  need(d->cuDeviceGet, "cuDeviceGet");
  need(d->cuDeviceGetName, "cuDeviceGetName");
  need(d->cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  need(d->cuDeviceGetAttribute, "cuDeviceGetAttribute");
  need(d->cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  need(d->cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  need(d->cuCtxSetCurrent, "cuCtxSetCurrent");
  need(d->cuMemAlloc, "cuMemAlloc_v2");
  need(d->cuMemFree, "cuMemFree_v2");
  need(d->cuMemHostAlloc, "cuMemHostAlloc");
  need(d->cuMemFreeHost, "cuMemFreeHost");
  need(d->cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  need(d->cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  need(d->cuMemcpyDtoD, "cuMemcpyDtoD_v2");
  need(d->cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
  need(d->cuStreamCreate, "cuStreamCreate");
  need(d->cuStreamDestroy, "cuStreamDestroy_v2");
  need(d->cuStreamSynchronize, "cuStreamSynchronize");
  need(d->cuStreamWaitEvent, "cuStreamWaitEvent");
  need(d->cuEventCreate, "cuEventCreate");
  need(d->cuEventDestroy, "cuEventDestroy_v2");
  need(d->cuEventRecord, "cuEventRecord");
  need(d->cuEventQuery, "cuEventQuery");
  need(d->cuEventSynchronize, "cuEventSynchronize");
  // CUDA 12.8 added a _v2 with the same signature; older drivers have only
  // the first.
  if (!take(handle, d->cuEventElapsedTime, "cuEventElapsedTime_v2"))
    need(d->cuEventElapsedTime, "cuEventElapsedTime");
  need(d->cuModuleLoadDataEx, "cuModuleLoadDataEx");
  need(d->cuModuleUnload, "cuModuleUnload");
  need(d->cuModuleGetFunction, "cuModuleGetFunction");
  need(d->cuLaunchKernel, "cuLaunchKernel");
  // Optional: without them copies between devices are staged.
  if (!take(handle, d->cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer") ||
      !take(handle, d->cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess") ||
      !take(handle, d->cuMemcpyPeerAsync, "cuMemcpyPeerAsync"))
    d->cuDeviceCanAccessPeer = nullptr;
  if (missing)
    return Status::error(StatusCode::Unavailable,
                         library + " is not a CUDA driver (" + missing +
                             " missing)");
  CUresult r = d->cuInit(0);
  if (r != kSuccess)
    return Status::error(StatusCode::Unavailable,
                         "cuInit(0) failed with " + errorText(d.get(), r));
  return d;
}

} // namespace

StatusOr<const Driver *> loadDriver(const std::string &library) {
  // Loaded once per name: a driver is never unloaded, and a failed load is
  // remembered with its reason.
  static std::mutex mu;
  static std::map<std::string, StatusOr<std::unique_ptr<Driver>>> *loaded =
      new std::map<std::string, StatusOr<std::unique_ptr<Driver>>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = loaded->find(library);
  if (it == loaded->end())
    it = loaded->emplace(library, loadOnce(library)).first;
  if (!it->second)
    return it->second.status();
  return static_cast<const Driver *>(it->second->get());
}

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
