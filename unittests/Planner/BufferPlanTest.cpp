//===- BufferPlanTest.cpp - Arena packing: exact cases and properties -----===//
//
// Exact small cases of fuel::plan::planBuffers (known offsets: slot reuse
// along a chain, in-place hints honoured and refused, best fit, alignment,
// separate arenas per device, errors) and property tests over random
// requests from fixed seeds: no two buffers live at one command share a
// byte unless one took the other's place in place, every arena holds at
// least the peak of live bytes, and the plan is deterministic and
// independent of the request order.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/PlannerTestUtil.h"

#include "fuel/Planner/BufferPlan.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <numeric>
#include <tuple>

using namespace fuel::plan;
using fuel::plan::testing::Rng;

namespace {

BufferRequest req(uint64_t size, unsigned first, unsigned last,
                  std::optional<unsigned> inPlaceOf = std::nullopt,
                  unsigned device = 0, uint64_t alignment = 64) {
  BufferRequest r;
  r.device = device;
  r.size = size;
  r.alignment = alignment;
  r.firstUse = first;
  r.lastUse = last;
  r.inPlaceOf = inPlaceOf;
  return r;
}

BufferPlan planOk(const std::vector<BufferRequest> &requests,
                  unsigned numDevices = 1) {
  auto plan = planBuffers(requests, numDevices);
  EXPECT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  return plan ? std::move(*plan) : BufferPlan{};
}

std::string errorOf(const std::vector<BufferRequest> &requests,
                    unsigned numDevices = 1) {
  auto plan = planBuffers(requests, numDevices);
  if (plan)
    return "";
  return llvm::toString(plan.takeError());
}

TEST(BufferPlanTest, ChainReusesTheFirstSlot) {
  // A -> B -> C: A dies where C is born, so C takes A's slot.
  BufferPlan plan = planOk({req(1024, 0, 1), req(1024, 1, 2), req(1024, 2, 3)});
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 1024, 0}));
  EXPECT_EQ(plan.arenaBytes, (std::vector<uint64_t>{2048}));
  EXPECT_FALSE(plan.sharesWith[1]);
}

TEST(BufferPlanTest, InPlaceChainSharesOneSlot) {
  BufferPlan plan =
      planOk({req(1024, 0, 1), req(1024, 1, 2, 0u), req(512, 2, 3, 1u)});
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(plan.arenaBytes, (std::vector<uint64_t>{1024}));
  EXPECT_EQ(plan.sharesWith[1], 0u);
  EXPECT_EQ(plan.sharesWith[2], 1u);
  EXPECT_FALSE(plan.sharesWith[0]);
}

TEST(BufferPlanTest, InPlaceRefusedWhenTheOperandLivesOn) {
  // A is read again by command 2: B must not overwrite it.
  BufferPlan plan = planOk({req(1024, 0, 2), req(1024, 1, 2, 0u)});
  EXPECT_FALSE(plan.sharesWith[1]);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 1024}));
}

TEST(BufferPlanTest, InPlaceRefusedForALargerResult) {
  BufferPlan plan = planOk({req(512, 0, 1), req(1024, 1, 2, 0u)});
  EXPECT_FALSE(plan.sharesWith[1]);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{1024, 0}));
}

TEST(BufferPlanTest, InPlaceRefusedAcrossDevices) {
  BufferPlan plan =
      planOk({req(512, 0, 1, std::nullopt, 0), req(512, 1, 2, 0u, 1)}, 2);
  EXPECT_FALSE(plan.sharesWith[1]);
  EXPECT_EQ(plan.arenaBytes, (std::vector<uint64_t>{512, 512}));
}

TEST(BufferPlanTest, OneTakerPerOperand) {
  // Two results of command 1 both hint at A: the larger one wins.
  BufferPlan plan =
      planOk({req(1024, 0, 1), req(256, 1, 2, 0u), req(1024, 1, 2, 0u)});
  EXPECT_FALSE(plan.sharesWith[1]);
  EXPECT_EQ(plan.sharesWith[2], 0u);
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);
  EXPECT_EQ(plan.arenaBytes, (std::vector<uint64_t>{1280}));
}

