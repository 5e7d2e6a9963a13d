//===- CandidateTest.cpp - Cost vectors, dominance and the winner order ---===//
//
// SEMANTICS §6: each tie-break of the winner order on its own, dominance,
// and stable ranking (§3 step 8).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/PlannerTestUtil.h"

#include "fuel/Planner/Candidate.h"

#include "gtest/gtest.h"

using namespace fuel::plan;
using fuel::plan::testing::makeCandidate;

namespace {

std::vector<std::string> rankedIds(std::vector<Candidate> cands,
                                   Device decision) {
  rank(cands, decision);
  std::vector<std::string> ids;
  for (const Candidate &c : cands)
    ids.push_back(c.kernelId);
  return ids;
}

using Ids = std::vector<std::string>;

TEST(CandidateTest, CostVectorAndDominance) {
  Candidate c = makeCandidate("k", Device::cpu(), 100, "generated", 10, 20,
                              Precision::reference());
  CostVector v = costVector(c);
  EXPECT_EQ(v.timeNs, 100);
  EXPECT_EQ(v.hostBytes, 10u);
  EXPECT_EQ(v.deviceBytes, 20u);
  EXPECT_EQ(v.precisionDigits, 18u);
  EXPECT_EQ(v.accuracyClass, 4u);

  CostVector a{10, 5, 5, 3, 1};
  EXPECT_FALSE(dominates(a, a));
  CostVector faster = a;
  faster.timeNs = 9;
  EXPECT_TRUE(dominates(faster, a));
  EXPECT_FALSE(dominates(a, faster));
  CostVector morePrecise = a;
  morePrecise.precisionDigits = 4;
  EXPECT_TRUE(dominates(morePrecise, a));
  CostVector moreAccurate = a;
  moreAccurate.accuracyClass = 2;
  EXPECT_TRUE(dominates(moreAccurate, a));
  CostVector lessDevice = a;
  lessDevice.deviceBytes = 4;
  EXPECT_TRUE(dominates(lessDevice, a));
  // A trade-off dominates neither way.
  CostVector tradeoff = a;
  tradeoff.timeNs = 9;
  tradeoff.hostBytes = 6;
  EXPECT_FALSE(dominates(tradeoff, a));
  EXPECT_FALSE(dominates(a, tradeoff));
}

TEST(CandidateTest, WinnerOrderTimeFirst) {
  std::vector<Candidate> c = {makeCandidate("slow", Device::cpu(), 20,
                                            "generated", 0, 0,
                                            Precision::reference()),
                              makeCandidate("fast", Device::cpu(), 10)};
  EXPECT_EQ(rankedIds(c, Device::cpu()), (Ids{"fast", "slow"}));
}

TEST(CandidateTest, WinnerOrderPrecisionThenAccuracy) {
  Precision ulp0;
  ulp0.maxUlp = 0; // 18 digits, class 4.
  Precision rel18;
  rel18.maxRelative = 0.0; // 18 digits, class 0.
  std::vector<Candidate> c = {
      makeCandidate("det", Device::cpu(), 10, "g", 0, 0,
                    Precision::deterministic()), // 9 digits
      makeCandidate("rel0", Device::cpu(), 10, "g", 0, 0, rel18),
      makeCandidate("ulp0", Device::cpu(), 10, "g", 0, 0, ulp0)};
  EXPECT_EQ(rankedIds(c, Device::cpu()), (Ids{"ulp0", "rel0", "det"}));
}

TEST(CandidateTest, WinnerOrderTotalBytes) {
  std::vector<Candidate> c = {
      makeCandidate("ten", Device::cpu(), 10, "g", 10, 0),
      makeCandidate("eight", Device::cpu(), 10, "g", 4, 4),
      makeCandidate("nine", Device::cpu(), 10, "g", 0, 9)};
  EXPECT_EQ(rankedIds(c, Device::cpu()), (Ids{"eight", "nine", "ten"}));
}

TEST(CandidateTest, WinnerOrderRegistryPriority) {
  std::vector<Candidate> c = {makeCandidate("low", Device::cpu(), 10),
                              makeCandidate("high", Device::cpu(), 10)};
  c[0].registryPriority = -1;
  c[1].registryPriority = 5;
  EXPECT_EQ(rankedIds(c, Device::cpu()), (Ids{"high", "low"}));
}

TEST(CandidateTest, WinnerOrderDecisionDeviceThenDeviceOrder) {
  std::vector<Candidate> c = {makeCandidate("a", Device::vulkan(0), 10),
                              makeCandidate("a", Device::cuda(1), 10),
                              makeCandidate("a", Device::cpu(), 10),
                              makeCandidate("a", Device::cuda(0), 10)};
  auto devicesOf = [](std::vector<Candidate> cands, Device decision) {
    rank(cands, decision);
    std::vector<std::string> out;
    for (const Candidate &x : cands)
      out.push_back(x.device.str());
    return out;
  };
  EXPECT_EQ(devicesOf(c, Device::cpu()),
            (Ids{"cpu", "cuda:0", "cuda:1", "vulkan:0"}));
  EXPECT_EQ(devicesOf(c, Device::cuda(1)),
            (Ids{"cuda:1", "cpu", "cuda:0", "vulkan:0"}));
  EXPECT_EQ(devicesOf(c, Device::vulkan(0)),
            (Ids{"vulkan:0", "cpu", "cuda:0", "cuda:1"}));
}

TEST(CandidateTest, WinnerOrderKernelIdBytewise) {
  // 'B' (0x42) < 'a' (0x61) < 0xc3 (a UTF-8 lead byte): bytewise, unsigned.
  std::vector<Candidate> c = {makeCandidate("k\xc3\xa9", Device::cpu(), 10),
                              makeCandidate("ka", Device::cpu(), 10),
                              makeCandidate("kB", Device::cpu(), 10),
                              makeCandidate("k", Device::cpu(), 10)};
  EXPECT_EQ(rankedIds(c, Device::cpu()), (Ids{"k", "kB", "ka", "k\xc3\xa9"}));
  EXPECT_TRUE(winnerLess(c[1], c[0], Device::cpu()));
  EXPECT_FALSE(winnerLess(c[0], c[1], Device::cpu()));
  EXPECT_FALSE(winnerLess(c[0], c[0], Device::cpu()));
}

TEST(CandidateTest, EarlierKeysDominateLaterOnes) {
  // Priority loses to bytes, bytes to accuracy, the decision device to
  // priority.
  std::vector<Candidate> c = {makeCandidate("a", Device::cpu(), 10, "g", 1, 0),
                              makeCandidate("b", Device::cuda(0), 10)};
  c[0].registryPriority = 100;
  EXPECT_EQ(rankedIds(c, Device::cpu()), (Ids{"b", "a"}));
  c[0].hostBytes = 0;
  c[1].registryPriority = 1;
  EXPECT_EQ(rankedIds(c, Device::cpu()), (Ids{"a", "b"}));
  c[0].registryPriority = 0;
  EXPECT_EQ(rankedIds(c, Device::cpu()), (Ids{"b", "a"}));
}

TEST(CandidateTest, RankIsStableForEqualCandidates) {
  std::vector<Candidate> c;
  for (uint64_t i = 0; i < 5; ++i) {
    c.push_back(makeCandidate("same", Device::cpu(), 10));
    c.back().revisionHash = i;
  }
  c.push_back(makeCandidate("first", Device::cpu(), 1));
  rank(c, Device::cpu());
  EXPECT_EQ(c[0].kernelId, "first");
  for (uint64_t i = 0; i < 5; ++i)
    EXPECT_EQ(c[i + 1].revisionHash, i);
  std::vector<Candidate> copy = c;
  EXPECT_EQ(rankOrder(copy, Device::cpu()),
            (std::vector<unsigned>{0, 1, 2, 3, 4, 5}));
}

TEST(CandidateTest, ApplyOrderFollowsCycles) {
  std::vector<Candidate> c;
  for (int i = 0; i < 6; ++i)
    c.push_back(makeCandidate("k" + std::to_string(i), Device::cpu(), i));
  // Two cycles (0 2 4) and (1 5), one fixed point (3).
  applyOrder(c, {2, 5, 4, 3, 0, 1});
  std::vector<std::string> got;
  for (const Candidate &x : c)
    got.push_back(x.kernelId);
  EXPECT_EQ(got, (Ids{"k2", "k5", "k4", "k3", "k0", "k1"}));
}

TEST(CandidateTest, FieldsAndHelpers) {
  Candidate c = makeCandidate("cpu.openblas.matmul_f32", Device::cuda(2), 1);
  EXPECT_EQ(c.backend(), DeviceKind::Cuda);
  c.caps = {"strided_input", "accumulate", "strided_input"};
  c.params = {{"strides", "1,1"}, {"function", "exp"}};
  c.normalize();
  EXPECT_EQ(c.caps, (std::vector<std::string>{"accumulate", "strided_input"}));
  EXPECT_TRUE(c.hasCap("strided_input"));
  EXPECT_FALSE(c.hasCap("in_place"));
  EXPECT_EQ(c.params.front().first, "function");
  EXPECT_EQ(c.param("strides"), llvm::StringRef("1,1"));
  EXPECT_EQ(c.param("missing"), std::nullopt);
  EXPECT_EQ(stringifyTimeSource(TimeSource::Static), "static");
  EXPECT_EQ(stringifyTimeSource(TimeSource::Measured), "measured");

  CouplingAdjustment byDevice{7, Device::cuda(0), -500};
  CouplingAdjustment byBackend{7, DeviceKind::Cuda, 300};
  EXPECT_TRUE(matchesCondition(byDevice.condition, Device::cuda(0)));
  EXPECT_FALSE(matchesCondition(byDevice.condition, Device::cuda(1)));
  EXPECT_TRUE(matchesCondition(byBackend.condition, Device::cuda(1)));
  EXPECT_FALSE(matchesCondition(byBackend.condition, Device::cpu()));
  Candidate d = c;
  EXPECT_EQ(c, d);
  d.couplings.push_back(byBackend);
  EXPECT_NE(c, d);

  DecisionContext ctx{OpKind::Matmul, "f32", 0x0f0608, Device::cpu()};
  EXPECT_EQ(ctx.str(), "matmul f32 size_class=0x0f0608 decision_device=cpu");
}

} // namespace
