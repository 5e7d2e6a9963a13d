//===- CudaLimitsTest.cpp - CUDA limits from the compute capability -------===//
//
// lib/Planner/CudaLimits.cpp: CUDA's table, and the figures a topology
// leaves unknown filled from it while the stated ones are kept.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/CudaLimits.h"

#include "gtest/gtest.h"

using namespace fuel::plan;

namespace {

TEST(CudaLimits, TableForEveryChip) {
  for (ComputeCapability cc :
       {ComputeCapability{3, 0}, ComputeCapability{8, 0},
        ComputeCapability{9, 0}, ComputeCapability{12, 0}}) {
    GpuLimits l = cudaLimitsFor(cc);
    EXPECT_EQ(l.subgroupSize, 32u);
    EXPECT_EQ(l.sharedMemoryBytes, 49152u);
    EXPECT_EQ(l.maxWorkgroupInvocations, 1024u);
    EXPECT_EQ(l.maxWorkgroupSize[0], 1024u);
    EXPECT_EQ(l.maxWorkgroupSize[1], 1024u);
    EXPECT_EQ(l.maxWorkgroupSize[2], 64u);
    EXPECT_EQ(l.minStorageBufferOffsetAlignment, 0u);
    EXPECT_EQ(l.maxPushConstantsBytes, 0u);
    EXPECT_EQ(l.timestampPeriodNs, 0.0);
    EXPECT_TRUE(validateGpuLimits(l).empty()) << validateGpuLimits(l);
  }
}

TEST(CudaLimits, NoStatedLimitsIsTheTable) {
  EXPECT_EQ(completeCudaLimits(kDefaultComputeCapability, nullptr),
            cudaLimitsFor(kDefaultComputeCapability));
}

TEST(CudaLimits, StatedFiguresKeptUnknownOnesFilled) {
  GpuLimits stated;
  stated.sharedMemoryBytes = 16384;
  stated.maxWorkgroupInvocations = 256;
  GpuLimits l = completeCudaLimits({8, 6}, &stated);
  EXPECT_EQ(l.subgroupSize, 32u);
  EXPECT_EQ(l.sharedMemoryBytes, 16384u);
  EXPECT_EQ(l.maxWorkgroupInvocations, 256u);
  EXPECT_EQ(l.maxWorkgroupSize[0], 1024u);
  EXPECT_EQ(l.maxWorkgroupSize[2], 64u);

  GpuLimits dims;
  dims.maxWorkgroupSize[0] = 512;
  dims.maxWorkgroupSize[1] = 512;
  dims.maxWorkgroupSize[2] = 32;
  GpuLimits d = completeCudaLimits({9, 0}, &dims);
  EXPECT_EQ(d.maxWorkgroupSize[0], 512u);
  EXPECT_EQ(d.maxWorkgroupSize[1], 512u);
  EXPECT_EQ(d.maxWorkgroupSize[2], 32u);
  EXPECT_EQ(d.maxWorkgroupInvocations, 1024u);
}

} // namespace
