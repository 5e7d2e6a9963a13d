//===- ArrayPrintTest.cpp - Tests of fuel-run's array printing ------------===//
//
// iree-run-module's SHAPExDTYPE=[...] layout for every rank, and floats in
// the shortest text that reads back to the same value.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ArrayPrint.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

using namespace fuel::rt;

namespace {

template <typename T>
HostArray arrayOf(DType dtype, std::vector<int64_t> shape,
                  const std::vector<T> &values) {
  StatusOr<HostArray> a = HostArray::allocate(dtype, std::move(shape));
  EXPECT_TRUE(a.isOk());
  EXPECT_EQ(a->byteSize(), values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(a->mutableData(), values.data(), a->byteSize());
  return std::move(a).value();
}

// Tests the bracket layout for ranks 0 to 3 and an empty array.
TEST(ArrayPrintTest, IreeLayout) {
  EXPECT_EQ(formatArray(arrayOf<float>(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6})),
            "2x3xf32=[1 2 3][4 5 6]");
  EXPECT_EQ(formatArray(arrayOf<int32_t>(DType::I32, {3}, {1, -2, 3})),
            "3xi32=1 -2 3");
  EXPECT_EQ(formatArray(arrayOf<float>(DType::F32, {}, {0.5f})), "f32=0.5");
  EXPECT_EQ(formatArray(arrayOf<int8_t>(DType::I8, {2, 2, 2},
                                        {1, 2, 3, 4, 5, 6, 7, 8})),
            "2x2x2xi8=[[1 2][3 4]][[5 6][7 8]]");
  EXPECT_EQ(formatArray(arrayOf<uint8_t>(DType::U8, {1, 1, 1, 2}, {0, 255})),
            "1x1x1x2xui8=[[[0 255]]]");
  EXPECT_EQ(formatArray(arrayOf<float>(DType::F32, {2, 0}, {})), "2x0xf32=");
  EXPECT_EQ(formatArray(arrayOf<uint8_t>(DType::Bool, {3}, {1, 0, 7})),
            "3xi1=1 0 1");
  EXPECT_EQ(formatArray(arrayOf<int64_t>(
                DType::I64, {2}, {std::numeric_limits<int64_t>::min(), 0})),
            "2xi64=-9223372036854775808 0");
  EXPECT_EQ(formatArray(arrayOf<uint64_t>(DType::U64, {1}, {~uint64_t{0}})),
            "1xui64=18446744073709551615");
  EXPECT_EQ(
      formatArray(arrayOf<uint16_t>(DType::F16, {3}, {0x3c00, 0x3555, 0xfc00})),
      "3xf16=1 0.3333 -inf");
}

// Tests the float texts: shortest round trip, signed zero, NaN, infinity.
TEST(ArrayPrintTest, FloatText) {
  EXPECT_EQ(formatF32(0.1f), "0.1");
  EXPECT_EQ(formatF32(1.0f / 3.0f), "0.33333334");
  EXPECT_EQ(formatF32(-0.0f), "-0");
  EXPECT_EQ(formatF32(1e20f), "1e+20");
  EXPECT_EQ(formatF32(16777216.0f), "16777216");
  EXPECT_EQ(formatF32(std::numeric_limits<float>::denorm_min()), "1e-45");
  EXPECT_EQ(formatF32(std::nanf("")), "nan");
  EXPECT_EQ(formatF32(-std::nanf("")), "nan");
  EXPECT_EQ(formatF32(-std::numeric_limits<float>::infinity()), "-inf");
  EXPECT_EQ(formatF64(0.1), "0.1");
  EXPECT_EQ(formatF64(1.0 / 3.0), "0.3333333333333333");
  // 65500 is the shortest text that rounds to 65504 in binary16, as
  // numpy prints it.
  EXPECT_EQ(formatF16(0x7bff), "65500");
  EXPECT_EQ(formatF16(0x0001), "6e-08");
  EXPECT_EQ(formatF16(0x3c01), "1.001");
  EXPECT_EQ(formatF16(0x7e00), "nan");
}

// Tests that the text of every binary16 value and of a sweep of float bit
// patterns reads back to the same bits.
TEST(ArrayPrintTest, FloatTextRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu))
      continue; // NaN
    std::string s = formatF16(static_cast<uint16_t>(h));
    float back = std::strtof(s.c_str(), nullptr);
    EXPECT_EQ(floatToHalf(back), h) << s;
  }
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 65521) {
    uint32_t bits = static_cast<uint32_t>(b);
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f))
      continue;
    std::string s = formatF32(f);
    float back = std::strtof(s.c_str(), nullptr);
    EXPECT_EQ(std::memcmp(&back, &f, 4), 0) << s;
  }
}

} // namespace
