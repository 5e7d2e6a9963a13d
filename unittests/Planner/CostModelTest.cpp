//===- CostModelTest.cpp - Numbers and Layer-1 kernel time ----------------===//
//
// Exact nanosecond figures for SEMANTICS §2 (saturation, transfer terms,
// roofline ceilings) and §3 step 6 (kernel time, priors).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/CostModel.h"
#include "fuel/Planner/Numbers.h"

#include "gtest/gtest.h"

#include <limits>

using namespace fuel::plan;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr uint64_t kMaxU = std::numeric_limits<uint64_t>::max();

TEST(NumbersTest, SaturatingAdd) {
  EXPECT_EQ(satAdd(5, -3), 2);
  EXPECT_EQ(satAdd(kMax, 1), kMax);
  EXPECT_EQ(satAdd(kMax - 1, kMax), kMax);
  EXPECT_EQ(satAdd(kMin, -1), kMin);
  EXPECT_EQ(satAdd(kMax, -1), kMax - 1);
  EXPECT_EQ(satAddU(kMaxU, 1), kMaxU);
  EXPECT_EQ(satAddU(1, 2), 3u);
  EXPECT_EQ(satMulU(uint64_t(1) << 32, uint64_t(1) << 32), kMaxU);
  EXPECT_EQ(satMulU(3, 7), 21u);
}

TEST(NumbersTest, CeilToNs) {
  EXPECT_EQ(ceilToNs(0.0), 0);
  EXPECT_EQ(ceilToNs(-5.0), 0);
  EXPECT_EQ(ceilToNs(3.0), 3);
  EXPECT_EQ(ceilToNs(3.0000001), 4);
  EXPECT_EQ(ceilToNs(std::numeric_limits<double>::infinity()), kMax);
  EXPECT_EQ(ceilToNs(std::numeric_limits<double>::quiet_NaN()), kMax);
  EXPECT_EQ(ceilToNs(9223372036854775808.0), kMax);
  // The largest double below 2^63 converts exactly.
  EXPECT_EQ(ceilToNs(9223372036854774784.0), 9223372036854774784);
}

