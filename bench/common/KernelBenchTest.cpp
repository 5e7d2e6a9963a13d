//===- KernelBenchTest.cpp - Tests of the kernel benchmarks support -------===//
//
// What the benchmarks' figures rest on: statistics, the comparison with the
// reference, the patterns, alignment, the reference sgemm, and the order,
// counts and cool-downs of interleaved rounds. No timing is asserted beyond
// the cool-down's lower bound.
//
//===----------------------------------------------------------------------===//

#include "KernelBench.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace fuel::bench;

namespace {

TEST(KernelBenchStats, BestAndMedian) {
  Stats s = statsOf({5, 1, 4, 2, 3});
  EXPECT_EQ(s.best, 1);
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.samples, 5u);
  // An even count takes the mean of the middle two.
  EXPECT_EQ(statsOf({4, 1, 3, 2}).median, 2.5);
  EXPECT_EQ(statsOf({}).samples, 0u);
}

TEST(KernelBenchCheck, MismatchScalesByTolerance) {
  float ref[3] = {1, 100, -2};
  float same[3] = {1, 100, -2};
  float off[3] = {1, 100.5f, -2};
  EXPECT_EQ(mismatch(same, ref, 3, 1e-4, 1e-4), 0);
  uint64_t worst = 7;
  // |0.5| / (1e-4 + 1e-4 * 100) = 49.5: a mismatch at element 1.
  EXPECT_NEAR(mismatch(off, ref, 3, 1e-4, 1e-4, &worst), 0.5 / 0.0101, 1e-3);
  EXPECT_EQ(worst, 1u);
  EXPECT_LE(mismatch(off, ref, 3, 1e-2, 0), 1);
  float nan[3] = {1, NAN, -2};
  EXPECT_TRUE(std::isinf(mismatch(nan, ref, 3, 1, 1, &worst)));
  EXPECT_EQ(worst, 1u);
}

TEST(KernelBenchFloats, AlignedZeroedAndPatterned) {
  Floats a(1001), b(1001), c(1001);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data()) % 64, 0u);
  EXPECT_EQ(a.bytes(), 4004u);
  for (uint64_t i = 0; i < a.size(); ++i)
    ASSERT_EQ(a[i], 0.0f);
  a.fillPattern(3);
  b.fillPattern(3);
  c.fillPattern(4);
  bool differs = false;
  for (uint64_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i], b[i]) << i; // deterministic
    ASSERT_GE(a[i], -1.0f);
    ASSERT_LT(a[i], 1.0f);
    // Multiples of 1/16, so that products and their sums are exact.
    ASSERT_EQ(a[i] * 16, std::floor(a[i] * 16));
    differs |= a[i] != c[i];
  }
  EXPECT_TRUE(differs);
}

TEST(KernelBenchReference, Sgemm) {
  // [1 2; 3 4] * [5 6 7; 8 9 10].
  float a[4] = {1, 2, 3, 4}, b[6] = {5, 6, 7, 8, 9, 10}, c[6];
  referenceSgemm(2, 3, 2, a, b, c);
  float want[6] = {21, 24, 27, 47, 54, 61};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(c[i], want[i]) << i;
}

TEST(KernelBenchRounds, InterleavedWithCoolDownBetweenPools) {
  std::vector<std::string> log;
  std::vector<Contender> cs = {
      {"a", "p", [&] { log.push_back("a"); }},
      {"b", "p", [&] { log.push_back("b"); }},
      {"c", "q", [&] { log.push_back("c"); }},
  };
  RoundOptions o;
  o.rounds = 3;
  o.warmupCalls = 1;
  o.burstMs = 0;
  o.minCalls = 2;
  o.coolDownMs = 20;
  uint64_t t0 = nowNs();
  Timings t = timeInterleaved(cs, o);
  double ms = double(nowNs() - t0) / 1e6;
  // Warm-up once each, then per round two calls of a, b, c in order.
  std::vector<std::string> want = {"a", "b", "c"};
  for (int r = 0; r < 3; ++r)
    for (const char *n : {"a", "a", "b", "b", "c", "c"})
      want.push_back(n);
  EXPECT_EQ(log, want);
  ASSERT_EQ(t.rounds.size(), 3u);
  for (const auto &c : t.rounds) {
    ASSERT_EQ(c.size(), 3u);
    for (const auto &r : c)
      EXPECT_EQ(r.size(), 2u);
  }
  EXPECT_EQ(t.samples(2).size(), 6u);
  // Pool changes b -> c in each round and c -> a between rounds: 5
  // cool-downs, none between a and b.
  EXPECT_GE(ms, 5 * 20.0);
  EXPECT_EQ(runInterleaved(cs, o).size(), 3u);
}

TEST(KernelBenchRounds, BurstStopsAtMaxCalls) {
  unsigned calls = 0;
  RoundOptions o;
  o.rounds = 2;
  o.warmupCalls = 0;
  o.burstMs = 1e9;
  o.maxCalls = 4;
  Timings t = timeInterleaved({{"x", "p", [&] { ++calls; }}}, o);
  EXPECT_EQ(calls, 8u);
  EXPECT_EQ(t.stats(0).samples, 8u);
}

TEST(KernelBenchRounds, PairedRatioIsTheMedianOfPerRoundRatios) {
  Timings t;
  // Round medians: base 1, 2, 4; c 2, 2, 12 -> ratios 2, 1, 3 -> median 2.
  t.rounds = {{{1}, {2}, {4}}, {{2}, {2}, {12}}};
  EXPECT_EQ(t.pairedRatio(1, 0), 2);
  EXPECT_EQ(t.pairedRatio(0, 0), 1);
}

TEST(KernelBenchCpu, FlagsAndCores) {
  EXPECT_GE(coreCount(), 1u);
  EXPECT_FALSE(cpuHasFlag("no-such-cpu-flag"));
  // Every x86-64 CPU has SSE2.
#if defined(__x86_64__)
  EXPECT_TRUE(cpuHasFlag("sse2"));
#endif
}

} // namespace
