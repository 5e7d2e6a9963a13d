//===- CudaConformanceTest.cpp - The conformance suite on CUDA ------------===//
//
// Instantiates the device conformance suite for cuda:0 through the real
// driver, with its kernels from cuda/ConformanceKernels.ptx. Where no driver
// is present (any machine without an NVIDIA GPU, CI included) every test
// skips with the reason the device gives; scripts/gpu-check.sh runs them on
// a GPU.
//
//===----------------------------------------------------------------------===//

#include "CudaTestSupport.h"

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

ConformanceTarget cudaTarget() {
  ConformanceTarget t;
  t.name = "cuda0";
  t.create = [](uint64_t limit) {
    CudaDeviceOptions options;
    options.memoryLimit = limit;
    return openCudaDevice(0, options);
  };
  t.loadKernels = loadCudaKernels;
  t.unavailable = cudaUnavailable;
  t.requiredUnderCi = false;
  return t;
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Cuda, DeviceConformance,
                         ::testing::Values(cudaTarget()),
                         [](const auto &info) { return info.param.name; });
