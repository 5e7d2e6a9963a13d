//===- CudaConformanceTest.cpp - The conformance suite on CUDA ------------===//
//
// Instantiates the device conformance suite for cuda:0 through the real
// driver, with its kernels from cuda/ConformanceKernels.ptx. Where no driver
// is present (any machine without an NVIDIA GPU, CI included) every test
// skips with the reason the device gives; scripts/gpu-check.sh runs them on
// a GPU. Copies between cuda:0 and cuda:1 (peer where the driver allows,
// and staged) run where the real driver has two devices.
//
//===----------------------------------------------------------------------===//

#include "CudaTestSupport.h"

#include <gtest/gtest.h>

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

namespace {

TEST(CudaTwoDevices, CopiesPeerAndStaged) {
  if (std::string why = cudaUnavailable(); !why.empty())
    GTEST_SKIP() << "cuda0 is not available: " << why;
  auto d0 = openCudaDevice(0);
  auto d1 = openCudaDevice(1);
  ASSERT_TRUE(d0.isOk()) << d0.status().message();
  if (!d1.isOk())
    GTEST_SKIP() << "no second CUDA device: " << d1.status().message();
  auto &c0 = *static_cast<CudaDevice *>(d0->get());
  auto &c1 = *static_cast<CudaDevice *>(d1->get());
  const uint64_t bytes = 3u << 20; // several staging pieces
  auto src = (*d0)->allocate(bytes, 0);
  auto dst = (*d1)->allocate(bytes, 0);
  ASSERT_TRUE(src.isOk() && dst.isOk());
  std::vector<uint8_t> pattern(bytes), got(bytes);
  for (uint64_t i = 0; i < bytes; ++i)
    pattern[i] = uint8_t(i * 131 + 7);
  ASSERT_TRUE((*d0)->write(*src, 0, pattern.data(), bytes).isOk());
  for (bool allowPeer : {true, false}) {
    SCOPED_TRACE(allowPeer ? "peer allowed" : "staged");
    std::vector<uint8_t> zeros(bytes, 0);
    ASSERT_TRUE((*d1)->write(*dst, 0, zeros.data(), bytes).isOk());
    auto path =
        copyBetweenCudaDevices(c0, *src, 0, c1, *dst, 0, bytes, allowPeer);
    ASSERT_TRUE(path.isOk()) << path.status().message();
    if (!allowPeer)
      EXPECT_EQ(*path, CudaCopyPath::Staged);
    ASSERT_TRUE((*d1)->read(*dst, 0, got.data(), bytes).isOk());
    EXPECT_EQ(got, pattern);
  }
  EXPECT_TRUE((*d0)->free(*src).isOk());
  EXPECT_TRUE((*d1)->free(*dst).isOk());
}

} // namespace
