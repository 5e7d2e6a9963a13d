//===- OnnxGeometry.cpp - IR-free shape rules of ONNX ops -----------------===//
//
// See OnnxGeometry.h. The window rules follow the ONNX operator
// specification of Conv, MaxPool and AveragePool (opset 17); the divisors
// follow ONNX Runtime's pool kernels, which the node tests' outputs match.
//
//===----------------------------------------------------------------------===//

#include "OnnxGeometry.h"

#include <algorithm>

using namespace fuel::onnx_import;

std::optional<std::vector<int64_t>> fuel::onnx_import::broadcastShapes(
    const std::vector<std::vector<int64_t>> &shapes) {
  size_t rank = 0;
  for (const auto &s : shapes)
    rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto &s : shapes) {
    size_t off = rank - s.size();
    for (size_t j = 0; j < s.size(); ++j) {
      int64_t d = s[j];
      int64_t &o = out[off + j];
      if (d == o || d == 1)
        continue;
      if (o != 1)
        return std::nullopt;
      o = d;
    }
  }
  return out;
}

std::string fuel::onnx_import::computeWindow(Window &w,
                                             const std::string &autoPad,
                                             bool ceilMode) {
  if (w.stride < 1 || w.dilation < 1 || w.kernel < 1)
    return "kernel sizes, strides and dilations must be positive";
  int64_t eff = (w.kernel - 1) * w.dilation + 1;
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    w.out = (w.in + w.stride - 1) / w.stride;
    int64_t total = std::max<int64_t>(0, (w.out - 1) * w.stride + eff - w.in);
    // SAME_UPPER puts the odd element at the end, SAME_LOWER at the start.
    w.padBegin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
    w.padEnd = total - w.padBegin;
  } else if (autoPad == "VALID" || autoPad == "NOTSET") {
    if (autoPad == "VALID")
      w.padBegin = w.padEnd = 0;
    if (w.padBegin < 0 || w.padEnd < 0)
      return "negative pads are not supported";
    int64_t span = w.in + w.padBegin + w.padEnd - eff;
    if (span < 0)
      return "the window (" + std::to_string(eff) +
             ") is larger than the padded input (" +
             std::to_string(w.in + w.padBegin + w.padEnd) + ")";
    w.out = (ceilMode ? (span + w.stride - 1) / w.stride : span / w.stride) + 1;
    if (ceilMode && (w.out - 1) * w.stride >= w.in + w.padBegin)
      --w.out;
  } else {
    return "auto_pad '" + autoPad +
           "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID";
  }
  w.extraEnd = std::max<int64_t>(0, (w.out - 1) * w.stride + eff -
                                        (w.in + w.padBegin + w.padEnd));
  return "";
}

std::vector<int64_t> fuel::onnx_import::averagePoolCounts(const Window &w,
                                                          bool includePad) {
  std::vector<int64_t> counts;
  for (int64_t o = 0; o < w.out; ++o) {
    int64_t start = o * w.stride - w.padBegin;
    int64_t end = start + w.kernel;
    int64_t c = includePad ? std::min(end, w.in + w.padEnd) - start
                           : std::min(end, w.in) - std::max<int64_t>(start, 0);
    counts.push_back(std::max<int64_t>(c, 1));
  }
  return counts;
}

SliceBounds fuel::onnx_import::sliceBounds(int64_t dim, int64_t start,
                                           int64_t end, int64_t step) {
  auto clampTo = [](int64_t v, int64_t lo, int64_t hi) {
    return std::max(lo, std::min(v, hi));
  };
  // Negative bounds count from the end; INT64_MIN/MAX stay far outside.
  if (start < 0)
    start = start < -dim ? -1 : start + dim;
  if (end < 0)
    end = end < -dim ? -1 : end + dim;
  SliceBounds b;
  b.step = step;
  if (dim <= 0)
    return b;
  if (step > 0) {
    start = clampTo(start, 0, dim);
    end = clampTo(end, 0, dim);
    b.size = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = clampTo(start, 0, dim - 1);
    end = clampTo(end, -1, dim - 1);
    b.size = start > end ? (start - end - step - 1) / -step : 0;
  }
  b.offset = start;
  return b;
}
