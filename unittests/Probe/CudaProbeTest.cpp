//===- CudaProbeTest.cpp - The CUDA probe on the driver's test doubles ----===//
//
// probeCuda through the test double of the driver built by the device tests
// (unittests/Runtime/Device/cuda/FakeCudaDriver.c): every field and the
// peak figures derived from the attributes it reports; and through the
// toolkit's link stub, whose cuInit fails with CUDA_ERROR_STUB_LIBRARY: a
// note that says stub, no device, no crash. The probe loads the CUDA driver
// and the Vulkan loader through the runtime's loaders (FuelRtDrivers): its
// notes on a library that is not one are their messages.
//
//===----------------------------------------------------------------------===//

#include "fuel/Probe/Probe.h"

#include "cuda/CudaDriver.h"
#include "vulkan/VulkanLoader.h"

#include "gtest/gtest.h"

#include <string>

using namespace fuel::probe;

namespace {

TEST(ProbeCudaFakeDriverTest, FieldsAndDerivedPeaks) {
  ProbeResult r = probeCuda(FUEL_FAKE_CUDA_DRIVER_PATH);
  ASSERT_EQ(r.devices.size(), 1u);
  const ProbedDevice &d = r.devices[0];
  EXPECT_EQ(d.label(), "cuda:0");
  EXPECT_EQ(d.name, "Fake CUDA Device 0 (test double)");
  EXPECT_EQ(d.memoryBytes, 1ull << 30);
  EXPECT_EQ(d.cores, 10u);
  EXPECT_DOUBLE_EQ(d.clockGHz, 1.5);
  EXPECT_EQ(d.computeMajor, 8);
  EXPECT_EQ(d.computeMinor, 6);
  // 10 SMs x 1.5 GHz x 128 FP32 lanes (sm_86) x 2 flops per FMA.
  EXPECT_DOUBLE_EQ(d.peakF32FlopsPerNs, 10 * 1.5 * 128 * 2);
  // 2 (double data rate) x 1 GHz memory clock x 256 bits / 8.
  EXPECT_DOUBLE_EQ(d.bytesPerNs, 2 * 1.0 * 256 / 8);
  EXPECT_EQ(d.vendorId, 0x10deu);
  // cuDriverGetVersion's 12040: the identity the profile database keys on.
  EXPECT_EQ(d.cudaDriverVersion, 12040);
  EXPECT_EQ(d.identityDriver(), "cuda 12.4");
}

TEST(ProbeCudaFakeDriverTest, TheToolkitStubSaysStub) {
  std::string stub = FUEL_CUDA_STUB_DRIVER;
  if (stub.empty())
    GTEST_SKIP() << "no CUDA toolkit stubs/libcuda.so was found at configure "
                    "time";
  ProbeResult r = probeCuda(stub.c_str());
  EXPECT_TRUE(r.devices.empty());
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("cuInit(0) failed with 34 "
                                "(CUDA_ERROR_STUB_LIBRARY"),
            std::string::npos)
      << r.notes.back();
  EXPECT_NE(r.notes.back().find("stub"), std::string::npos);
}

TEST(ProbeThroughTheRuntimeLoaders, NotesAreTheLoadersMessages) {
  ProbeResult cuda = probeCuda("libc.so.6");
  ASSERT_EQ(cuda.notes.size(), 1u);
  EXPECT_EQ(cuda.notes[0],
            "cuda: " +
                fuel::rt::cuda::openDriver("libc.so.6").status().message());
  EXPECT_EQ(cuda.notes[0],
            "cuda: libc.so.6 is not a CUDA driver (cuInit missing)");
  ProbeResult vulkan = probeVulkan("libc.so.6");
  ASSERT_EQ(vulkan.notes.size(), 1u);
  EXPECT_EQ(vulkan.notes[0],
            "vulkan: " +
                fuel::rt::openVulkanLoader("libc.so.6").status().message());
}

} // namespace
