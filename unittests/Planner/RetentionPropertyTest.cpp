//===- RetentionPropertyTest.cpp - Retention over random sets -------------===//
//
// Property tests of SEMANTICS §7 over thousands of random candidate sets
// drawn from fixed seeds: every invariant the section lists, agreement with
// a direct, slow transcription of the rule, and independence from the input
// order (shuffle, rank, retain, compare).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/PlannerTestUtil.h"

#include "fuel/Planner/Retention.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

using namespace fuel::plan;
using fuel::plan::testing::makeCandidate;
using fuel::plan::testing::Rng;

namespace {

const Device kDevicePool[] = {Device::cpu(), Device::cuda(0), Device::cuda(1),
                              Device::vulkan(0)};
const char *const kSourcePool[] = {"generated", "openblas", "blis", "cublas"};

Precision randomPrecision(Rng &rng) {
  Precision p;
  switch (rng.below(8)) {
  case 0:
    return Precision::reference();
  case 1:
    return Precision::deterministic();
  case 2:
    p.maxUlp = rng.below(4);
    p.bitStable = rng.coin();
    return p;
  case 3:
    p.maxRelative = rng.coin() ? 1e-3 : 1e-6;
    return p;
  default:
    return p;
  }
}

/// A random set: few distinct values on each axis so ties, duplicates and
/// dominance all happen often; `wide` draws spread-out times instead.
struct RandomSet {
  std::vector<Candidate> candidates;
  Device decision;
  unsigned keep;
};

RandomSet randomSet(Rng &rng, unsigned maxSize) {
  RandomSet s;
  unsigned numDevices = 1 + rng.below(4);
  unsigned numSources = 1 + rng.below(4);
  bool wide = rng.coin();
  unsigned n = 1 + rng.below(maxSize);
  for (unsigned i = 0; i < n; ++i) {
    Device d = kDevicePool[rng.below(numDevices)];
    int64_t time = wide ? rng.between(0, 1'000'000) : rng.between(0, 12);
    uint64_t host = rng.below(wide ? 1 << 20 : 4);
    uint64_t dev = d.isHost() ? 0 : rng.below(wide ? 1 << 20 : 4);
    Candidate c = makeCandidate("k" + std::to_string(i), d, time,
                                kSourcePool[rng.below(numSources)], host, dev,
                                randomPrecision(rng));
    c.registryPriority = rng.between(-1, 1);
    s.candidates.push_back(std::move(c));
  }
  s.decision = kDevicePool[rng.below(numDevices)];
  static const unsigned keeps[] = {0, 1, 2, 3, 4, 6, 8, 32};
  s.keep = keeps[rng.below(8)];
  return s;
}

/// A direct transcription of SEMANTICS §7 over a ranked input, written
/// independently of lib/Planner/Retention.cpp: plain loops, std::stable_sort
/// of rank-ordered members by value, recomputed every round.
std::vector<unsigned> referenceRetain(const std::vector<Candidate> &ranked,
                                      unsigned keep) {
  if (keep == 0)
    keep = 1;
  size_t n = ranked.size();
  std::vector<CostVector> cv;
  for (const Candidate &c : ranked)
    cv.push_back(costVector(c));
  std::vector<bool> alive(n, true);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j && ranked[i].device == ranked[j].device &&
          dominates(cv[j], cv[i]))
        alive[i] = false;
  std::map<std::pair<Device, std::string>, std::vector<unsigned>> groups;
  for (unsigned i = 0; i < n; ++i)
    groups[{ranked[i].device, ranked[i].kernelSource}].push_back(i);
  for (auto &[key, members] : groups) {
    bool any = false;
    for (unsigned i : members)
      any = any || alive[i];
    if (!any)
      alive[members.front()] = true;
  }
  std::set<Device> devices;
  for (const Candidate &c : ranked)
    devices.insert(c.device);
  for (Device d : devices) {
    unsigned best = n;
    for (unsigned i = 0; i < n; ++i)
      if (ranked[i].device == d) {
        best = i;
        break;
      }
    for (;;) {
      std::vector<unsigned> members;
      for (unsigned i = 0; i < n; ++i)
        if (alive[i] && ranked[i].device == d)
          members.push_back(i);
      if (members.size() <= keep)
        break;
      std::map<unsigned, double> dist;
      for (unsigned i : members)
        dist[i] = 0;
      for (int axis = 0; axis < 5; ++axis) {
        auto value = [&](unsigned i) -> double {
          const CostVector &v = cv[i];
          switch (axis) {
          case 0:
            return double(v.timeNs);
          case 1:
            return double(v.hostBytes);
          case 2:
            return double(v.deviceBytes);
          case 3:
            return v.precisionDigits;
          default:
            return v.accuracyClass;
          }
        };
        std::vector<unsigned> order = members;
        std::stable_sort(
            order.begin(), order.end(),
            [&](unsigned a, unsigned b) { return value(a) < value(b); });
        double range = value(order.back()) - value(order.front());
        if (range == 0)
          continue;
        dist[order.front()] = std::numeric_limits<double>::infinity();
        dist[order.back()] = std::numeric_limits<double>::infinity();
        for (size_t k = 1; k + 1 < order.size(); ++k)
          dist[order[k]] += (value(order[k + 1]) - value(order[k - 1])) / range;
      }
      int victim = -1;
      for (unsigned i : members) {
        if (i == 0 || i == best)
          continue;
        unsigned sameSource = 0;
        for (unsigned o : members)
          sameSource += ranked[o].kernelSource == ranked[i].kernelSource;
        if (sameSource == 1)
          continue;
        if (victim < 0 || dist[i] < dist[victim] ||
            (dist[i] == dist[victim] && int(i) > victim))
          victim = i;
      }
      if (victim < 0)
        break;
      alive[victim] = false;
    }
  }
  std::vector<unsigned> kept;
  for (unsigned i = 0; i < n; ++i)
    if (alive[i])
      kept.push_back(i);
  return kept;
}

