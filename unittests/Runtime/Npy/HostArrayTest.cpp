//===- HostArrayTest.cpp - Tests of HostArray, dtypes and binary16 --------===//
//
// Sizes with overflow checks, aligned allocation, type spelling, the type
// check fuel-run applies to arguments, and exact binary16 conversions.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/HostArray.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace fuel::rt;

namespace {

// Tests the dtype table: sizes, MLIR spellings and their inverse.
TEST(HostArrayTest, DTypeNamesAndSizes) {
  EXPECT_EQ(dtypeName(DType::F32), "f32");
  EXPECT_EQ(dtypeName(DType::U8), "ui8");
  EXPECT_EQ(dtypeName(DType::Bool), "i1");
  EXPECT_EQ(dtypeSize(DType::F16), 2u);
  EXPECT_EQ(dtypeSize(DType::U64), 8u);
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  for (DType d : kAllDTypes)
    EXPECT_EQ(parseDType(dtypeName(d)), d);
  EXPECT_EQ(parseDType("bf16"), std::nullopt);
  EXPECT_EQ(parseDType("u8"), std::nullopt);
}

// Tests the SHAPExDTYPE spelling and the element and byte counts.
TEST(HostArrayTest, ShapesAndSizes) {
  EXPECT_EQ(formatArrayType(DType::F32, {2, 3}), "2x3xf32");
  EXPECT_EQ(formatArrayType(DType::Bool, {}), "i1");
  EXPECT_EQ(shapeElementCount({}), 1);
  EXPECT_EQ(shapeElementCount({2, 0, 5}), 0);
  EXPECT_EQ(shapeElementCount({-1}), std::nullopt);
  EXPECT_EQ(shapeElementCount({int64_t{1} << 40, int64_t{1} << 40}),
            std::nullopt);
  // A zero dimension does not excuse an overflowing product of the others.
  EXPECT_EQ(shapeElementCount({0, int64_t{1} << 40, int64_t{1} << 40}),
            std::nullopt);
  EXPECT_EQ(arrayByteSize(DType::F64, {3, 4}), 96u);
  EXPECT_EQ(arrayByteSize(DType::F64, {std::numeric_limits<int64_t>::max()}),
            std::nullopt);
}

// Tests that allocated arrays are zeroed, 64-byte aligned and writable, and
// that views are read-only references.
TEST(HostArrayTest, AllocateAndView) {
  StatusOr<HostArray> a = HostArray::allocate(DType::I32, {3, 5});
  ASSERT_TRUE(a.isOk());
  EXPECT_EQ(a->elementCount(), 15);
  EXPECT_EQ(a->byteSize(), 60u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a->data()) % 64, 0u);
  ASSERT_NE(a->mutableData(), nullptr);
  for (size_t i = 0; i < 60; ++i)
    EXPECT_EQ(static_cast<const uint8_t *>(a->data())[i], 0);
  HostArray moved = std::move(a).value();
  EXPECT_TRUE(moved.ownsData());
  EXPECT_EQ(moved.typeString(), "3x5xi32");

  StatusOr<HostArray> empty = HostArray::allocate(DType::F32, {0});
  ASSERT_TRUE(empty.isOk());
  EXPECT_NE(empty->data(), nullptr);
  EXPECT_EQ(empty->byteSize(), 0u);

  StatusOr<HostArray> neg = HostArray::allocate(DType::F32, {2, -3});
  ASSERT_FALSE(neg.isOk());
  EXPECT_EQ(neg.status().code(), StatusCode::InvalidArgument);
  StatusOr<HostArray> huge =
      HostArray::allocate(DType::F64, {int64_t{1} << 62});
  ASSERT_FALSE(huge.isOk());
  EXPECT_EQ(huge.status().code(), StatusCode::ResourceExhausted);

  float data[2] = {1, 2};
  HostArray v = HostArray::view(DType::F32, {2}, data);
  EXPECT_FALSE(v.ownsData());
  EXPECT_EQ(v.data(), data);
  EXPECT_EQ(v.mutableData(), nullptr);
  EXPECT_EQ(v.byteSize(), 8u);
}

// Tests the type check's message for a dtype, a rank and a dimension
// mismatch, and that a match passes.
TEST(HostArrayTest, CheckArrayType) {
  EXPECT_TRUE(checkArrayType(DType::F32, {2, 3}, DType::F32, {2, 3}, "x.npy",
                             "argument 0")
                  .isOk());
  Status s = checkArrayType(DType::F64, {2, 3}, DType::F32, {2, 3}, "x.npy",
                            "argument 0");
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(s.message(), "x.npy: is 2x3xf64, argument 0 expects 2x3xf32 "
                         "(dtype f64, expected f32)");
  s = checkArrayType(DType::F32, {6}, DType::F32, {2, 3}, "x.npy",
                     "argument 1 (w)");
  EXPECT_EQ(s.message(),
            "x.npy: is 6xf32, argument 1 (w) expects 2x3xf32 (rank 1, "
            "expected 2)");
  s = checkArrayType(DType::I8, {2, 4}, DType::U8, {2, 3}, "y.npy",
                     "argument 0");
  EXPECT_EQ(s.message(), "y.npy: is 2x4xi8, argument 0 expects 2x3xui8 "
                         "(dtype i8, expected ui8; dimension 1 is 4, "
                         "expected 3)");
}

float bitsToFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// Tests binary16 conversions: every half value survives half -> float ->
// half, known values convert exactly, and float -> half rounds to nearest
// even at normal, subnormal and overflow boundaries.
TEST(HostArrayTest, HalfConversions) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_EQ(h & 0x7c00u, 0x7c00u);
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f))));
      continue;
    }
    EXPECT_EQ(floatToHalf(f), h) << h;
  }
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0xc000), -2.0f);
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(halfToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(halfToFloat(0x0400), 0x1p-14f);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // ties to even: to infinity
  EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalf(-1e10f), 0xfc00);
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3c00);     // tie -> even
  EXPECT_EQ(floatToHalf(1.0f + 3 * 0x1p-11f), 0x3c02); // tie -> even
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
  EXPECT_EQ(floatToHalf(0x1p-25f), 0x0000); // tie -> 0
  EXPECT_EQ(floatToHalf(0x1.8p-25f), 0x0001);
  EXPECT_EQ(floatToHalf(0x1p-26f), 0x0000);
  EXPECT_EQ(floatToHalf(3 * 0x1p-25f), 0x0002); // 1.5 ulp -> 2
  EXPECT_EQ(floatToHalf(0x1.ffcp-15f), 0x0400); // carry to normal
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(bitsToFloat(0x7f800001u)) & 0x7e00u, 0x7e00u);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::denorm_min()), 0);
}

} // namespace
