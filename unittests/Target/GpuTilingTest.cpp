//===- GpuTilingTest.cpp - Tests of the GPU schedule parameters -----------===//
//
// The tiles and reduction widths chosen from lavapipe's limits, from a
// device with 32-wide subgroups and from tight limits, the divisibility
// flag, and the errors naming a missing or too small limit.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/GpuTiling.h"

#include <gtest/gtest.h>

using namespace fuel;
using namespace fuel::target;

namespace {

// Mesa lavapipe 22.3 as vulkaninfo reports it.
plan::GpuLimits lavapipe() {
  plan::GpuLimits l;
  l.subgroupSize = 8;
  l.sharedMemoryBytes = 32768;
  l.maxWorkgroupInvocations = 1024;
  l.maxWorkgroupSize[0] = l.maxWorkgroupSize[1] = l.maxWorkgroupSize[2] = 1024;
  l.minStorageBufferOffsetAlignment = 16;
  l.maxPushConstantsBytes = 128;
  return l;
}

// A desktop GPU with 32-wide subgroups and 48 KiB of shared memory.
plan::GpuLimits wide() {
  plan::GpuLimits l = lavapipe();
  l.subgroupSize = 32;
  l.sharedMemoryBytes = 49152;
  l.maxWorkgroupSize[2] = 64;
  return l;
}

std::string message(llvm::Error e) { return llvm::toString(std::move(e)); }

TEST(GpuTiling, MatmulOnLavapipe) {
  llvm::Expected<MatmulTiling> t = chooseMatmulTiling(lavapipe(), 128, 256, 64);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->tileM, 16u);
  EXPECT_EQ(t->tileN, 16u);
  EXPECT_EQ(t->tileK, 64u);
  EXPECT_EQ(t->workgroupSize[0], 16u);
  EXPECT_EQ(t->workgroupSize[1], 16u);
  EXPECT_EQ(t->workgroupSize[2], 1u);
  EXPECT_EQ(t->sharedBytes, (16u + 16u) * 64u * 4u);
  EXPECT_TRUE(t->divides);
}

TEST(GpuTiling, MatmulFollowsTheSubgroupSize) {
  llvm::Expected<MatmulTiling> t = chooseMatmulTiling(wide(), 128, 256, 64);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->tileN, 32u);
  EXPECT_EQ(t->tileM, 16u);
  EXPECT_EQ(t->tileK, 64u);
  // N = 16 is a tile on lavapipe, not with 32-wide subgroups.
  EXPECT_TRUE(chooseMatmulTiling(lavapipe(), 16, 16, 64)->divides);
  EXPECT_FALSE(chooseMatmulTiling(wide(), 16, 16, 64)->divides);
}

TEST(GpuTiling, MatmulPrimeSizesDoNotDivide) {
  for (uint64_t m : {1u, 7u, 127u, 131u}) {
    llvm::Expected<MatmulTiling> t = chooseMatmulTiling(lavapipe(), m, 64, 64);
    ASSERT_TRUE(bool(t)) << message(t.takeError());
    EXPECT_FALSE(t->divides) << m;
  }
  EXPECT_FALSE(chooseMatmulTiling(lavapipe(), 64, 64, 97)->divides);
  EXPECT_FALSE(chooseMatmulTiling(lavapipe(), 0, 64, 64)->divides);
}

TEST(GpuTiling, MatmulShrinksToTheLimits) {
  plan::GpuLimits l = lavapipe();
  l.maxWorkgroupInvocations = 64;
  l.sharedMemoryBytes = 1024;
  llvm::Expected<MatmulTiling> t = chooseMatmulTiling(l, 64, 64, 64);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->tileN, 16u);
  EXPECT_EQ(t->tileM, 4u);
  // (4 + 16) * tileK * 4 <= 1024: tileK = 8.
  EXPECT_EQ(t->tileK, 8u);
  EXPECT_LE(t->sharedBytes, 1024u);
  EXPECT_LE(uint64_t(t->tileM) * t->tileN, 64u);
}

