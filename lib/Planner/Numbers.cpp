//===- Numbers.cpp - Exact integer arithmetic of the cost model -----------===//
//
// Roofline ceilings and exact transfer terms (SEMANTICS §2).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Numbers.h"
#include "fuel/Planner/Wide.h"

#include <cmath>

namespace fuel::plan {

int64_t ceilToNs(double q) {
  if (std::isnan(q))
    return kMaxNs;
  if (q <= 0)
    return 0;
  double c = std::ceil(q);
  // 2^63 is the first double that does not fit in int64; every double below
  // it converts exactly after ceil.
  if (c >= 9223372036854775808.0)
    return kMaxNs;
  return static_cast<int64_t>(c);
}

int64_t transferNs(uint64_t bytes, int64_t bandwidthBytesPerSec) {
  if (bytes == 0)
    return 0;
  if (bandwidthBytesPerSec <= 0)
    return kMaxNs;
  // bytes < 2^64 and 10^9 < 2^30, so the product fits in 94 bits.
  UInt128 q = ceilDiv(mulFull(bytes, 1000000000u),
                      UInt128(uint64_t(bandwidthBytesPerSec)));
  if (q > UInt128(kMaxNs))
    return kMaxNs;
  return static_cast<int64_t>(q);
}

} // namespace fuel::plan
