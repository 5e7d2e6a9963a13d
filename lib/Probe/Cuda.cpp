//===- Cuda.cpp - Enumerate CUDA devices through the driver API -----------===//
//
// Loads the CUDA driver at run time through the runtime's loader
// (runtime/device/cuda/CudaDriver.h, the entry points of CudaSymbols.h) and
// asks it for each device's name, memory, SM count, clocks and compute
// capability. Nothing links -lcuda or opens the unversioned "libcuda.so":
// in a toolkit's stubs directory that name is a stub whose cuInit returns
// CUDA_ERROR_STUB_LIBRARY (34). See docs/PROBE.md.
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include "Support.h"
#include "cuda/CudaDriver.h"

#include <cctype>
#include <cstddef>

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

using namespace rt::cuda;

constexpr uint32_t kNvidiaPciVendor = 0x10de;

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
  if (!library || !*library) {
    result.notes.push_back("cuda: no driver library name given");
    return result;
  }
  // The runtime's loader (runtime/device/cuda/CudaDriver.h): one table of
  // entry points, one dlopen per library name, never closed.
  rt::StatusOr<const Driver *> opened = openDriver(library);
  if (!opened) {
    result.notes.push_back("cuda: " + opened.status().message());
    return result;
  }
  const Driver &d = **opened;

  // cuInit(0) once more is harmless; the probe names "no device" itself.
  CUresult status = d.cuInit(0);
  if (status != kSuccess) {
    if (status == kErrorNoDevice)
      result.notes.push_back("cuda: driver loaded, no CUDA device");
    else
      result.notes.push_back(format("cuda: cuInit(0) failed with %s",
                                    errorText(&d, status).c_str()));
    return result;
  }
  int count = 0;
  status = d.cuDeviceGetCount(&count);
  if (status != kSuccess || count <= 0) {
    if (status != kSuccess)
      result.notes.push_back(format("cuda: cuDeviceGetCount failed with %s",
                                    errorText(&d, status).c_str()));
    else
      result.notes.push_back("cuda: driver loaded, no CUDA device");
    return result;
  }

  int driverVersion = 0;
  if (d.cuDriverGetVersion &&
      (d.cuDriverGetVersion(&driverVersion) != kSuccess || driverVersion < 0))
    driverVersion = 0;

  uint32_t ordinal = 0;
  for (int index = 0; index < count; ++index) {
    CUdevice device;
    status = d.cuDeviceGet(&device, index);
    if (status != kSuccess) {
      result.notes.push_back(format("cuda: cuDeviceGet(%d) failed with %s",
                                    index, errorText(&d, status).c_str()));
      continue;
    }
    auto attribute = [&](int attr) -> int {
      int value = 0;
      if (d.cuDeviceGetAttribute(&value, attr, device) != kSuccess)
        return 0;
      return value;
    };

    ProbedDevice dev;
    dev.kind = Kind::Cuda;
    // Ordinals stay dense even if a device above could not be opened.
    dev.ordinal = ordinal;
    char name[256] = {};
    if (d.cuDeviceGetName(name, sizeof(name) - 1, device) == kSuccess)
      dev.name = name;
    if (dev.name.empty())
      dev.name = "unknown CUDA device";
    size_t bytes = 0;
    if (d.cuDeviceTotalMem(&bytes, device) == kSuccess)
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
    if (d.cuDeviceGetPCIBusId &&
        d.cuDeviceGetPCIBusId(busId, sizeof(busId) - 1, device) == kSuccess)
      dev.deviceId = pciDeviceId(busId);

    result.devices.push_back(std::move(dev));
    ++ordinal;
  }
  return result;
}

} // namespace fuel::probe