TEST(BufferPlanTest, BestFitTakesTheTightestGap) {
  // When F is placed, the buffers it meets leave gaps of 512 bytes at 1024
  // and of 192 bytes at 1792; F (100 bytes) goes into the tighter one.
  BufferPlan plan = planOk({req(1024, 0, 9), req(512, 0, 1), req(256, 0, 9),
                            req(192, 0, 1), req(128, 0, 9), req(100, 5, 6)});
  EXPECT_EQ(plan.offsets,
            (std::vector<uint64_t>{0, 1024, 1536, 1792, 1984, 1792}));
  EXPECT_EQ(plan.arenaBytes, (std::vector<uint64_t>{2112}));
}

TEST(BufferPlanTest, AlignmentIsHonoured) {
  BufferPlan plan =
      planOk({req(300, 0, 1), req(100, 0, 1, std::nullopt, 0, 256)});
  // Larger first: the 300-byte buffer at 0, the 256-aligned one at 512.
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 512}));
  EXPECT_EQ(plan.arenaBytes, (std::vector<uint64_t>{640}));
  EXPECT_EQ(plan.arenaAlignment, (std::vector<uint64_t>{256}));
}

TEST(BufferPlanTest, DevicesHaveSeparateArenas) {
  BufferPlan plan =
      planOk({req(128, 0, 3, std::nullopt, 0), req(256, 0, 3, std::nullopt, 2),
              req(64, 1, 2, std::nullopt, 0)},
             3);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 0, 128}));
  EXPECT_EQ(plan.arenaBytes, (std::vector<uint64_t>{192, 0, 256}));
}

TEST(BufferPlanTest, EmptyBuffersTakeNoSpace) {
  BufferPlan plan = planOk({req(0, 0, 5), req(64, 0, 5)});
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(plan.arenaBytes, (std::vector<uint64_t>{64}));
  EXPECT_EQ(planOk({}).arenaBytes, (std::vector<uint64_t>{0}));
}

TEST(BufferPlanTest, Errors) {
  EXPECT_EQ(errorOf({req(64, 3, 2)}),
            "buffer 0 is first used at command 3, after its last use 2");
  EXPECT_EQ(errorOf({req(64, 0, 1, std::nullopt, 0, 48)}),
            "buffer 0 has alignment 48, not a power of two");
  EXPECT_EQ(errorOf({req(64, 0, 1, std::nullopt, 1)}),
            "buffer 0 is on device 1 of 1");
  EXPECT_EQ(errorOf({req(64, 0, 1, 7u)}),
            "buffer 0 may overwrite buffer 7 of 1");
  EXPECT_EQ(errorOf({req(~uint64_t(0) - 8, 0, 1), req(64, 0, 1)}),
            "the arena of device 0 overflows 64 bits");
}

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

/// Random requests with pairwise distinct sizes (so that no two are
/// interchangeable and every permutation must give the same offsets).
std::vector<BufferRequest> randomRequests(Rng &rng, unsigned numDevices,
                                          unsigned maxBuffers = 60,
                                          unsigned maxCommands = 40,
                                          unsigned maxLife = 8) {
  unsigned n = rng.between(1, maxBuffers);
  unsigned commands = rng.between(1, maxCommands);
  std::vector<uint64_t> sizes(n);
  std::iota(sizes.begin(), sizes.end(), 1);
  for (uint64_t &s : sizes)
    s = s * 8 + rng.below(8) + (rng.coin() ? 4096 * rng.below(4) : 0);
  rng.shuffle(sizes);
  std::vector<BufferRequest> requests;
  for (unsigned i = 0; i < n; ++i) {
    unsigned first = rng.below(commands);
    unsigned last = first + rng.below(std::min(maxLife, commands - first));
    BufferRequest r = req(sizes[i], first, last, std::nullopt,
                          rng.below(numDevices), uint64_t(1) << rng.below(9));
    // Now and then a hint at an earlier buffer; often a usable one.
    if (i > 0 && rng.below(3) == 0) {
      unsigned h = rng.below(i);
      r.inPlaceOf = h;
      if (rng.coin()) {
        r.firstUse = requests[h].lastUse;
        r.lastUse = std::max(r.lastUse, r.firstUse);
        r.device = requests[h].device;
      }
    }
    requests.push_back(r);
  }
  return requests;
}