TEST(NumbersTest, TransferTermIsExact) {
  // SEMANTICS §5 worked example: 4,000,000 bytes at 10 GB/s.
  EXPECT_EQ(transferNs(4'000'000, 10'000'000'000), 400'000);
  EXPECT_EQ(hopNs(4'000'000, 10'000'000'000, 10'000), 410'000);
  // ceil of 10^9 / 3.
  EXPECT_EQ(transferNs(1, 3), 333'333'334);
  EXPECT_EQ(transferNs(3, 3), 1'000'000'000);
  // 2^53 + 1 bytes at 1 GB/s: a double quotient would lose the last ns.
  uint64_t big = (uint64_t(1) << 53) + 1;
  EXPECT_EQ(transferNs(big, 1'000'000'000), int64_t(big));
  // One byte more than a whole number of ns rounds up.
  EXPECT_EQ(transferNs(8'000'000'001, 8'000'000'000), 1'000'000'001);
  EXPECT_EQ(transferNs(0, 0), 0);
  EXPECT_EQ(transferNs(1, 0), kMax);
  EXPECT_EQ(transferNs(kMaxU, 1), kMax);
  EXPECT_EQ(hopNs(kMaxU, 1, 10), kMax);
}

DeviceInfo cpuInfo() {
  DeviceInfo info;
  info.device = Device::cpu();
  info.cpuType = true;
  info.peakFlopsPerNs["f32"] = 100.0;
  info.bytesPerNs = 20.0;
  info.dispatchOverheadNs = 1000;
  return info;
}

TEST(CostModelTest, RooflineWithEfficiencies) {
  DeviceInfo info = cpuInfo();
  VariantEfficiency v{0.5, 0.8, 250};
  // matmul 64x64x64: 2*64^3 flops at 100*0.5 flop/ns = 10485.76 -> 10486;
  // 3*64*64*4 bytes at 20*0.8 B/ns = 3072; max + 1000 + 250.
  KernelTime t = kernelTime(info, "f32", {524288, 49152}, v);
  EXPECT_EQ(t.computeNs, 10486);
  EXPECT_EQ(t.memoryNs, 3072);
  EXPECT_EQ(t.timeNs, 11736);
  EXPECT_FALSE(t.usedPrior());
  EXPECT_EQ(describePriors(info, "f32", t), "");
}

TEST(CostModelTest, MemoryBoundTakesTheMemoryTerm) {
  DeviceInfo info = cpuInfo();
  KernelTime t = kernelTime(info, "f32", {100, 1'000'001}, {});
  // 1,000,001 / 20 = 50000.05 -> 50001; compute 1.
  EXPECT_EQ(t.computeNs, 1);
  EXPECT_EQ(t.memoryNs, 50001);
  EXPECT_EQ(t.timeNs, 51001);
}

TEST(CostModelTest, GpuPriors) {
  DeviceInfo info;
  info.device = Device::cuda(0);
  info.dispatchOverheadNs = 5000;
  // 3000 / 30 = 100, 8000 / 40 = 200.
  KernelTime t = kernelTime(info, "f32", {3000, 8000}, {});
  EXPECT_TRUE(t.usedFlopsPrior);
  EXPECT_TRUE(t.usedBandwidthPrior);
  EXPECT_EQ(t.timeNs, 5200);
  EXPECT_EQ(describePriors(info, "f32", t),
            "device 'cuda:0' has no peak f32 rate; using the GPU prior of 30 "
            "flop/ns; no memory bandwidth; using the GPU prior of 40 B/ns");
}

TEST(CostModelTest, MissingDtypeRateTakesPriorOnly) {
  DeviceInfo info = cpuInfo();
  // No f16 peak: CPU prior 1 flop/ns; the bandwidth is known.
  KernelTime t = kernelTime(info, "f16", {5000, 20}, {});
  EXPECT_TRUE(t.usedFlopsPrior);
  EXPECT_FALSE(t.usedBandwidthPrior);
  EXPECT_EQ(t.timeNs, 6000);
  EXPECT_EQ(describePriors(info, "f16", t),
            "device 'cpu' has no peak f16 rate; using the CPU prior of 1 "
            "flop/ns");
}

TEST(CostModelTest, CpuTypeVulkanTakesCpuPriors) {
  DeviceInfo lavapipe;
  lavapipe.device = Device::vulkan(0);
  lavapipe.cpuType = true;
  // 10 flops at 1 flop/ns = 10; 100 bytes at 4 B/ns = 25.
  KernelTime t = kernelTime(lavapipe, "f32", {10, 100}, {});
  EXPECT_EQ(t.timeNs, 25);
  EXPECT_EQ(describePriors(lavapipe, "f32", t),
            "device 'vulkan:0' has no peak f32 rate; using the CPU prior of 1 "
            "flop/ns; no memory bandwidth; using the CPU prior of 4 B/ns");

  DeviceInfo gpu = lavapipe;
  gpu.cpuType = false;
  // GPU priors: 10 / 30 -> 1; 100 / 40 = 2.5 -> 3.
  EXPECT_EQ(kernelTime(gpu, "f32", {10, 100}, {}).timeNs, 3);
  EXPECT_TRUE(takesCpuPriors(lavapipe));
  EXPECT_FALSE(takesCpuPriors(gpu));
}

TEST(CostModelTest, BandwidthPriorOnly) {
  DeviceInfo info = cpuInfo();
  info.bytesPerNs.reset();
  KernelTime t = kernelTime(info, "f32", {0, 10}, {});
  EXPECT_EQ(t.timeNs, 1000 + 3);
  EXPECT_EQ(describePriors(info, "f32", t),
            "device 'cpu' has no memory bandwidth; using the CPU prior of 4 "
            "B/ns");
}

TEST(CostModelTest, ZeroRatesAndSaturation) {
  DeviceInfo info = cpuInfo();
  info.peakFlopsPerNs["f32"] = 0.0;
  // No work costs nothing even at a zero rate.
  EXPECT_EQ(kernelTime(info, "f32", {0, 0}, {}).timeNs, 1000);
  // Work at a zero rate never finishes; overheads cannot wrap it.
  EXPECT_EQ(kernelTime(info, "f32", {1, 0}, {0, 1, 7}).timeNs, kMax);
  // A zero efficiency is a zero rate.
  EXPECT_EQ(kernelTime(cpuInfo(), "f32", {0, 1}, {1, 0, 0}).timeNs, kMax);
  // Huge work saturates.
  DeviceInfo slow = cpuInfo();
  slow.peakFlopsPerNs["f32"] = 1e-9;
  EXPECT_EQ(kernelTime(slow, "f32", {kMaxU, 0}, {}).timeNs, kMax);
}

TEST(CostModelTest, CeilOfTheDoubleQuotient) {
  DeviceInfo info = cpuInfo();
  info.peakFlopsPerNs["f32"] = 3.0;
  info.dispatchOverheadNs = 0;
  EXPECT_EQ(kernelTime(info, "f32", {9, 0}, {}).timeNs, 3);
  EXPECT_EQ(kernelTime(info, "f32", {10, 0}, {}).timeNs, 4);
  // 10 * 0.1 is exactly 1.0 in IEEE doubles: 7 flops take 7 ns.
  info.peakFlopsPerNs["f32"] = 10.0;
  EXPECT_EQ(kernelTime(info, "f32", {7, 0}, {0.1, 1, 0}).timeNs, 7);
}

TEST(CostModelTest, FootprintTier) {
  Footprint host = footprint(Device::cpu(), 100, 20, 3);
  EXPECT_EQ(host.hostBytes, 123u);
  EXPECT_EQ(host.deviceBytes, 0u);
  Footprint dev = footprint(Device::vulkan(0), 100, 20, 3);
  EXPECT_EQ(dev.hostBytes, 0u);
  EXPECT_EQ(dev.deviceBytes, 123u);
  EXPECT_EQ(footprint(Device::cuda(0), kMaxU, 1, 1).deviceBytes, kMaxU);
}

} // namespace