/// Checks every invariant of SEMANTICS §7 on one retained set.
void checkInvariants(const std::vector<Candidate> &ranked,
                     const std::vector<Candidate> &kept,
                     const RetentionReport &report, unsigned keep,
                     Device decision) {
  unsigned cap = keep == 0 ? 1 : keep;
  ASSERT_EQ(kept.size(), report.keptRankIndices.size());
  ASSERT_FALSE(kept.empty());
  // Winner at index 0.
  EXPECT_EQ(report.keptRankIndices[0], 0u);
  EXPECT_EQ(kept[0], ranked[0]);
  // Re-ranked by the winner order.
  for (size_t i = 1; i < kept.size(); ++i)
    EXPECT_FALSE(winnerLess(kept[i], kept[i - 1], decision));
  std::map<Device, unsigned> bucketSize, bestOf;
  for (unsigned i = 0; i < ranked.size(); ++i)
    bestOf.emplace(ranked[i].device, i);
  std::set<unsigned> keptSet(report.keptRankIndices.begin(),
                             report.keptRankIndices.end());
  for (unsigned i : report.keptRankIndices)
    ++bucketSize[ranked[i].device];
  for (const auto &[device, best] : bestOf) {
    // No bucket empty; each bucket's best kept.
    EXPECT_GT(bucketSize[device], 0u) << device.str();
    EXPECT_TRUE(keptSet.count(best)) << device.str();
    // Each bucket <= keep unless protection forced more, and then it is
    // reported and every member is protected.
    bool reported = std::count(report.overCapDevices.begin(),
                               report.overCapDevices.end(), device) != 0;
    EXPECT_EQ(bucketSize[device] > cap, reported) << device.str();
    if (reported) {
      for (unsigned i : report.keptRankIndices) {
        if (ranked[i].device != device || i == 0 || i == best)
          continue;
        unsigned sameSource = 0;
        for (unsigned o : report.keptRankIndices)
          sameSource += ranked[o].device == device &&
                        ranked[o].kernelSource == ranked[i].kernelSource;
        EXPECT_EQ(sameSource, 1u) << "unprotected member over the cap";
      }
    }
  }
  // No (device, kernel source) stranded.
  std::set<std::pair<Device, std::string>> inputGroups, keptGroups;
  for (const Candidate &c : ranked)
    inputGroups.insert({c.device, c.kernelSource});
  for (const Candidate &c : kept)
    keptGroups.insert({c.device, c.kernelSource});
  EXPECT_EQ(inputGroups, keptGroups);
  // Every kept candidate is on its bucket's frontier, or is the re-admitted
  // best of a (device, source) with no frontier member.
  for (unsigned i : report.keptRankIndices) {
    bool dominated = false;
    for (unsigned j = 0; j < ranked.size() && !dominated; ++j)
      dominated = ranked[j].device == ranked[i].device &&
                  dominates(costVector(ranked[j]), costVector(ranked[i]));
    if (!dominated)
      continue;
    for (unsigned j = 0; j < ranked.size(); ++j) {
      if (ranked[j].device != ranked[i].device ||
          ranked[j].kernelSource != ranked[i].kernelSource)
        continue;
      EXPECT_LE(i, j) << "re-admitted candidate is not its group's best";
    }
  }
}

