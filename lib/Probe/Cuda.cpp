//===- Cuda.cpp - Enumerate CUDA devices through the driver API -----------===//
//
// Loads the CUDA driver at run time with dlopen("libcuda.so.1") and asks it
// for each device's name, memory, SM count, clocks and compute capability.
// The library never links -lcuda and never opens the unversioned
// "libcuda.so": in a toolkit's stubs directory that name is a stub whose
// cuInit returns CUDA_ERROR_STUB_LIBRARY (34). See docs/PROBE.md.
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include "Support.h"

#include <cctype>
#include <cstddef>
#include <dlfcn.h>

namespace fuel::probe {

using detail::format;

uint32_t cudaF32LanesPerSM(int major, int minor) {
  // FP32 cores per SM from the CUDA programming guide's throughput table.
  switch (major) {
  case 3:
    return 192;
  case 5:
    return 128;
  case 6:
    return minor == 0 ? 64 : 128;
  case 7:
    return 64;
  case 8:
    return minor == 0 ? 64 : 128;
  case 9:
  case 10:
  case 11:
  case 12:
    return 128;
  default:
    return 0;
  }
}

namespace {

// The few driver API declarations needed, written here so that the build
// needs no CUDA header. Values are from cuda.h and are part of its ABI.
using CUresult = int;
using CUdevice = int;
constexpr CUresult kCudaSuccess = 0;
constexpr CUresult kCudaErrorNoDevice = 100;
constexpr int kAttrClockRateKHz = 13;
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrMemoryClockRateKHz = 36;
constexpr int kAttrGlobalMemoryBusWidth = 37;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr uint32_t kNvidiaPciVendor = 0x10de;

using CuInitFn = CUresult (*)(unsigned);
using CuDeviceGetCountFn = CUresult (*)(int *);
using CuDeviceGetFn = CUresult (*)(CUdevice *, int);
using CuDeviceGetNameFn = CUresult (*)(char *, int, CUdevice);
using CuDriverGetVersionFn = CUresult (*)(int *);
using CuDeviceTotalMemFn = CUresult (*)(size_t *, CUdevice);
using CuDeviceGetAttributeFn = CUresult (*)(int *, int, CUdevice);
using CuDeviceGetPCIBusIdFn = CUresult (*)(char *, int, CUdevice);
using CuGetErrorNameFn = CUresult (*)(CUresult, const char **);

template <typename Fn> Fn lookup(void *handle, const char *symbol) {
  return reinterpret_cast<Fn>(dlsym(handle, symbol));
}

/// Returns e.g. "34 (CUDA_ERROR_STUB_LIBRARY)". The names of the codes met
/// while probing are known here, because a stub cannot name its own errors.
std::string errorText(CuGetErrorNameFn getErrorName, CUresult code) {
  const char *name = nullptr;
  switch (code) {
  case 3:
    name = "CUDA_ERROR_NOT_INITIALIZED";
    break;
  case 34:
    name = "CUDA_ERROR_STUB_LIBRARY, the toolkit's link stub, not a driver";
    break;
  case 35:
    name = "CUDA_ERROR_INSUFFICIENT_DRIVER";
    break;
  case 100:
    name = "CUDA_ERROR_NO_DEVICE";
    break;
  case 999:
    name = "CUDA_ERROR_UNKNOWN";
    break;
  default:
    if (!getErrorName || getErrorName(code, &name) != kCudaSuccess)
      name = nullptr;
    break;
  }
  if (name)
    return format("%d (%s)", code, name);
  return format("%d", code);
}

/// Reads the PCI device id of the GPU at `busId` ("0000:3b:00.0") from sysfs;
/// the driver API has the bus address but not the id. 0 when unknown.
uint32_t pciDeviceId(const char *busId) {
  std::string id(busId);
  for (char &c : id)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string path = "/sys/bus/pci/devices/" + id + "/device";
  std::optional<std::string> text = detail::readFile(path.c_str());
  if (!text)
    return 0;
  return static_cast<uint32_t>(
      detail::parseUnsigned(detail::trim(*text)).value_or(0));
}

} // namespace

ProbeResult probeCuda(const char *library) {
  ProbeResult result;
  void *handle = detail::openLibrary(library, "cuda", "driver", result.notes);
  if (!handle)
    return result;

  auto cuInit = lookup<CuInitFn>(handle, "cuInit");
  auto cuDeviceGetCount =
      lookup<CuDeviceGetCountFn>(handle, "cuDeviceGetCount");
  auto cuDeviceGet = lookup<CuDeviceGetFn>(handle, "cuDeviceGet");
  auto cuDeviceGetName = lookup<CuDeviceGetNameFn>(handle, "cuDeviceGetName");
  auto cuDeviceTotalMem =
      lookup<CuDeviceTotalMemFn>(handle, "cuDeviceTotalMem_v2");
  auto cuDeviceGetAttribute =
      lookup<CuDeviceGetAttributeFn>(handle, "cuDeviceGetAttribute");
  auto cuDeviceGetPCIBusId =
      lookup<CuDeviceGetPCIBusIdFn>(handle, "cuDeviceGetPCIBusId");
  auto cuGetErrorName = lookup<CuGetErrorNameFn>(handle, "cuGetErrorName");
  // Optional: the driver's version is part of a device's identity in the
  // profile database; without it the identity is the name alone.
  auto cuDriverGetVersion =
      lookup<CuDriverGetVersionFn>(handle, "cuDriverGetVersion");
  if (!cuInit || !cuDeviceGetCount || !cuDeviceGet || !cuDeviceGetName ||
      !cuDeviceGetAttribute) {
    result.notes.push_back(format(
        "cuda: %s is not a CUDA driver (driver API symbols missing)", library));
    dlclose(handle);
    return result;
  }

  // From here on the library stays loaded: the driver starts threads in
  // cuInit and is not safe to unload.
  CUresult status = cuInit(0);
  if (status != kCudaSuccess) {
    if (status == kCudaErrorNoDevice)
      result.notes.push_back("cuda: driver loaded, no CUDA device");
    else
      result.notes.push_back(format("cuda: cuInit(0) failed with %s",
                                    errorText(cuGetErrorName, status).c_str()));
    return result;
  }
  int count = 0;
  status = cuDeviceGetCount(&count);
  if (status != kCudaSuccess || count <= 0) {
    if (status != kCudaSuccess)
      result.notes.push_back(format("cuda: cuDeviceGetCount failed with %s",
                                    errorText(cuGetErrorName, status).c_str()));
    else
      result.notes.push_back("cuda: driver loaded, no CUDA device");
    return result;
  }

  int driverVersion = 0;
  if (cuDriverGetVersion &&
      (cuDriverGetVersion(&driverVersion) != kCudaSuccess || driverVersion < 0))
    driverVersion = 0;

  uint32_t ordinal = 0;
  for (int index = 0; index < count; ++index) {
    CUdevice device;
    status = cuDeviceGet(&device, index);
    if (status != kCudaSuccess) {
      result.notes.push_back(format("cuda: cuDeviceGet(%d) failed with %s",
                                    index,
                                    errorText(cuGetErrorName, status).c_str()));
      continue;
    }
    auto attribute = [&](int attr) -> int {
      int value = 0;
      if (cuDeviceGetAttribute(&value, attr, device) != kCudaSuccess)
        return 0;
      return value;
    };

    ProbedDevice dev;
    dev.kind = Kind::Cuda;
    // Ordinals stay dense even if a device above could not be opened.
    dev.ordinal = ordinal;
    char name[256] = {};
    if (cuDeviceGetName(name, sizeof(name) - 1, device) == kCudaSuccess)
      dev.name = name;
    if (dev.name.empty())
      dev.name = "unknown CUDA device";
    size_t bytes = 0;
    if (cuDeviceTotalMem && cuDeviceTotalMem(&bytes, device) == kCudaSuccess)
      dev.memoryBytes = bytes;
    int sms = attribute(kAttrMultiprocessorCount);
    dev.cores = sms > 0 ? static_cast<uint32_t>(sms) : 0;
    int clockKHz = attribute(kAttrClockRateKHz);
    dev.clockGHz = clockKHz > 0 ? clockKHz / 1e6 : 0;
    dev.computeMajor = attribute(kAttrComputeCapabilityMajor);
    dev.computeMinor = attribute(kAttrComputeCapabilityMinor);
    dev.cudaDriverVersion = driverVersion;

    // Peak: every FP32 lane retires one FMA (two flops) per cycle.
    uint32_t lanes = cudaF32LanesPerSM(dev.computeMajor, dev.computeMinor);
    dev.peakF32FlopsPerNs = dev.cores * dev.clockGHz * lanes * 2.0;
    if (!lanes)
      result.notes.push_back(
          format("cuda: %s: FP32 lanes per SM unknown for sm_%d%d",
                 dev.label().c_str(), dev.computeMajor, dev.computeMinor));

    // Bandwidth: double data rate times the bus width in bytes.
    int memKHz = attribute(kAttrMemoryClockRateKHz);
    int busBits = attribute(kAttrGlobalMemoryBusWidth);
    if (memKHz > 0 && busBits > 0)
      dev.bytesPerNs = 2.0 * memKHz * 1e3 * (busBits / 8.0) / 1e9;

    dev.vendorId = kNvidiaPciVendor;
    char busId[64] = {};
    if (cuDeviceGetPCIBusId &&
        cuDeviceGetPCIBusId(busId, sizeof(busId) - 1, device) == kCudaSuccess)
      dev.deviceId = pciDeviceId(busId);

    result.devices.push_back(std::move(dev));
    ++ordinal;
  }
  return result;
}

} // namespace fuel::probe
