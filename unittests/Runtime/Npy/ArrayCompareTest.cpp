//===- ArrayCompareTest.cpp - Tests of the tolerance comparison -----------===//
//
// numpy.allclose's rule, NaN and infinity handling, the mismatch report,
// integer exactness, and the --tolerance syntax.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ArrayCompare.h"

#include <gtest/gtest.h>

#include <cmath>
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
  if (!values.empty())
    std::memcpy(a->mutableData(), values.data(), a->byteSize());
  return std::move(a).value();
}

Comparison compare(const HostArray &a, const HostArray &b, Tolerance t) {
  StatusOr<Comparison> c = compareArrays(a, b, t, "result 0");
  EXPECT_TRUE(c.isOk()) << c.status().message();
  return c.isOk() ? *c : Comparison{};
}

// Tests the allclose boundary: |a - b| <= atol + rtol * |b|, with b the
// expected value (so the rule is not symmetric).
TEST(ArrayCompareTest, AllcloseRule) {
  Tolerance t{0.5, 0.25};
  HostArray expected = arrayOf<double>(DType::F64, {2}, {4, 0});
  // 4 ± (0.5 + 1) passes; 0 ± 0.5 passes.
  EXPECT_TRUE(
      compare(arrayOf<double>(DType::F64, {2}, {5.5, -0.5}), expected, t)
          .matches());
  Comparison c =
      compare(arrayOf<double>(DType::F64, {2}, {5.5001, 0.5001}), expected, t);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.firstMismatch, 0);
  EXPECT_NEAR(c.maxAbsError, 1.5001, 1e-12);
  EXPECT_TRUE(std::isinf(c.maxRelError)); // 0.5001 against 0
  // Not symmetric: the bound scales with the expected value.
  EXPECT_FALSE(compare(arrayOf<double>(DType::F64, {1}, {3}),
                       arrayOf<double>(DType::F64, {1}, {2}), {0, 0.4})
                   .matches());
  EXPECT_TRUE(compare(arrayOf<double>(DType::F64, {1}, {2}),
                      arrayOf<double>(DType::F64, {1}, {3}), {0, 0.4})
                  .matches());
}

// Tests NaN equal only to NaN, infinities only to themselves, and that
// neither enters the maximum errors.
TEST(ArrayCompareTest, NanAndInfinity) {
  float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  HostArray expected = arrayOf<float>(DType::F32, {5}, {nan, inf, -inf, 1, 2});
  Comparison same =
      compare(arrayOf<float>(DType::F32, {5}, {nan, inf, -inf, 1, 2}), expected,
              {0, 0});
  EXPECT_TRUE(same.matches());
  EXPECT_EQ(same.maxAbsError, 0);
  Comparison c =
      compare(arrayOf<float>(DType::F32, {5}, {0, -inf, inf, nan, 2}), expected,
              {1e9, 1e9});
  EXPECT_EQ(c.mismatches, 4);
  EXPECT_EQ(c.firstMismatch, 0);
  EXPECT_EQ(c.maxAbsError, 0);
}

// Tests the one-line report: count, first index as a multi-index, values,
// and the largest errors.
TEST(ArrayCompareTest, Report) {
  HostArray expected = arrayOf<float>(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  HostArray actual = arrayOf<float>(DType::F32, {2, 3}, {1, 2, 3, 4.5f, 5, 3});
  Comparison c = compare(actual, expected, {1e-5, 1e-4});
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.firstMismatch, 3);
  EXPECT_EQ(c.maxAbsError, 3);
  EXPECT_EQ(c.maxRelError, 0.5);
  EXPECT_EQ(c.summary, "result 0: 2 of 6 elements differ (atol=1e-05, "
                       "rtol=1e-04); first at [1, 0]: got 4.5, expected 4; "
                       "max abs error 3, max rel error 0.5");
  Comparison ok = compare(expected, expected, {1e-5, 1e-4});
  EXPECT_EQ(ok.summary, "result 0: all 6 elements match (atol=1e-05, "
                        "rtol=1e-04; max abs error 0, max rel error 0)");
}

// Tests integers: exact by default even where doubles would round two
// 64-bit values together, and within a tolerance when one is given.
TEST(ArrayCompareTest, Integers) {
  int64_t big = (int64_t{1} << 60) + 1;
  Comparison c = compare(arrayOf<int64_t>(DType::I64, {1}, {big}),
                         arrayOf<int64_t>(DType::I64, {1}, {big - 1}),
                         defaultTolerance(DType::I64));
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.maxAbsError, 1);
  c = compare(arrayOf<int64_t>(DType::I64, {2},
                               {std::numeric_limits<int64_t>::min(),
                                std::numeric_limits<int64_t>::max()}),
              arrayOf<int64_t>(DType::I64, {2},
                               {std::numeric_limits<int64_t>::max(),
                                std::numeric_limits<int64_t>::min()}),
              {0, 0});
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.maxAbsError, 0x1p64);
  EXPECT_TRUE(compare(arrayOf<uint8_t>(DType::U8, {2}, {10, 200}),
                      arrayOf<uint8_t>(DType::U8, {2}, {11, 199}), {1, 0})
                  .matches());
  EXPECT_FALSE(compare(arrayOf<uint8_t>(DType::Bool, {1}, {1}),
                       arrayOf<uint8_t>(DType::Bool, {1}, {0}), {0, 0})
                   .matches());
  // f16 compares by value.
  EXPECT_TRUE(compare(arrayOf<uint16_t>(DType::F16, {1}, {0x3c01}),
                      arrayOf<uint16_t>(DType::F16, {1}, {0x3c00}),
                      defaultTolerance(DType::F16))
                  .matches());
}

// Tests that differing types are an error, not a comparison.
TEST(ArrayCompareTest, TypeMismatch) {
  StatusOr<Comparison> c =
      compareArrays(arrayOf<float>(DType::F32, {2}, {1, 2}),
                    arrayOf<double>(DType::F64, {2}, {1, 2}), {}, "result 1");
  ASSERT_FALSE(c.isOk());
  EXPECT_EQ(c.status().message(), "result 1: is 2xf32, the expected output "
                                  "expects 2xf64 (dtype f32, expected f64)");
}

// Tests the --tolerance syntax and its defaults.
TEST(ArrayCompareTest, ParseTolerance) {
  Tolerance base = defaultTolerance(DType::F32);
  EXPECT_EQ(base.atol, 1e-5);
  EXPECT_EQ(base.rtol, 1e-4);
  StatusOr<Tolerance> t = parseTolerance("atol=1e-3,rtol=0", base);
  ASSERT_TRUE(t.isOk());
  EXPECT_EQ(t->atol, 1e-3);
  EXPECT_EQ(t->rtol, 0);
  t = parseTolerance("rtol=0.5", base);
  ASSERT_TRUE(t.isOk());
  EXPECT_EQ(t->atol, 1e-5);
  EXPECT_EQ(t->rtol, 0.5);
  t = parseTolerance("rtol=2,atol=3", base);
  ASSERT_TRUE(t.isOk());
  EXPECT_EQ(t->atol, 3);
  for (const char *bad :
       {"", "atol", "atol=", "atol=x", "atol=1,atol=2", "btol=1", "atol=-1",
        "atol=inf", "atol=nan", "atol=1,", "atol=1e-3 ", "atol=1;rtol=2"}) {
    SCOPED_TRACE(bad);
    StatusOr<Tolerance> s = parseTolerance(bad, base);
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.status().code(), StatusCode::InvalidArgument);
    EXPECT_EQ(
        s.status().message().rfind(std::string("tolerance '") + bad + "'", 0),
        0u);
  }
}

} // namespace
