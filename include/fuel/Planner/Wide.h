//===- Wide.h - 128-bit integer arithmetic of the planner ----- -*- C++ -*-===//
//
// The one place the planner names a 128-bit integer type. Exact transfer
// terms (SEMANTICS §2), size-class products (§4), crowding differences (§7)
// and the placement solvers' unsaturated sums (§5) need more than 64 bits;
// this header gives them two types and the few operations they use: a full
// 64 x 64-bit product, a saturating 128-bit product, ceiling division,
// clamping back to int64 and floor(log2). Sums, differences and comparisons
// are the types' own operators.
//
// Supported compilers: those that provide `__int128` on the target, i.e.
// clang >= 16 and GCC >= 12 on 64-bit targets (x86-64, AArch64, RISC-V 64;
// built and tested with clang 22 and GCC 12). MSVC and 32-bit targets have
// no 128-bit integer type and are refused below.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_WIDE_H
#define FUEL_PLANNER_WIDE_H

#include "llvm/ADT/bit.h"

#include <cstdint>
#include <limits>

#if !defined(__SIZEOF_INT128__)
#error                                                                         \
    "fuel's planner needs a 128-bit integer type (clang >= 16 or GCC >= 12 on a 64-bit target)"
#endif

namespace fuel::plan {

/// Signed 128-bit integer: exact sums and differences of int64 and uint64
/// terms.
using Int128 = __int128;
/// Unsigned 128-bit integer: exact products of two uint64 values.
using UInt128 = unsigned __int128;

/// The largest UInt128.
inline constexpr UInt128 kUInt128Max = ~UInt128(0);

/// a * b without overflow: the product of two 64-bit values fits in 128
/// bits.
inline constexpr UInt128 mulFull(uint64_t a, uint64_t b) {
  return UInt128(a) * UInt128(b);
}

/// a * b, saturating at kUInt128Max.
inline constexpr UInt128 satMul(UInt128 a, UInt128 b) {
  if (a != 0 && b > kUInt128Max / a)
    return kUInt128Max;
  return a * b;
}

/// ceil(num / den) for den > 0.
inline constexpr UInt128 ceilDiv(UInt128 num, UInt128 den) {
  return num / den + (num % den != 0 ? 1 : 0);
}

/// `w` clamped to [INT64_MIN, INT64_MAX].
inline constexpr int64_t clampToInt64(Int128 w) {
  if (w > Int128(std::numeric_limits<int64_t>::max()))
    return std::numeric_limits<int64_t>::max();
  if (w < Int128(std::numeric_limits<int64_t>::min()))
    return std::numeric_limits<int64_t>::min();
  return int64_t(w);
}

/// floor(log2(max(x, 1))): 0 for x <= 1, at most 127.
inline unsigned floorLog2(UInt128 x) {
  if (x <= 1)
    return 0;
  uint64_t hi = uint64_t(x >> 64);
  if (hi)
    return 64 + 63 - unsigned(llvm::countl_zero(hi));
  return 63 - unsigned(llvm::countl_zero(uint64_t(x)));
}

} // namespace fuel::plan

#endif // FUEL_PLANNER_WIDE_H
