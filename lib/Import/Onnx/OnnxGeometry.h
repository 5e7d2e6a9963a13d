//===- OnnxGeometry.h - IR-free shape rules of ONNX ops ---------*- C++ -*-===//
//
// The arithmetic of ONNX's shape rules, free of IR so that unit tests pin it
// exactly: numpy broadcasting, the window of a convolution or pool along one
// dimension (auto_pad, pads, ceil_mode and the padding ceil_mode adds), the
// divisors of AveragePool (count_include_pad) and Slice's clamping of its
// bounds.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_IMPORT_ONNX_ONNXGEOMETRY_H
#define FUEL_LIB_IMPORT_ONNX_ONNXGEOMETRY_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fuel::onnx_import {

/// The numpy broadcast of `shapes`, or nothing when two dimensions differ
/// and neither is 1.
std::optional<std::vector<int64_t>>
broadcastShapes(const std::vector<std::vector<int64_t>> &shapes);

/// One spatial dimension of a convolution or pool.
struct Window {
  int64_t in = 1, kernel = 1, stride = 1, dilation = 1;
  int64_t padBegin = 0, padEnd = 0; // after auto_pad
  int64_t out = 1;
  int64_t extraEnd = 0; // padding ceil_mode adds after padEnd
};

/// Computes the window's output size and padding for `autoPad` ("NOTSET",
/// "VALID", "SAME_UPPER", "SAME_LOWER"); with NOTSET the given pads apply.
/// With `ceilMode` the output rounds up, but the last window must start
/// inside the input or its begin padding. Returns an error message, or an
/// empty string.
std::string computeWindow(Window &w, const std::string &autoPad, bool ceilMode);

/// AveragePool's divisor for each output position of `w`: the window's
/// elements inside the input, or with `includePad` inside the input and its
/// pads (ceil_mode's extra padding never counts).
std::vector<int64_t> averagePoolCounts(const Window &w, bool includePad);

/// One dimension of a Slice after ONNX's clamping.
struct SliceBounds {
  int64_t offset = 0, size = 0, step = 1;
};
/// Slice of a dimension of size `dim` from `start` to `end` by `step`
/// (non-zero), any int64 bounds.
SliceBounds sliceBounds(int64_t dim, int64_t start, int64_t end, int64_t step);

} // namespace fuel::onnx_import

#endif // FUEL_LIB_IMPORT_ONNX_ONNXGEOMETRY_H
