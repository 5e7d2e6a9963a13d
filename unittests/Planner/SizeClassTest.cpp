//===- SizeClassTest.cpp - Size classes and dtypes keys -------------------===//
//
// The table of SEMANTICS §4, one exact case per op kind.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/SizeClass.h"

#include "gtest/gtest.h"

#include <limits>

using namespace fuel::plan;

namespace {

TEST(SizeClassTest, Lg) {
  EXPECT_EQ(lg(0), 0u);
  EXPECT_EQ(lg(1), 0u);
  EXPECT_EQ(lg(2), 1u);
  EXPECT_EQ(lg(3), 1u);
  EXPECT_EQ(lg(1024), 10u);
  EXPECT_EQ(lg(1025), 10u);
  EXPECT_EQ(lg(std::numeric_limits<uint64_t>::max()), 63u);
}

TEST(SizeClassTest, Matmul) {
  // The example node of the README and docs/ARCHITECTURE.md: 64x256 times
  // 256x512.
  EXPECT_EQ(sizeClassMatmul(64, 512, 256), 0x0f0608u);
  EXPECT_EQ(formatSizeClass(sizeClassMatmul(64, 512, 256)), "0x0f0608");
  // M*N beyond 64 bits is computed exactly: lg(2^80) = 80.
  uint64_t p40 = uint64_t(1) << 40;
  EXPECT_EQ(sizeClassMatmul(p40, p40, 1), (80u << 16) | (40u << 8));
}

TEST(SizeClassTest, BatchMatmul) {
  // lg(8*64*512) = 18.
  EXPECT_EQ(sizeClassBatchMatmul(8, 64, 512, 256), 0x120608u);
}

TEST(SizeClassTest, Conv2d) {
  // N*OH*OW*OC = 200704 -> 17; OC = 64 -> 6; IC*KH*KW = 576 -> 9.
  EXPECT_EQ(sizeClassConv2d(1, 56, 56, 64, 64, 3, 3), 0x110609u);
  // Products saturate at 2^128 - 1: the field is 127, never wrapped.
  uint64_t m = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(sizeClassConv2d(m, m, m, m, m, m, m),
            (127u << 16) | (63u << 8) | 127u);
}

TEST(SizeClassTest, PoolReduceSoftmax) {
  EXPECT_EQ(sizeClassPool(1000, 9), 0x0903u);
  EXPECT_EQ(sizeClassReduce(1 << 20, 1024), 0x140au);
  EXPECT_EQ(sizeClassSoftmax(0, 0), 0u);
  EXPECT_EQ(sizeClassSoftmax(4096, 128), 0x0c07u);
}

TEST(SizeClassTest, ElementCounts) {
  EXPECT_EQ(sizeClassElements(1), 0u);
  EXPECT_EQ(sizeClassElements(3), 1u);
  EXPECT_EQ(sizeClassElements(1 << 16), 16u);
}

TEST(SizeClassTest, DispatchReadsFiguresInOrder) {
  EXPECT_EQ(sizeClass(OpKind::Matmul, {64, 512, 256}), 0x0f0608u);
  EXPECT_EQ(sizeClass(OpKind::BatchMatmul, {8, 64, 512, 256}), 0x120608u);
  EXPECT_EQ(sizeClass(OpKind::Conv2d, {1, 56, 56, 64, 64, 3, 3}), 0x110609u);
  EXPECT_EQ(sizeClass(OpKind::Pool, {1000, 9}), 0x0903u);
  EXPECT_EQ(sizeClass(OpKind::Reduce, {1 << 20, 1024}), 0x140au);
  EXPECT_EQ(sizeClass(OpKind::Softmax, {4096, 128}), 0x0c07u);
  EXPECT_EQ(sizeClass(OpKind::Elementwise, {1 << 16}), 16u);
  EXPECT_EQ(sizeClass(OpKind::Transpose, {1 << 16}), 16u);
  EXPECT_EQ(sizeClass(OpKind::Generic, {1 << 16}), 16u);
  EXPECT_EQ(sizeClass(OpKind::Matmul, {64, 512}), std::nullopt);
  for (OpKind k : kAllOpKinds) {
    std::vector<uint64_t> figures(sizeClassArity(k), 2);
    EXPECT_TRUE(sizeClass(k, figures).has_value()) << stringifyOpKind(k);
  }
}

TEST(SizeClassTest, DtypesKey) {
  DtypesKey key{{"f16", "f16"}, {"f32"}};
  EXPECT_EQ(key.principal(), "f16");
  EXPECT_EQ(key.str(), "f16,f16->f32");
  EXPECT_EQ(key.flat(), (std::vector<std::string>{"f16", "f16", "f32"}));
  DtypesKey noInputs{{}, {"f32"}};
  EXPECT_EQ(noInputs.principal(), "f32");
  EXPECT_EQ(noInputs.str(), "->f32");
  EXPECT_EQ(DtypesKey().principal(), "");
}

} // namespace