unsigned chainRoot(const BufferPlan &plan, unsigned i) {
  while (plan.sharesWith[i])
    i = *plan.sharesWith[i];
  return i;
}

void checkInvariants(const std::vector<BufferRequest> &requests,
                     const BufferPlan &plan, unsigned numDevices) {
  const unsigned n = requests.size();
  ASSERT_EQ(plan.offsets.size(), n);
  for (unsigned i = 0; i < n; ++i) {
    const BufferRequest &r = requests[i];
    EXPECT_EQ(plan.offsets[i] % r.alignment, 0u) << "buffer " << i;
    EXPECT_LE(plan.offsets[i] + r.size, plan.arenaBytes[r.device]);
    EXPECT_EQ(plan.arenaAlignment[r.device] % r.alignment, 0u);
    if (auto h = plan.sharesWith[i]) {
      // An honoured hint: same slot, operand dies where the result is born.
      EXPECT_EQ(r.inPlaceOf, h);
      EXPECT_EQ(plan.offsets[i], plan.offsets[*h]);
      EXPECT_EQ(requests[*h].lastUse, r.firstUse);
      EXPECT_GE(requests[*h].size, r.size);
    }
    for (unsigned j = i + 1; j < n; ++j) {
      const BufferRequest &s = requests[j];
      if (r.device != s.device || r.size == 0 || s.size == 0)
        continue;
      bool liveTogether = r.firstUse <= s.lastUse && s.firstUse <= r.lastUse;
      bool overlap = plan.offsets[i] < plan.offsets[j] + s.size &&
                     plan.offsets[j] < plan.offsets[i] + r.size;
      if (liveTogether && overlap)
        EXPECT_EQ(chainRoot(plan, i), chainRoot(plan, j))
            << "buffers " << i << " and " << j << " overlap";
    }
  }
  for (unsigned d = 0; d < numDevices; ++d) {
    EXPECT_GE(plan.arenaBytes[d], peakLiveBytes(requests, plan, d));
    EXPECT_EQ(plan.arenaBytes[d] % kDefaultBufferAlignment, 0u);
  }
}

TEST(BufferPlanPropertyTest, InvariantsHoldAndOrderDoesNotMatter) {
  Rng rng(0xb0ff3a);
  unsigned honoured = 0, reused = 0;
  for (unsigned trial = 0; trial < 500; ++trial) {
    unsigned numDevices = rng.between(1, 3);
    std::vector<BufferRequest> requests = randomRequests(rng, numDevices);
    BufferPlan plan = planOk(requests, numDevices);
    checkInvariants(requests, plan, numDevices);
    honoured +=
        llvm::count_if(plan.sharesWith, [](auto s) { return s.has_value(); });
    uint64_t total = 0;
    for (const BufferRequest &r : requests)
      total += r.size;
    uint64_t arenas = 0;
    for (uint64_t a : plan.arenaBytes)
      arenas += a;
    reused += arenas < total;
    if (::testing::Test::HasFailure())
      FAIL() << "trial " << trial;

    // Deterministic.
    BufferPlan again = planOk(requests, numDevices);
    EXPECT_EQ(again.offsets, plan.offsets);
    EXPECT_EQ(again.arenaBytes, plan.arenaBytes);

    // A permutation (hints renumbered) is the same problem: same plan.
    std::vector<unsigned> perm(requests.size());
    std::iota(perm.begin(), perm.end(), 0u);
    rng.shuffle(perm); // perm[k] = original index of position k
    std::vector<unsigned> position(requests.size());
    for (unsigned k = 0; k < perm.size(); ++k)
      position[perm[k]] = k;
    std::vector<BufferRequest> shuffled;
    for (unsigned k = 0; k < perm.size(); ++k) {
      BufferRequest r = requests[perm[k]];
      if (r.inPlaceOf)
        r.inPlaceOf = position[*r.inPlaceOf];
      shuffled.push_back(r);
    }
    BufferPlan other = planOk(shuffled, numDevices);
    EXPECT_EQ(other.arenaBytes, plan.arenaBytes) << "trial " << trial;
    for (unsigned k = 0; k < perm.size(); ++k)
      EXPECT_EQ(other.offsets[k], plan.offsets[perm[k]])
          << "trial " << trial << " buffer " << perm[k];
    if (::testing::Test::HasFailure())
      FAIL() << "trial " << trial;
  }
  // The cases exercise what they are meant to: hints honoured, slots reused.
  EXPECT_GT(honoured, 100u);
  EXPECT_GT(reused, 250u);
}

