//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// Loads libcuda.so.1 with dlopen, takes the entry points of CudaSymbols.h
// and names the driver's errors (CudaDriver.h).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDriver.h"

#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

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

/// The first of `symbols` that `handle` exports, as `fn`.
template <typename Fn, size_t N>
bool take(void *handle, Fn &fn, const char *const (&symbols)[N]) {
  for (const char *symbol : symbols)
    if ((fn = reinterpret_cast<Fn>(dlsym(handle, symbol))))
      return true;
  return false;
}

/// Opens one library and takes its entry points; Unavailable with the
/// reason.
StatusOr<std::unique_ptr<Driver>> openOnce(const std::string &library) {
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
#define FUEL_CUDA_REQUIRED(member, params, ...)                                \
  {                                                                            \
    static const char *const symbols[] = {__VA_ARGS__};                        \
    if (!take(handle, d->member, symbols) && !missing)                         \
      missing = symbols[0];                                                    \
  }
#define FUEL_CUDA_OPTIONAL(member, params, ...)                                \
  {                                                                            \
    static const char *const symbols[] = {__VA_ARGS__};                        \
    take(handle, d->member, symbols);                                          \
  }
  FUEL_CUDA_DRIVER_SYMBOLS(FUEL_CUDA_REQUIRED, FUEL_CUDA_OPTIONAL)
#undef FUEL_CUDA_REQUIRED
#undef FUEL_CUDA_OPTIONAL
  // Peer copies need all three.
  if (!d->cuDeviceCanAccessPeer || !d->cuCtxEnablePeerAccess ||
      !d->cuMemcpyPeerAsync) {
    d->cuDeviceCanAccessPeer = nullptr;
    d->cuCtxEnablePeerAccess = nullptr;
    d->cuMemcpyPeerAsync = nullptr;
  }
  if (missing)
    return Status::error(StatusCode::Unavailable,
                         library + " is not a CUDA driver (" + missing +
                             " missing)");
  return d;
}

/// What happened to one library name, once per process: a driver is never
/// unloaded, and a failed load is remembered with its reason.
struct Loaded {
  StatusOr<std::unique_ptr<Driver>> driver;
  /// cuInit(0)'s status, once it was called.
  std::optional<Status> init;
};

Loaded &loadedFor(const std::string &library) {
  static auto *loaded = new std::map<std::string, Loaded>();
  auto it = loaded->find(library);
  if (it == loaded->end())
    it =
        loaded->emplace(library, Loaded{openOnce(library), std::nullopt}).first;
  return it->second;
}

std::mutex &loaderMutex() {
  static std::mutex mu;
  return mu;
}

} // namespace

StatusOr<const Driver *> openDriver(const std::string &library) {
  std::lock_guard<std::mutex> lock(loaderMutex());
  Loaded &l = loadedFor(library);
  if (!l.driver)
    return l.driver.status();
  return static_cast<const Driver *>(l.driver->get());
}

StatusOr<const Driver *> loadDriver(const std::string &library) {
  std::lock_guard<std::mutex> lock(loaderMutex());
  Loaded &l = loadedFor(library);
  if (!l.driver)
    return l.driver.status();
  const Driver *d = l.driver->get();
  if (!l.init) {
    CUresult r = d->cuInit(0);
    l.init = r == kSuccess
                 ? Status::ok()
                 : Status::error(StatusCode::Unavailable,
                                 "cuInit(0) failed with " + errorText(d, r));
  }
  if (!l.init->isOk())
    return *l.init;
  return d;
}

} // namespace fuel::rt::cuda