TEST(RetentionPropertyTest, InvariantsAndReferenceAgreement) {
  Rng rng(0x5eed'f00d'2024'0001ull);
  unsigned overCapSeen = 0, crowdedSeen = 0, readmittedSeen = 0;
  for (unsigned iter = 0; iter < 4000; ++iter) {
    RandomSet s = randomSet(rng, 64);
    std::vector<Candidate> ranked = s.candidates;
    rank(ranked, s.decision);
    std::vector<Candidate> kept = ranked;
    RetentionReport report = retainFrontier(kept, s.keep, s.decision);
    checkInvariants(ranked, kept, report, s.keep, s.decision);
    std::vector<unsigned> expected = referenceRetain(ranked, s.keep);
    std::vector<unsigned> got = report.keptRankIndices;
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, expected) << "iteration " << iter;
    overCapSeen += report.overCap();
    crowdedSeen += report.droppedCrowded != 0;
    readmittedSeen += report.readmitted != 0;
    if (HasFailure())
      FAIL() << "iteration " << iter;
  }
  // The generator exercises every branch of the rule.
  EXPECT_GT(overCapSeen, 50u);
  EXPECT_GT(crowdedSeen, 500u);
  EXPECT_GT(readmittedSeen, 50u);
}

TEST(RetentionPropertyTest, IndependentOfInputOrder) {
  Rng rng(0x0dd5'eed5'0000'0002ull);
  for (unsigned iter = 0; iter < 3000; ++iter) {
    RandomSet s = randomSet(rng, 48);
    std::vector<Candidate> a = s.candidates;
    rank(a, s.decision);
    retainFrontier(a, s.keep, s.decision);
    std::vector<Candidate> b = s.candidates;
    rng.shuffle(b);
    rank(b, s.decision);
    retainFrontier(b, s.keep, s.decision);
    ASSERT_EQ(a, b) << "iteration " << iter;
  }
}

TEST(RetentionPropertyTest, RankIsIndependentOfInputOrder) {
  Rng rng(0x0dd5'eed5'0000'0003ull);
  for (unsigned iter = 0; iter < 2000; ++iter) {
    RandomSet s = randomSet(rng, 64);
    std::vector<Candidate> a = s.candidates;
    rank(a, s.decision);
    std::vector<Candidate> b = s.candidates;
    rng.shuffle(b);
    rank(b, s.decision);
    ASSERT_EQ(a, b) << "iteration " << iter;
    // The winner order is total on distinct kernel ids: strictly increasing.
    for (size_t i = 1; i < a.size(); ++i)
      ASSERT_TRUE(winnerLess(a[i - 1], a[i], s.decision));
  }
}

TEST(RetentionPropertyTest, RetentionIsIdempotent) {
  Rng rng(0x1de0'0000'0000'0004ull);
  for (unsigned iter = 0; iter < 1000; ++iter) {
    RandomSet s = randomSet(rng, 64);
    std::vector<Candidate> once = s.candidates;
    rank(once, s.decision);
    retainFrontier(once, s.keep, s.decision);
    std::vector<Candidate> twice = once;
    retainFrontier(twice, s.keep, s.decision);
    ASSERT_EQ(once, twice) << "iteration " << iter;
  }
}

} // namespace
