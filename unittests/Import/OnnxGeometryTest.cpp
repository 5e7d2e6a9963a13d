//===- OnnxGeometryTest.cpp - ONNX shape rules, exact cases ---------------===//
//
// Broadcasting, convolution and pool windows (auto_pad, ceil_mode),
// AveragePool divisors and Slice clamping, against sizes worked out by hand
// from the ONNX operator specification and its node tests.
//
//===----------------------------------------------------------------------===//

#include "OnnxGeometry.h"

#include <gtest/gtest.h>

#include <climits>

using namespace fuel::onnx_import;

namespace {

TEST(OnnxGeometry, BroadcastsLikeNumpy) {
  EXPECT_EQ(broadcastShapes({{2, 3, 4}, {4}}), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(broadcastShapes({{2, 1, 4}, {3, 1}}),
            (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(broadcastShapes({{}, {5}}), (std::vector<int64_t>{5}));
  EXPECT_EQ(broadcastShapes({{0, 1}, {1, 3}}), (std::vector<int64_t>{0, 3}));
  EXPECT_FALSE(broadcastShapes({{2, 3}, {4, 3}}));
}

Window window(int64_t in, int64_t k, int64_t s = 1, int64_t d = 1,
              int64_t pb = 0, int64_t pe = 0) {
  Window w;
  w.in = in;
  w.kernel = k;
  w.stride = s;
  w.dilation = d;
  w.padBegin = pb;
  w.padEnd = pe;
  return w;
}

TEST(OnnxGeometry, ConvWindowWithPadsStridesDilations) {
  // test_conv_with_strides_padding: 7 rows, kernel 3, stride 2, pads 1.
  Window w = window(7, 3, 2, 1, 1, 1);
  EXPECT_EQ(computeWindow(w, "NOTSET", false), "");
  EXPECT_EQ(w.out, 4);
  EXPECT_EQ(w.extraEnd, 0);
  // Dilation 2 makes a 3-tap kernel span 5.
  Window d = window(7, 3, 1, 2);
  EXPECT_EQ(computeWindow(d, "NOTSET", false), "");
  EXPECT_EQ(d.out, 3);
  Window v = window(5, 3, 1, 1, 4, 4);
  EXPECT_EQ(computeWindow(v, "VALID", false), "");
  EXPECT_EQ(v.out, 3);
  EXPECT_EQ(v.padBegin, 0);
}

TEST(OnnxGeometry, AutoPadSame) {
  // 5 wide, kernel 3 (or 2), stride 2: out 3, total padding 2 (or 1).
  Window u = window(5, 2, 2);
  EXPECT_EQ(computeWindow(u, "SAME_UPPER", false), "");
  EXPECT_EQ(u.out, 3);
  EXPECT_EQ(u.padBegin, 0);
  EXPECT_EQ(u.padEnd, 1);
  Window l = window(5, 2, 2);
  EXPECT_EQ(computeWindow(l, "SAME_LOWER", false), "");
  EXPECT_EQ(l.padBegin, 1);
  EXPECT_EQ(l.padEnd, 0);
  Window bad = window(5, 2);
  EXPECT_NE(computeWindow(bad, "SAME", false), "");
}

TEST(OnnxGeometry, CeilModeAddsEndPaddingButNoWindowOutside) {
  // test_maxpool_2d_ceil: 4x4, kernel 3, stride 2: floor 1, ceil 2, and
  // the second window needs one element of padding at the end.
  Window w = window(4, 3, 2);
  EXPECT_EQ(computeWindow(w, "NOTSET", true), "");
  EXPECT_EQ(w.out, 2);
  EXPECT_EQ(w.extraEnd, 1);
  Window f = window(4, 3, 2);
  EXPECT_EQ(computeWindow(f, "NOTSET", false), "");
  EXPECT_EQ(f.out, 1);
  // 5 wide, kernel 2, stride 4, pad 0: ceil would give 2, but the second
  // window would start at 4 + ... >= in + padBegin only if 4 >= 5: kept.
  Window k = window(5, 2, 4);
  EXPECT_EQ(computeWindow(k, "NOTSET", true), "");
  EXPECT_EQ(k.out, 2);
  // 4 wide, kernel 1, stride 4, pad 1 at the end: ceil gives 2, whose
  // window would start at 4, inside the end padding only: dropped.
  Window drop = window(4, 1, 4, 1, 0, 1);
  EXPECT_EQ(computeWindow(drop, "NOTSET", true), "");
  EXPECT_EQ(drop.out, 1);
  Window big = window(2, 5);
  EXPECT_NE(computeWindow(big, "NOTSET", false), "");
}

TEST(OnnxGeometry, AveragePoolDivisors) {
  // 5 wide, kernel 3, stride 2, pads 1 and 1: windows [-1,2), [1,4), [3,6).
  Window w = window(5, 3, 2, 1, 1, 1);
  ASSERT_EQ(computeWindow(w, "NOTSET", false), "");
  EXPECT_EQ(averagePoolCounts(w, false), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(averagePoolCounts(w, true), (std::vector<int64_t>{3, 3, 3}));
  // ceil_mode's extra padding never counts: 4 wide, kernel 3, stride 2,
  // ceil: windows [0,3) and [2,5), the second has 2 real elements.
  Window c = window(4, 3, 2);
  ASSERT_EQ(computeWindow(c, "NOTSET", true), "");
  EXPECT_EQ(averagePoolCounts(c, false), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(averagePoolCounts(c, true), (std::vector<int64_t>{3, 2}));
}

TEST(OnnxGeometry, SliceClampsLikeOnnx) {
  SliceBounds b = sliceBounds(4, -3, 100, 2); // x[1::2]
  EXPECT_EQ(b.offset, 1);
  EXPECT_EQ(b.size, 2);
  b = sliceBounds(10, 0, INT64_MAX, 1);
  EXPECT_EQ(b.size, 10);
  b = sliceBounds(10, INT64_MIN, -1, 1); // x[:-1]
  EXPECT_EQ(b.offset, 0);
  EXPECT_EQ(b.size, 9);
  b = sliceBounds(5, -1, INT64_MIN, -1); // x[::-1]
  EXPECT_EQ(b.offset, 4);
  EXPECT_EQ(b.size, 5);
  b = sliceBounds(5, 20, 1, -2); // x[4:1:-2] -> 4, 2
  EXPECT_EQ(b.offset, 4);
  EXPECT_EQ(b.size, 2);
  b = sliceBounds(5, 3, 1, 1); // empty
  EXPECT_EQ(b.size, 0);
  b = sliceBounds(0, -1, INT64_MIN, -1);
  EXPECT_EQ(b.size, 0);
}

} // namespace