TEST(GpuTiling, MatmulRegisterBlocks) {
  // 4 x 4 elements per invocation on lavapipe: 16 x 16 invocations, 64 x 64
  // tiles of C, panels of 64 columns filling the 32 KiB.
  llvm::Expected<MatmulTiling> t =
      chooseMatmulTiling(lavapipe(), 128, 256, 64, 4, /*block=*/4);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->tileM, 64u);
  EXPECT_EQ(t->tileN, 64u);
  EXPECT_EQ(t->tileK, 64u);
  EXPECT_EQ(t->blockM, 4u);
  EXPECT_EQ(t->blockN, 4u);
  EXPECT_EQ(t->workgroupSize[0], 16u);
  EXPECT_EQ(t->workgroupSize[1], 16u);
  EXPECT_EQ(t->sharedBytes, 32768u);
  EXPECT_TRUE(t->divides);
  // 32-wide subgroups, 48 KiB: 32 x 16 invocations, 64 x 128 tiles.
  t = chooseMatmulTiling(wide(), 128, 256, 64, 4, 4);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->tileM, 64u);
  EXPECT_EQ(t->tileN, 128u);
  EXPECT_EQ(t->tileK, 64u);
  EXPECT_EQ(t->workgroupSize[0], 32u);
  EXPECT_EQ(t->workgroupSize[1], 16u);
  EXPECT_EQ(t->sharedBytes, 49152u);
  // Less shared memory: shorter panels, same tiles of C.
  plan::GpuLimits l = lavapipe();
  l.sharedMemoryBytes = 16384;
  t = chooseMatmulTiling(l, 128, 256, 64, 4, 4);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->tileM, 64u);
  EXPECT_EQ(t->tileK, 32u);
  EXPECT_EQ(message(chooseMatmulTiling(l, 1, 1, 1, 4, 0).takeError()),
            "matmul tiling: block size 0");
}

TEST(GpuTiling, MatmulPanelsFollowASmallK) {
  // K = 5: panels of 8 columns, not 64.
  llvm::Expected<MatmulTiling> t = chooseMatmulTiling(lavapipe(), 17, 130, 5);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->tileK, 8u);
  EXPECT_FALSE(t->divides);
  EXPECT_EQ(chooseMatmulTiling(lavapipe(), 64, 64, 1)->tileK, 1u);
  EXPECT_EQ(chooseMatmulTiling(lavapipe(), 64, 64, 64)->tileK, 64u);
  EXPECT_EQ(chooseMatmulTiling(lavapipe(), 64, 64, 1000)->tileK, 64u);
}

TEST(GpuTiling, Conv2dAsAnImplicitMatmul) {
  // The convnet's first conv: 8 x 3 x 32 x 32 by 16 x 3 x 5 x 5 (NCHW).
  Conv2dShape s;
  s.n = 8, s.c = 3, s.h = 32, s.w = 32, s.f = 16, s.kh = 5, s.kw = 5;
  EXPECT_EQ(s.outH(), 28u);
  EXPECT_EQ(s.outW(), 28u);
  llvm::Expected<Conv2dTiling> t = chooseConv2dTiling(lavapipe(), s, 4, 4);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->batch, 8u);
  EXPECT_EQ(t->gemmM, 16u);
  EXPECT_EQ(t->gemmN, 28u * 28u);
  EXPECT_EQ(t->gemmK, 75u);
  EXPECT_EQ(t->matmul.tileM, 64u);
  EXPECT_EQ(t->matmul.tileK, 64u);
  // NHWC: pixels along M, filters along N; 32-wide subgroups widen N.
  s.nchw = false;
  t = chooseConv2dTiling(wide(), s, 4, 4);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->gemmM, 28u * 28u);
  EXPECT_EQ(t->gemmN, 16u);
  EXPECT_EQ(t->matmul.tileN, 128u);
  // Strides and dilations shrink the output.
  s.strides[0] = 2, s.dilations[1] = 2;
  EXPECT_EQ(s.outH(), 14u);
  EXPECT_EQ(s.outW(), 24u);
  // A filter larger than the input, and a missing limit.
  s.kh = 40;
  EXPECT_NE(
      message(chooseConv2dTiling(lavapipe(), s).takeError()).find("empty"),
      std::string::npos);
  s.kh = 5;
  plan::GpuLimits l = lavapipe();
  l.sharedMemoryBytes = 0;
  EXPECT_NE(
      message(chooseConv2dTiling(l, s).takeError()).find("shared_memory_bytes"),
      std::string::npos);
}

TEST(GpuTiling, MatmulErrorsNameTheLimit) {
  plan::GpuLimits l = lavapipe();
  l.subgroupSize = 0;
  EXPECT_NE(message(chooseMatmulTiling(l, 16, 16, 16).takeError())
                .find("subgroup_size"),
            std::string::npos);
  l = lavapipe();
  l.sharedMemoryBytes = 0;
  EXPECT_NE(message(chooseMatmulTiling(l, 16, 16, 16).takeError())
                .find("shared_memory_bytes"),
            std::string::npos);
  l = lavapipe();
  l.maxWorkgroupInvocations = 8;
  EXPECT_NE(message(chooseMatmulTiling(l, 16, 16, 16).takeError())
                .find("exceeds the device's workgroup limits"),
            std::string::npos);
  l = lavapipe();
  l.sharedMemoryBytes = 64;
  EXPECT_NE(message(chooseMatmulTiling(l, 16, 16, 16).takeError())
                .find("shared memory"),
            std::string::npos);
}