TEST(BufferPlanPropertyTest, InterchangeableBuffersGiveTheSameLayout) {
  // Many equal buffers: a permutation may swap equal ones, never change the
  // multiset of (buffer, offset) or the arena.
  Rng rng(77);
  for (unsigned trial = 0; trial < 200; ++trial) {
    std::vector<BufferRequest> requests;
    unsigned n = rng.between(1, 40);
    for (unsigned i = 0; i < n; ++i) {
      unsigned first = rng.below(6);
      requests.push_back(req(64 * rng.between(1, 3), first,
                             first + rng.below(3), std::nullopt, rng.below(2)));
    }
    auto layout = [](const std::vector<BufferRequest> &rs,
                     const BufferPlan &p) {
      std::vector<std::tuple<unsigned, unsigned, unsigned, uint64_t, uint64_t>>
          l;
      for (unsigned i = 0; i < rs.size(); ++i)
        l.emplace_back(rs[i].device, rs[i].firstUse, rs[i].lastUse, rs[i].size,
                       p.offsets[i]);
      std::sort(l.begin(), l.end());
      return l;
    };
    BufferPlan plan = planOk(requests, 2);
    checkInvariants(requests, plan, 2);
    std::vector<BufferRequest> shuffled = requests;
    rng.shuffle(shuffled);
    BufferPlan other = planOk(shuffled, 2);
    EXPECT_EQ(layout(shuffled, other), layout(requests, plan));
    EXPECT_EQ(other.arenaBytes, plan.arenaBytes);
    if (::testing::Test::HasFailure())
      FAIL() << "trial " << trial;
  }
}

TEST(BufferPlanPropertyTest, LongProgramsAndRenumberedCommands) {
  // Programs longer than the buckets of commands that packing searches
  // (32 commands, wider when commands are sparse), with buffers living up
  // to 200 commands: the invariants hold, and renumbering the commands
  // without changing their order (a shift, spreading them 1000 apart)
  // changes every bucket but not the plan.
  Rng rng(0x5ca1e);
  for (unsigned trial = 0; trial < 150; ++trial) {
    unsigned numDevices = rng.between(1, 2);
    std::vector<BufferRequest> requests =
        randomRequests(rng, numDevices, 300, 2000, 200);
    BufferPlan plan = planOk(requests, numDevices);
    checkInvariants(requests, plan, numDevices);
    for (auto [scale, shift] : {std::pair<unsigned, unsigned>{1, 17},
                                std::pair<unsigned, unsigned>{1000, 5}}) {
      std::vector<BufferRequest> renumbered = requests;
      for (BufferRequest &r : renumbered) {
        r.firstUse = r.firstUse * scale + shift;
        r.lastUse = r.lastUse * scale + shift;
      }
      BufferPlan same = planOk(renumbered, numDevices);
      EXPECT_EQ(same.offsets, plan.offsets) << "scale " << scale;
      EXPECT_EQ(same.arenaBytes, plan.arenaBytes);
    }
    if (::testing::Test::HasFailure())
      FAIL() << "trial " << trial;
  }
}

} // namespace
