//===- MeasuredTieTest.cpp - Ties within noise among measured candidates --===//
//
// SEMANTICS §6 "Measured ties": the bound (2% of the fastest, or both
// noises), the tie block ordered by Layer-1 times at the fastest one's
// place, a triple whose pairwise relations are not transitive, devices kept
// apart, and the same ranking under every input permutation.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/PlannerTestUtil.h"

#include "fuel/Planner/Candidate.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace fuel::plan;
using fuel::plan::testing::makeCandidate;

namespace {

using Ids = std::vector<std::string>;

/// A measured candidate: `timeNs` measured, `layer1` its static time.
Candidate measured(std::string id, Device device, int64_t timeNs,
                   int64_t layer1, int64_t noise = 0) {
  Candidate c = makeCandidate(std::move(id), device, timeNs);
  c.timeSource = TimeSource::Measured;
  c.staticTimeNs = layer1;
  c.noiseNs = noise;
  return c;
}

Ids rankedIds(std::vector<Candidate> cands, Device decision = Device::cpu()) {
  rank(cands, decision);
  Ids ids;
  for (const Candidate &c : cands)
    ids.push_back(c.kernelId);
  return ids;
}

TEST(MeasuredTieTest, TheBoundIsTwoPercentOrBothNoises) {
  Candidate fast = measured("f", Device::cpu(), 1000, 0, 3);
  // 2% of 1000 = 20.
  EXPECT_TRUE(withinMeasuredTie(measured("a", Device::cpu(), 1020, 0), fast));
  EXPECT_FALSE(withinMeasuredTie(measured("a", Device::cpu(), 1021, 0), fast));
  // Noise 3 + 20 = 23 >= 23: the noise bound is larger here.
  EXPECT_TRUE(
      withinMeasuredTie(measured("a", Device::cpu(), 1023, 0, 20), fast));
  EXPECT_FALSE(
      withinMeasuredTie(measured("a", Device::cpu(), 1024, 0, 20), fast));
  // Equal or faster always ties.
  EXPECT_TRUE(withinMeasuredTie(measured("a", Device::cpu(), 1000, 0), fast));
  // No overflow near INT64_MAX.
  Candidate huge = measured("h", Device::cpu(), INT64_MAX - 10, 0, INT64_MAX);
  EXPECT_TRUE(withinMeasuredTie(
      measured("a", Device::cpu(), INT64_MAX, 0, INT64_MAX), huge));
}

TEST(MeasuredTieTest, TieBlockOrderedByLayerOneTimes) {
  // Measured: a 1000, b 1015 (tie), c 1100 (not within 2% or noise).
  // Layer 1 says b is faster than a, so b wins the tie.
  std::vector<Candidate> c = {measured("a", Device::cpu(), 1000, 900),
                              measured("b", Device::cpu(), 1015, 800),
                              measured("c", Device::cpu(), 1100, 100)};
  EXPECT_EQ(rankedIds(c), (Ids{"b", "a", "c"}));
}

TEST(MeasuredTieTest, BeyondTheBoundMeasuredTimeDecides) {
  // BLIS measured 30% faster than OpenBLAS: BLIS wins although Layer 1
  // prices it slower.
  std::vector<Candidate> c = {
      measured("cpu.openblas.matmul_f32", Device::cpu(), 1300, 1000, 10),
      measured("cpu.blis.matmul_f32", Device::cpu(), 1000, 1050, 10)};
  EXPECT_EQ(rankedIds(c),
            (Ids{"cpu.blis.matmul_f32", "cpu.openblas.matmul_f32"}));
}

TEST(MeasuredTieTest, NonTransitiveLookingTriple) {
  // a within noise of b and b within noise of c, but c not within the
  // bound of a. Membership is decided against a (the fastest) only: {a, b}
  // tie; c follows by its measured time. Layer 1 would put c first, then b.
  std::vector<Candidate> c = {measured("a", Device::cpu(), 1000, 500, 10),
                              measured("b", Device::cpu(), 1030, 300, 20),
                              measured("c", Device::cpu(), 1060, 100, 20)};
  ASSERT_TRUE(withinMeasuredTie(c[1], c[0]));  // 30 <= 10 + 20
  ASSERT_TRUE(withinMeasuredTie(c[2], c[1]));  // 30 <= 20 + 20
  ASSERT_FALSE(withinMeasuredTie(c[2], c[0])); // 60 > max(20, 30)
  EXPECT_EQ(rankedIds(c), (Ids{"b", "a", "c"}));
}

TEST(MeasuredTieTest, StaticCandidatesAndOtherDevicesKeepThePlainOrder) {
  Device vk = Device::vulkan(0);
  std::vector<Candidate> c = {
      measured("cpu.a", Device::cpu(), 1000, 700),
      measured("cpu.b", Device::cpu(), 1010, 600),
      // A static cpu candidate between them in time: not in the block.
      makeCandidate("cpu.s", Device::cpu(), 1005),
      // Another device's measured candidate, as fast: its own block.
      measured("vk.a", vk, 1000, 50),
      measured("vk.b", vk, 1500, 10),
  };
  // Plain order: cpu.a (decision device first at 1000), vk.a, cpu.s,
  // cpu.b, vk.b. The cpu block {a, b} sits at cpu.a's place, ordered by
  // Layer 1 (b 600 before a 700); vk's block is {vk.a} alone.
  EXPECT_EQ(rankedIds(c), (Ids{"cpu.b", "cpu.a", "vk.a", "cpu.s", "vk.b"}));
}

TEST(MeasuredTieTest, EqualLayerOneTimesFallBackToTheWinnerOrder) {
  std::vector<Candidate> c = {measured("z", Device::cpu(), 1000, 500),
                              measured("y", Device::cpu(), 1010, 500)};
  c[0].registryPriority = 1;
  // Same Layer-1 time: the higher priority (z) first.
  EXPECT_EQ(rankedIds(c), (Ids{"z", "y"}));
  c[0].registryPriority = 0;
  // Then kernel id bytewise.
  EXPECT_EQ(rankedIds(c), (Ids{"y", "z"}));
}

TEST(MeasuredTieTest, WithoutMeasurementsTheOrderIsThePlainOne) {
  std::vector<Candidate> c = {makeCandidate("a", Device::cpu(), 1010),
                              makeCandidate("b", Device::cpu(), 1000)};
  EXPECT_EQ(rankedIds(c), (Ids{"b", "a"}));
}

TEST(MeasuredTieTest, RankingIsIndependentOfInputOrder) {
  // Property: random sets over three devices, measured and static mixed
  // with small noises, ranked from 20 permutations each: one order.
  std::mt19937_64 rng(0x5eed17);
  const Device devices[] = {Device::cpu(), Device::vulkan(0), Device::cuda(0)};
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Candidate> cands;
    unsigned n = 2 + rng() % 9;
    for (unsigned i = 0; i < n; ++i) {
      Device d = devices[rng() % 3];
      int64_t t = 1000 + static_cast<int64_t>(rng() % 80);
      std::string id = "k" + std::to_string(i);
      if (rng() % 4 != 0)
        cands.push_back(measured(id, d, t, static_cast<int64_t>(rng() % 2000),
                                 static_cast<int64_t>(rng() % 30)));
      else
        cands.push_back(makeCandidate(id, d, t));
      cands.back().registryPriority = static_cast<int64_t>(rng() % 2);
    }
    Device decision = devices[rng() % 3];
    Ids expected = rankedIds(cands, decision);
    // The order is a permutation of the input.
    Ids sortedExpected = expected, sortedIds;
    for (const Candidate &c : cands)
      sortedIds.push_back(c.kernelId);
    std::sort(sortedExpected.begin(), sortedExpected.end());
    std::sort(sortedIds.begin(), sortedIds.end());
    ASSERT_EQ(sortedExpected, sortedIds);
    for (int p = 0; p < 20; ++p) {
      std::shuffle(cands.begin(), cands.end(), rng);
      ASSERT_EQ(rankedIds(cands, decision), expected) << "trial " << trial;
    }
    // Ranking a ranked set changes nothing (fuel-retain-frontier re-ranks).
    std::vector<Candidate> ranked = cands;
    rank(ranked, decision);
    std::vector<unsigned> again = rankOrder(ranked, decision);
    ASSERT_TRUE(std::is_sorted(again.begin(), again.end()))
        << "trial " << trial;
  }
}

} // namespace
