//===- PlannerTestUtil.h - Helpers shared by the planner tests --*- C++ -*-===//
//
// Part of FuelPlannerTestSupport, the test-support library of the planner
// (lib/Planner/Testing): candidate builders and a deterministic random
// source. The mapping from
// 64-bit words to ranges is written out here: std::uniform_*_distribution is
// implementation-defined, and these tests must draw the same sets on every
// standard library.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_TESTING_PLANNERTESTUTIL_H
#define FUEL_PLANNER_TESTING_PLANNERTESTUTIL_H

#include "fuel/Planner/Candidate.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace fuel::plan::testing {

/// A candidate with the fields the winner order and retention read.
inline Candidate makeCandidate(std::string id, Device device, int64_t timeNs,
                               std::string source = "generated",
                               uint64_t hostBytes = 0, uint64_t deviceBytes = 0,
                               Precision precision = Precision()) {
  Candidate c;
  c.kernelId = std::move(id);
  c.device = device;
  c.timeNs = timeNs;
  c.kernelSource = std::move(source);
  c.hostBytes = hostBytes;
  c.deviceBytes = deviceBytes;
  c.precision = std::move(precision);
  return c;
}

/// Deterministic draws from a fixed-seed std::mt19937_64 (whose output
/// sequence the standard fixes).
class Rng {
public:
  explicit Rng(uint64_t seed) : engine(seed) {}
  /// A value in [0, n); n > 0. The modulo bias is irrelevant for tests and
  /// keeps the mapping obvious.
  uint64_t below(uint64_t n) { return engine() % n; }
  /// A value in [lo, hi].
  int64_t between(int64_t lo, int64_t hi) {
    return lo + int64_t(below(uint64_t(hi - lo) + 1));
  }
  bool coin() { return (engine() >> 63) != 0; }
  /// Fisher-Yates with our own mapping (std::shuffle's use of the engine is
  /// implementation-defined).
  template <typename T> void shuffle(std::vector<T> &v) {
    for (size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[below(i)]);
  }

private:
  std::mt19937_64 engine;
};

} // namespace fuel::plan::testing

#endif // FUEL_PLANNER_TESTING_PLANNERTESTUTIL_H
