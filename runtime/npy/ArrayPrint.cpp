//===- ArrayPrint.cpp - Arrays as text in iree-run-module's style ---------===//
//
// Shortest round-trip float text through std::to_chars, which is specified
// to give the same characters on every conforming platform, and the nested
// brackets of iree-run-module's buffer-view printing.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ArrayPrint.h"

#include "ElementAccess.h"

#include <charconv>
#include <cmath>

namespace fuel::rt {
namespace {

template <typename T> std::string shortest(T value) {
  if (std::isnan(value))
    return "nan";
  char buf[64];
  std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, r.ptr);
}

} // namespace

std::string formatF32(float value) { return shortest(value); }
std::string formatF64(double value) { return shortest(value); }

std::string formatF16(uint16_t bits) {
  float f = halfToFloat(bits);
  if (std::isnan(f) || std::isinf(f))
    return shortest(f);
  // The fewest significant digits (1 to 5 always suffice for binary16)
  // whose decimal rounds back to these bits; that decimal's float is then
  // printed in to_chars's shortest form, which is the decimal itself or a
  // shorter one reading back to the same float, hence the same half.
  for (int digits = 1; digits <= 5; ++digits) {
    char buf[64];
    std::to_chars_result r = std::to_chars(
        buf, buf + sizeof buf, f, std::chars_format::scientific, digits - 1);
    float back;
    std::from_chars(buf, r.ptr, back);
    if (floatToHalf(back) == bits)
      return shortest(back);
  }
  return shortest(f);
}

std::string formatElement(const HostArray &array, int64_t index) {
  switch (array.dtype()) {
  case DType::F16:
    return formatF16(detail::loadAs<uint16_t>(array, index));
  case DType::F32:
    return formatF32(detail::loadAs<float>(array, index));
  case DType::F64:
    return formatF64(detail::loadAs<double>(array, index));
  default: {
    detail::IntValue v = detail::loadInt(array, index);
    return v.isSigned ? std::to_string(v.s) : std::to_string(v.u);
  }
  }
}

std::string formatArray(const HostArray &array) {
  std::string out = array.typeString();
  out += '=';
  const std::vector<int64_t> &shape = array.shape();
  int64_t n = array.elementCount();
  if (n == 0)
    return out;
  if (shape.empty())
    return out + formatElement(array, 0);
  // Walk the elements in C order with a multi-index; before an element,
  // open a bracket for every inner dimension (all but dimension 0) whose
  // index is 0, after it close one for every inner dimension that wraps.
  size_t rank = shape.size();
  std::vector<int64_t> idx(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    size_t opening = 0;
    for (size_t d = rank; d-- > 1 && idx[d] == 0;)
      ++opening;
    if (i > 0 && opening == 0)
      out += ' ';
    out.append(opening, '[');
    out += formatElement(array, i);
    size_t closing = 0;
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
      if (d > 0)
        ++closing;
    }
    out.append(closing, ']');
  }
  return out;
}

} // namespace fuel::rt
