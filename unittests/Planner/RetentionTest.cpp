//===- RetentionTest.cpp - Exact cases of the retention rule --------------===//
//
// SEMANTICS §7 step by step: the frontier, never stranding a kernel source,
// protection, the crowding choice and its tie-break, keep = 0, and the
// over-cap report.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/PlannerTestUtil.h"

#include "fuel/Planner/Retention.h"

#include "gtest/gtest.h"

using namespace fuel::plan;
using fuel::plan::testing::makeCandidate;

namespace {

using Ids = std::vector<std::string>;
using Indices = std::vector<unsigned>;

std::vector<std::string> ids(const std::vector<Candidate> &cands) {
  std::vector<std::string> out;
  for (const Candidate &c : cands)
    out.push_back(c.kernelId);
  return out;
}

/// Ranks, then retains; returns the report and leaves the result in `c`.
RetentionReport rankAndRetain(std::vector<Candidate> &c, unsigned keep,
                              Device decision = Device::cpu()) {
  rank(c, decision);
  return retainFrontier(c, keep, decision);
}

TEST(RetentionTest, EmptyInput) {
  std::vector<Candidate> none;
  RetentionReport r = retainFrontier(none, 4, Device::cpu());
  EXPECT_TRUE(none.empty());
  EXPECT_TRUE(r.keptRankIndices.empty());
  EXPECT_FALSE(r.overCap());
}

TEST(RetentionTest, ParetoFrontierPerDevice) {
  std::vector<Candidate> c = {
      makeCandidate("a", Device::cpu(), 10, "generated", 100),
      makeCandidate("b", Device::cpu(), 20, "generated", 50),
      // Dominated by a on the cpu bucket.
      makeCandidate("c", Device::cpu(), 30, "generated", 200),
      // Worse than a everywhere, but alone on its device: a bucket is never
      // compared with another.
      makeCandidate("d", Device::cuda(0), 40, "generated", 300)};
  RetentionReport r = rankAndRetain(c, 32);
  EXPECT_EQ(ids(c), (Ids{"a", "b", "d"}));
  EXPECT_EQ(r.keptRankIndices, (Indices{0, 1, 3}));
  EXPECT_EQ(r.droppedDominated, 1u);
  EXPECT_EQ(r.readmitted, 0u);
  EXPECT_EQ(r.droppedCrowded, 0u);
  EXPECT_FALSE(r.overCap());
}

TEST(RetentionTest, NeverStrandAKernelSource) {
  std::vector<Candidate> c = {
      makeCandidate("gen.a", Device::cpu(), 10, "generated", 100),
      makeCandidate("gen.b", Device::cpu(), 20, "generated", 50),
      // Both blis variants are dominated by gen.a; the better one returns.
      makeCandidate("blis.a", Device::cpu(), 30, "blis", 200),
      makeCandidate("blis.b", Device::cpu(), 31, "blis", 200)};
  RetentionReport r = rankAndRetain(c, 32);
  EXPECT_EQ(ids(c), (Ids{"gen.a", "gen.b", "blis.a"}));
  EXPECT_EQ(r.readmitted, 1u);
  EXPECT_EQ(r.droppedDominated, 1u);
}

TEST(RetentionTest, SourcesAreStrandedPerDevice) {
  // The same source on two devices is two groups.
  std::vector<Candidate> c = {
      makeCandidate("cpu.gen", Device::cpu(), 10, "generated"),
      makeCandidate("cpu.blis", Device::cpu(), 20, "blis"),
      makeCandidate("cuda.gen", Device::cuda(0), 5, "generated"),
      makeCandidate("cuda.blis", Device::cuda(0), 6, "blis")};
  rankAndRetain(c, 32);
  EXPECT_EQ(ids(c), (Ids{"cuda.gen", "cuda.blis", "cpu.gen", "cpu.blis"}));
}

/// Four mutually non-dominated cpu candidates of one source on a time /
/// host-bytes trade-off.
std::vector<Candidate> tradeoff(std::vector<uint64_t> hostBytes) {
  std::vector<Candidate> c;
  for (unsigned i = 0; i < hostBytes.size(); ++i)
    c.push_back(makeCandidate("k" + std::to_string(i), Device::cpu(),
                              10 * (i + 1), "generated", hostBytes[i]));
  return c;
}

TEST(RetentionTest, CrowdingDropsTheMostCrowded) {
  // time 10,20,30,40 (range 30); host 40,30,29,10 (range 30).
  // k1: 20/30 + 11/30 = 31/30; k2: 20/30 + 20/30 = 40/30. k1 goes.
  std::vector<Candidate> c = tradeoff({40, 30, 29, 10});
  RetentionReport r = rankAndRetain(c, 3);
  EXPECT_EQ(ids(c), (Ids{"k0", "k2", "k3"}));
  EXPECT_EQ(r.droppedCrowded, 1u);
  EXPECT_FALSE(r.overCap());
}

TEST(RetentionTest, CrowdingTieDropsTheHighestRankIndex) {
  // Symmetric: k1 and k2 both have distance 40/30.
  std::vector<Candidate> c = tradeoff({40, 30, 20, 10});
  rankAndRetain(c, 3);
  EXPECT_EQ(ids(c), (Ids{"k0", "k1", "k3"}));
}

TEST(RetentionTest, BoundaryPointsGoLastThenByRankIndex) {
  // keep 1 with one source: only the bucket's best is protected. First the
  // tied interior pair loses its higher rank index (k2), then k1 (distance
  // 2 against a boundary's infinity), then the last boundary point k3.
  std::vector<Candidate> c = tradeoff({40, 30, 20, 10});
  RetentionReport r = rankAndRetain(c, 1);
  EXPECT_EQ(ids(c), (Ids{"k0"}));
  EXPECT_EQ(r.droppedCrowded, 3u);
  EXPECT_FALSE(r.overCap());
}

TEST(RetentionTest, KeepZeroMeansOne) {
  std::vector<Candidate> a = tradeoff({40, 30, 20, 10});
  std::vector<Candidate> b = a;
  rankAndRetain(a, 0);
  rankAndRetain(b, 1);
  EXPECT_EQ(ids(a), (Ids{"k0"}));
  EXPECT_EQ(a, b);
}

TEST(RetentionTest, LastOfItsSourceIsProtected) {
  // k1 is the only blis kernel: with keep 2 the crowding would pick it
  // (31/30 is the smallest distance), but it is protected, so k2 goes, and
  // then k3 (a boundary point, the highest rank index of the unprotected).
  std::vector<Candidate> c = tradeoff({40, 30, 29, 10});
  c[1].kernelSource = "blis";
  RetentionReport r = rankAndRetain(c, 2);
  EXPECT_EQ(ids(c), (Ids{"k0", "k1"}));
  EXPECT_EQ(r.droppedCrowded, 2u);
}

TEST(RetentionTest, WinnerAndBucketBestAreProtected) {
  // Winner on cuda; the cpu bucket's best is kept even with keep 1, and the
  // winner's bucket keeps the winner although it has a crowded neighbour.
  std::vector<Candidate> c = {
      makeCandidate("cuda.win", Device::cuda(0), 1, "generated", 0, 50),
      makeCandidate("cuda.b", Device::cuda(0), 2, "generated", 0, 40),
      makeCandidate("cuda.c", Device::cuda(0), 3, "generated", 0, 10),
      makeCandidate("cpu.best", Device::cpu(), 10, "generated", 30),
      makeCandidate("cpu.b", Device::cpu(), 11, "generated", 20)};
  RetentionReport r = rankAndRetain(c, 1);
  EXPECT_EQ(ids(c), (Ids{"cuda.win", "cpu.best"}));
  EXPECT_EQ(r.keptRankIndices, (Indices{0, 3}));
  EXPECT_FALSE(r.overCap());
}

TEST(RetentionTest, OverCapIsReported) {
  // Three sources on cpu, each with one frontier member, keep 1: all three
  // are protected, so the bucket stays at 3 and the report says so.
  std::vector<Candidate> c = {
      makeCandidate("gen", Device::cpu(), 10, "generated", 30),
      makeCandidate("blas", Device::cpu(), 20, "openblas", 20),
      makeCandidate("blis", Device::cpu(), 30, "blis", 10),
      makeCandidate("cuda", Device::cuda(0), 1, "generated")};
  RetentionReport r = rankAndRetain(c, 1);
  EXPECT_EQ(ids(c), (Ids{"cuda", "gen", "blas", "blis"}));
  EXPECT_TRUE(r.overCap());
  EXPECT_EQ(r.overCapDevices, (std::vector<Device>{Device::cpu()}));
  EXPECT_EQ(r.overCapExcess, 2u);
  EXPECT_EQ(r.droppedCrowded, 0u);
}

TEST(RetentionTest, OutputIsRerankedAndIndicesAreNeverRenumbered) {
  // The input is ranked; the output keeps the winner order and reports the
  // original rank indices.
  std::vector<Candidate> c = {
      makeCandidate("a", Device::cpu(), 10, "generated", 100),
      makeCandidate("dominated", Device::cpu(), 11, "generated", 100),
      makeCandidate("b", Device::cuda(0), 12, "generated", 1),
      makeCandidate("c", Device::cpu(), 13, "generated", 50)};
  RetentionReport r = rankAndRetain(c, 32);
  EXPECT_EQ(ids(c), (Ids{"a", "b", "c"}));
  EXPECT_EQ(r.keptRankIndices, (Indices{0, 2, 3}));
}

TEST(RetentionTest, UnrankedInputComesOutRanked) {
  std::vector<Candidate> c = {makeCandidate("slow", Device::cpu(), 20, "g", 1),
                              makeCandidate("fast", Device::cpu(), 10, "g", 2)};
  RetentionReport r = retainFrontier(c, 32, Device::cpu());
  EXPECT_EQ(ids(c), (Ids{"fast", "slow"}));
  EXPECT_EQ(r.keptRankIndices, (Indices{1, 0}));
}

TEST(RetentionTest, IndexInterface) {
  std::vector<CostVector> costs = {{10, 40, 0, 0, 0},
                                   {20, 30, 0, 0, 0},
                                   {30, 29, 0, 0, 0},
                                   {40, 10, 0, 0, 0},
                                   {50, 50, 0, 0, 0}};
  std::vector<Device> devices(5, Device::cpu());
  std::vector<uint32_t> sources = {0, 0, 0, 0, 1};
  RetentionReport r = retainFrontierIndices(costs, devices, sources, 3);
  // Index 4 is dominated by index 0 but alone of source 1: re-admitted and
  // protected. Crowding over {0..4}: 1 has 0.5 + 11/40 (smallest), so it
  // goes; over {0, 2, 3, 4}: 2 has 30/40 + 30/40, 3 is a boundary, so 2
  // goes.
  EXPECT_EQ(r.readmitted, 1u);
  EXPECT_EQ(r.droppedDominated, 0u);
  EXPECT_EQ(r.droppedCrowded, 2u);
  EXPECT_EQ(r.keptRankIndices, (Indices{0, 3, 4}));
}

} // namespace
