//===- ElementAccess.h - Reading one element of a HostArray -----*- C++ -*-===//
//
// Private to runtime/npy: loads element i of an array of any DType by memcpy
// (views of .npy files need not be aligned), as a double for floats and as
// an exact 64-bit integer for integers and i1.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_NPY_ELEMENTACCESS_H
#define FUEL_RUNTIME_NPY_ELEMENTACCESS_H

#include "fuel/Runtime/HostArray.h"

#include <cstdint>
#include <cstring>

namespace fuel::rt::detail {

template <typename T> T loadAs(const HostArray &a, int64_t i) {
  T v;
  std::memcpy(&v,
              static_cast<const uint8_t *>(a.data()) +
                  static_cast<size_t>(i) * sizeof(T),
              sizeof(T));
  return v;
}

/// Element i of a float array as a double (exact for every float dtype).
inline double loadFloat(const HostArray &a, int64_t i) {
  switch (a.dtype()) {
  case DType::F16:
    return halfToFloat(loadAs<uint16_t>(a, i));
  case DType::F32:
    return loadAs<float>(a, i);
  default:
    return loadAs<double>(a, i);
  }
}

/// An integer element: its value, and whether it is signed (so that an
/// unsigned value above INT64_MAX is kept in `u`).
struct IntValue {
  bool isSigned;
  int64_t s;
  uint64_t u;
};

inline IntValue loadInt(const HostArray &a, int64_t i) {
  switch (a.dtype()) {
  case DType::I8:
    return {true, loadAs<int8_t>(a, i), 0};
  case DType::I16:
    return {true, loadAs<int16_t>(a, i), 0};
  case DType::I32:
    return {true, loadAs<int32_t>(a, i), 0};
  case DType::I64:
    return {true, loadAs<int64_t>(a, i), 0};
  case DType::U8:
    return {false, 0, loadAs<uint8_t>(a, i)};
  case DType::U16:
    return {false, 0, loadAs<uint16_t>(a, i)};
  case DType::U32:
    return {false, 0, loadAs<uint32_t>(a, i)};
  case DType::U64:
    return {false, 0, loadAs<uint64_t>(a, i)};
  default: // i1: any non-zero byte is true, as numpy reads it
    return {false, 0, loadAs<uint8_t>(a, i) != 0 ? 1u : 0u};
  }
}

} // namespace fuel::rt::detail

#endif // FUEL_RUNTIME_NPY_ELEMENTACCESS_H
