//===- CudaTestSupport.h - The CUDA device's test kernels -------*- C++ -*-===//
//
// Opens cuda:0 through the real driver (libcuda.so.1) or through the test
// double of the driver built here (cuda/FakeCudaDriver.c), and loads the
// conformance kernels of cuda/ConformanceKernels.ptx.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_UNITTESTS_RUNTIME_DEVICE_CUDATESTSUPPORT_H
#define FUEL_UNITTESTS_RUNTIME_DEVICE_CUDATESTSUPPORT_H

#include "DeviceConformance.h"
#include "TestSupport.h"

#include "cuda/CudaDevice.h"

#include <string>
#include <vector>

namespace fuel::rt::test {

/// Entry points of ConformanceKernels.ptx, in load order.
enum CudaTestKernel { kCuVadd, kCuWgid, kCuSleep };

/// The conformance kernels' text, with its kernel names and block sizes.
inline ModuleImage cudaKernelImage(const std::vector<uint8_t> &text) {
  ModuleImage image;
  image.data = text.data();
  image.size = text.size();
  image.kernelNames = {"vadd", "wgid", "sleep"};
  KernelLayout vadd, one;
  vadd.workgroupSize[0] = 64;
  image.layouts = {vadd, one, one};
  return image;
}

/// Why cuda:0 cannot be opened through the real driver, or "".
inline std::string cudaUnavailable() {
  static std::string why = [] {
    auto d = openCudaDevice(0);
    return d.isOk() ? std::string() : d.status().message();
  }();
  return why;
}

inline StatusOr<ConformanceKernels> loadCudaKernels(Device &device) {
  std::vector<uint8_t> text = readFileBytes(FUEL_CUDA_TEST_KERNELS_PATH);
  if (text.empty())
    return Status::error(StatusCode::Unavailable,
                         "cannot read " FUEL_CUDA_TEST_KERNELS_PATH);
  auto m = device.loadModule(cudaKernelImage(text));
  if (!m.isOk())
    return m.status();
  ConformanceKernels k;
  k.module = *m;
  k.vadd = m->kernels[kCuVadd];
  k.wgid = m->kernels[kCuWgid];
  k.sleep = m->kernels[kCuSleep];
  return k;
}

/// cuda:`ordinal` through the test double of the driver.
inline StatusOr<std::unique_ptr<Device>>
openFakeCudaDevice(uint64_t memoryLimit = 0, uint64_t stagingBytes = 0,
                   uint32_t ordinal = 0) {
  CudaDeviceOptions options;
  options.driverLibrary = FUEL_FAKE_CUDA_DRIVER_PATH;
  options.cublasSearchPath = FUEL_FAKE_CUBLAS_DIR;
  options.memoryLimit = memoryLimit;
  if (stagingBytes)
    options.stagingBytes = stagingBytes;
  return openCudaDevice(ordinal, options);
}

} // namespace fuel::rt::test

#endif // FUEL_UNITTESTS_RUNTIME_DEVICE_CUDATESTSUPPORT_H
