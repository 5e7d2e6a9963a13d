//===- Numbers.h - Exact integer arithmetic of the cost model ---*- C++ -*-===//
//
// The number rules of SEMANTICS §2: times are int64 nanoseconds and sums
// saturate at INT64_MAX; a transfer term is `ceil(bytes * 10^9 / bandwidth)`
// computed exactly in 128-bit integers; a roofline term is the `ceil` of an
// IEEE double quotient. Every layer that adds times uses these helpers, so
// every implementation and test agrees to the nanosecond.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_NUMBERS_H
#define FUEL_PLANNER_NUMBERS_H

#include <cstdint>
#include <limits>

namespace fuel::plan {

/// The saturation point of every time sum (SEMANTICS §2).
inline constexpr int64_t kMaxNs = std::numeric_limits<int64_t>::max();

/// a + b, saturating at INT64_MAX (and at INT64_MIN for negative deltas, so
/// a negative coupling delta can never wrap).
inline int64_t satAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? std::numeric_limits<int64_t>::max()
                 : std::numeric_limits<int64_t>::min();
  return r;
}

/// a + b for byte counts, saturating at UINT64_MAX.
inline uint64_t satAddU(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return std::numeric_limits<uint64_t>::max();
  return r;
}

/// a * b for byte and flop counts, saturating at UINT64_MAX.
inline uint64_t satMulU(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::numeric_limits<uint64_t>::max();
  return r;
}

/// `ceil(q)` of a non-negative IEEE double quotient as int64 nanoseconds:
/// NaN, infinity and anything at or above 2^63 saturate to INT64_MAX;
/// negative quotients give 0 (SEMANTICS §2, roofline terms).
int64_t ceilToNs(double q);

/// The exact transfer term `ceil(bytes * 10^9 / bandwidthBytesPerSec)`,
/// computed in 128-bit integers and saturated at INT64_MAX (SEMANTICS §2).
/// A non-positive bandwidth moves nothing: INT64_MAX unless bytes is 0.
int64_t transferNs(uint64_t bytes, int64_t bandwidthBytesPerSec);

/// One hop of a copy: `latency + ceil(bytes * 10^9 / bandwidth)`, saturating
/// (SEMANTICS §5).
inline int64_t hopNs(uint64_t bytes, int64_t bandwidthBytesPerSec,
                     int64_t latencyNs) {
  return satAdd(latencyNs, transferNs(bytes, bandwidthBytesPerSec));
}

} // namespace fuel::plan

#endif // FUEL_PLANNER_NUMBERS_H