TEST(GpuTiling, ReductionWidths) {
  // 1024 columns on lavapipe: 8 subgroups of 8.
  llvm::Expected<ReductionTiling> t = chooseReductionTiling(lavapipe(), 1024);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->subgroupSize, 8u);
  EXPECT_EQ(t->subgroups, 8u);
  EXPECT_EQ(t->workgroupSize, 64u);
  EXPECT_EQ(t->sharedBytes, 32u);
  // 32-wide subgroups: at most 256 invocations, 8 subgroups.
  t = chooseReductionTiling(wide(), 1024);
  ASSERT_TRUE(bool(t)) << message(t.takeError());
  EXPECT_EQ(t->subgroups, 8u);
  EXPECT_EQ(t->workgroupSize, 256u);
  // Short rows: only the subgroups the row fills.
  EXPECT_EQ(chooseReductionTiling(lavapipe(), 13)->subgroups, 2u);
  EXPECT_EQ(chooseReductionTiling(lavapipe(), 1)->subgroups, 1u);
  EXPECT_EQ(chooseReductionTiling(wide(), 13)->subgroups, 1u);
}

TEST(GpuTiling, ReductionErrorsNameTheLimit) {
  plan::GpuLimits l = lavapipe();
  l.subgroupSize = 0;
  EXPECT_NE(
      message(chooseReductionTiling(l, 64).takeError()).find("subgroup_size"),
      std::string::npos);
  l = lavapipe();
  l.maxWorkgroupInvocations = 4;
  EXPECT_NE(message(chooseReductionTiling(l, 64).takeError())
                .find("exceeds the workgroup limit"),
            std::string::npos);
}

// The measured rule: few rows (fewer than the subgroup size) of at least 16
// columns per invocation of the row's workgroup take the subgroup schedule,
// everything else the per-element one.
TEST(GpuTiling, RowScheduleByShape) {
  const RowSchedule sub = RowSchedule::Subgroup;
  const RowSchedule per = RowSchedule::PerElement;
  // lavapipe: workgroups of 64 for rows of 64 columns and more.
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 4, 1024), sub);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 1, 65536), sub);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 7, 4096), sub);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 4, 1023), per);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 8, 4096), per);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 256, 1024), per);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 4096, 16), per);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 4, 256), per);
  // 32-wide subgroups: workgroups of 256 for rows of 256 and more, so 4096
  // columns, and up to 31 rows.
  EXPECT_EQ(chooseRowSchedule(wide(), 31, 4096), sub);
  EXPECT_EQ(chooseRowSchedule(wide(), 32, 4096), per);
  EXPECT_EQ(chooseRowSchedule(wide(), 4, 2048), per);
  // Where the subgroup schedule cannot run.
  plan::GpuLimits l = lavapipe();
  l.subgroupSize = 0;
  EXPECT_EQ(chooseRowSchedule(l, 4, 4096), per);
  l = lavapipe();
  l.maxWorkgroupInvocations = 4;
  EXPECT_EQ(chooseRowSchedule(l, 4, 4096), per);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 0, 4096), per);
  EXPECT_EQ(chooseRowSchedule(lavapipe(), 4, 0), per);
}

} // namespace

// The generic 1-D group size: the preferred size capped by each thread
// limit, the stand-in where a limit is unknown, whole subgroups.
TEST(GenericGroupSize, CapsAndRounds) {
  // No limits: the preferred size capped by the stand-in.
  EXPECT_EQ(genericGroupSize(nullptr, 256, 1024), 256u);
  EXPECT_EQ(genericGroupSize(nullptr, 256, 128), 128u);
  plan::GpuLimits l = lavapipe();
  EXPECT_EQ(genericGroupSize(&l, 64, 128), 64u);
  // maxWorkgroupInvocations caps it, then whole subgroups of 32.
  l = wide();
  l.maxWorkgroupInvocations = 100;
  EXPECT_EQ(genericGroupSize(&l, 256, 1024), 96u);
  // maxWorkgroupSize[0] caps it too; an unknown invocation limit takes
  // the stand-in.
  l.maxWorkgroupInvocations = 0;
  l.maxWorkgroupSize[0] = 80;
  EXPECT_EQ(genericGroupSize(&l, 256, 1024), 64u);
  EXPECT_EQ(genericGroupSize(&l, 256, 48), 32u);
  // Smaller than one subgroup: kept as it is, never below 1.
  l.maxWorkgroupSize[0] = 20;
  EXPECT_EQ(genericGroupSize(&l, 256, 1024), 20u);
  EXPECT_EQ(genericGroupSize(&l, 0, 1024), 1u);
}
