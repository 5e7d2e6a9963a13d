//===- HostArray.cpp - Typed n-dimensional arrays in host memory ----------===//
//
// Element types, shapes and their byte sizes with overflow checks, the
// aligned buffers of HostArray, and the exact binary16 conversions.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/HostArray.h"

#include <cstring>
#include <limits>
#include <new>

namespace fuel::rt {

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return 1;
  case DType::F16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 1;
}

std::string_view dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "f16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "ui8";
  case DType::U16:
    return "ui16";
  case DType::U32:
    return "ui32";
  case DType::U64:
    return "ui64";
  case DType::Bool:
    return "i1";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType d : kAllDTypes)
    if (dtypeName(d) == name)
      return d;
  return std::nullopt;
}

bool isFloatDType(DType dtype) {
  return dtype == DType::F16 || dtype == DType::F32 || dtype == DType::F64;
}

bool isSignedIntDType(DType dtype) {
  return dtype == DType::I8 || dtype == DType::I16 || dtype == DType::I32 ||
         dtype == DType::I64;
}

std::string formatArrayType(DType dtype, const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape) {
    s += std::to_string(d);
    s += 'x';
  }
  s += dtypeName(dtype);
  return s;
}

std::optional<int64_t> shapeElementCount(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  bool zero = false;
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    if (d == 0)
      zero = true;
  }
  // A zero dimension makes the product 0, but the other dimensions must
  // still be representable, so overflow is checked over the non-zero ones.
  for (int64_t d : shape) {
    if (d == 0)
      continue;
    if (n > std::numeric_limits<int64_t>::max() / d)
      return std::nullopt;
    n *= d;
  }
  return zero ? 0 : n;
}

std::optional<size_t> arrayByteSize(DType dtype,
                                    const std::vector<int64_t> &shape) {
  std::optional<int64_t> n = shapeElementCount(shape);
  if (!n)
    return std::nullopt;
  uint64_t elems = static_cast<uint64_t>(*n);
  uint64_t size = dtypeSize(dtype);
  if (elems > std::numeric_limits<size_t>::max() / size)
    return std::nullopt;
  return static_cast<size_t>(elems * size);
}

Status checkArrayType(DType dtype, const std::vector<int64_t> &shape,
                      DType expectedDType,
                      const std::vector<int64_t> &expectedShape,
                      std::string_view what, std::string_view expectedBy) {
  if (dtype == expectedDType && shape == expectedShape)
    return Status::ok();
  std::string msg(what);
  msg += ": is ";
  msg += formatArrayType(dtype, shape);
  msg += ", ";
  msg += expectedBy;
  msg += " expects ";
  msg += formatArrayType(expectedDType, expectedShape);
  msg += " (";
  bool first = true;
  if (dtype != expectedDType) {
    msg += "dtype ";
    msg += dtypeName(dtype);
    msg += ", expected ";
    msg += dtypeName(expectedDType);
    first = false;
  }
  if (shape != expectedShape) {
    if (!first)
      msg += "; ";
    if (shape.size() != expectedShape.size()) {
      msg += "rank " + std::to_string(shape.size()) + ", expected " +
             std::to_string(expectedShape.size());
    } else {
      for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == expectedShape[i])
          continue;
        msg += "dimension " + std::to_string(i) + " is " +
               std::to_string(shape[i]) + ", expected " +
               std::to_string(expectedShape[i]);
        break;
      }
    }
  }
  msg += ")";
  return Status::error(StatusCode::InvalidArgument, std::move(msg));
}

void HostArray::AlignedDelete::operator()(void *p) const {
  ::operator delete(p, std::align_val_t(kHostArrayAlignment));
}

StatusOr<HostArray> HostArray::allocate(DType dtype,
                                        std::vector<int64_t> shape) {
  for (int64_t d : shape)
    if (d < 0)
      return Status::error(StatusCode::InvalidArgument,
                           "array of type " + formatArrayType(dtype, shape) +
                               " has a negative dimension");
  std::optional<size_t> bytes = arrayByteSize(dtype, shape);
  if (!bytes ||
      *bytes > std::numeric_limits<size_t>::max() - kHostArrayAlignment)
    return Status::error(StatusCode::ResourceExhausted,
                         "array of type " + formatArrayType(dtype, shape) +
                             " is larger than the address space");
  // Round up to whole alignment units, and at least one, so that data() is
  // never null and vector loads of the last unit stay inside the buffer.
  size_t alloc = (*bytes + kHostArrayAlignment - 1) / kHostArrayAlignment *
                 kHostArrayAlignment;
  if (alloc == 0)
    alloc = kHostArrayAlignment;
  void *p = ::operator new(alloc, std::align_val_t(kHostArrayAlignment),
                           std::nothrow);
  if (!p)
    return Status::error(StatusCode::ResourceExhausted,
                         "cannot allocate " + std::to_string(*bytes) +
                             " bytes for an array of type " +
                             formatArrayType(dtype, shape));
  std::memset(p, 0, alloc);
  HostArray a;
  a.dtype_ = dtype;
  a.elementCount_ = *shapeElementCount(shape);
  a.shape_ = std::move(shape);
  a.byteSize_ = *bytes;
  a.owned_.reset(p);
  a.data_ = p;
  return a;
}

HostArray HostArray::view(DType dtype, std::vector<int64_t> shape,
                          const void *data) {
  HostArray a;
  a.dtype_ = dtype;
  a.elementCount_ = shapeElementCount(shape).value_or(0);
  a.byteSize_ = arrayByteSize(dtype, shape).value_or(0);
  a.shape_ = std::move(shape);
  a.data_ = data;
  return a;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13); // inf or NaN, payload kept
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13); // 127 - 15 = 112
  } else if (mant == 0) {
    bits = sign; // signed zero
  } else {
    // Subnormal half: mant × 2^-24; normalise it into a float.
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while ((mant & 0x400u) == 0);
    bits =
        sign | static_cast<uint32_t>(112 - e) << 23 | ((mant & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t exp = (bits >> 23) & 0xffu;
  uint32_t mant = bits & 0x7fffffu;
  if (exp == 0xff) {
    if (mant == 0)
      return sign | 0x7c00u;
    // NaN: keep the top payload bits and force it quiet.
    return static_cast<uint16_t>(sign | 0x7e00u | (mant >> 13));
  }
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 0x1f)
    return sign | 0x7c00u; // overflow to infinity
  if (e <= 0) {
    // Subnormal or zero half: shift the full significand (with its hidden
    // bit) right and round to nearest even on the bits shifted out.
    if (e < -10)
      return sign; // below half the smallest subnormal: rounds to zero
    uint32_t m = mant | 0x800000u;
    int shift = 14 - e; // 13 for the mantissa width, 1 - e for the scale
    uint32_t half = m >> shift;
    uint32_t rest = m & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1u)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  // Round to nearest even; a carry out of the mantissa bumps the exponent,
  // which correctly turns 65520 and above into infinity.
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

} // namespace fuel::rt
