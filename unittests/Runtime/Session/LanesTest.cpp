//===- LanesTest.cpp - Tests of sessions spreading commands over lanes ----===//
//
// Independent commands of one run overlap on a device's lanes, dependent
// ones keep their order across lanes (by fence), the assignment is fixed
// and deterministic, and outputs are bit-identical for every lane and
// thread count.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Runtime.h"

#include "TestPrograms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

std::unique_ptr<Runtime> runtime(unsigned threads) {
  RuntimeOptions o;
  o.threads = threads;
  StatusOr<std::unique_ptr<Runtime>> r = Runtime::create(o);
  EXPECT_TRUE(r) << r.status().toString();
  return r ? std::move(*r) : nullptr;
}

std::shared_ptr<LoadedExecutable> load(Runtime &rt, const ExecutableWriter &w) {
  std::vector<uint8_t> bytes = finishBytes(w);
  EXPECT_FALSE(bytes.empty());
  auto exe = rt.loadExecutableBytes(bytes.data(), bytes.size());
  EXPECT_TRUE(exe) << exe.status().toString();
  return exe ? *exe : nullptr;
}

std::unique_ptr<Session> session(std::shared_ptr<LoadedExecutable> exe,
                                 unsigned lanes) {
  if (!exe)
    return nullptr;
  SessionOptions o;
  o.lanes = lanes;
  auto s = Session::create(std::move(exe), o);
  EXPECT_TRUE(s) << s.status().toString();
  return s ? std::move(*s) : nullptr;
}

/// Nanoseconds of one synchronous run.
uint64_t timedRun(Session &s) {
  uint64_t start = monotonicNs();
  EXPECT_TRUE(s.run());
  return monotonicNs() - start;
}

constexpr uint32_t kSleepUs = 50000;
constexpr uint64_t kSleepNs = uint64_t(kSleepUs) * 1000;

TEST(Lanes, IndependentCommandsOverlapOnTwoLanes) {
  auto rt = runtime(2);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildTwoSleeps(w, kSleepUs);
  auto exe = load(*rt, w);
  auto s = session(exe, 2);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->commandLanes(), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(s->laneCount(0), 2u);
  // The best of three runs, so a preempted run on a loaded machine does
  // not decide; sequential would take at least 2 x 50 ms.
  uint64_t best = UINT64_MAX;
  for (int run = 0; run < 3; ++run) {
    best = std::min(best, timedRun(*s));
    const auto &t = s->commandTimes();
    ASSERT_EQ(t.size(), 2u);
    EXPECT_GE(t[0].durationNs(), kSleepNs);
    EXPECT_GE(t[1].durationNs(), kSleepNs);
    // The two intervals intersect.
    EXPECT_LT(t[0].startNs, t[1].endNs);
    EXPECT_LT(t[1].startNs, t[0].endNs);
  }
  EXPECT_LT(best, kSleepNs * 16 / 10) << "two lanes did not overlap";
  int32_t flags[2] = {0, 0};
  ASSERT_TRUE(s->readOutput(0, flags, sizeof flags));
  EXPECT_EQ(flags[0], 1);
  EXPECT_EQ(flags[1], 1);
}

TEST(Lanes, OneLaneRunsInListOrder) {
  auto rt = runtime(2);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildTwoSleeps(w, kSleepUs);
  auto s = session(load(*rt, w), 1);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->commandLanes(), (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(s->laneCount(0), 1u);
  // nanosleep sleeps at least as long as asked: no noise can make this pass
  // wrongly or fail.
  EXPECT_GE(timedRun(*s), 2 * kSleepNs);
  const auto &t = s->commandTimes();
  ASSERT_EQ(t.size(), 2u);
  EXPECT_GE(t[1].startNs, t[0].endNs);
}

TEST(Lanes, DependenciesAcrossLanesWaitByFence) {
  auto rt = runtime(2);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildDiamond(w, kSleepUs);
  auto s = session(load(*rt, w), 2);
  ASSERT_TRUE(s);
  // 3 runs on lane 1 while its dependency 0 runs (long) on lane 0.
  EXPECT_EQ(s->commandLanes(), (std::vector<uint32_t>{0, 1, 0, 1}));
  ASSERT_TRUE(s->run());
  int32_t flags[4] = {};
  ASSERT_TRUE(s->readOutput(0, flags, sizeof flags));
  // The outputs start zeroed or not; what matters is that 2 and 3 read the
  // 1 that command 0 wrote, in the first run already.
  EXPECT_EQ(flags[0], 1);
  EXPECT_EQ(flags[1], 1);
  EXPECT_EQ(flags[2], 2);
  EXPECT_EQ(flags[3], 2);
  for (int run = 0; run < 3; ++run) {
    if (run) {
      ASSERT_TRUE(s->run());
    }
    const auto &t = s->commandTimes();
    ASSERT_EQ(t.size(), 4u);
    EXPECT_GE(t[2].startNs, t[0].endNs);
    EXPECT_GE(t[3].startNs, t[0].endNs);
    EXPECT_GE(t[3].startNs, t[1].endNs);
    // 1 ran alongside 0, not after it.
    EXPECT_LT(t[1].startNs, t[0].endNs);
  }
}

TEST(Lanes, ADependentChainStaysOnOneLaneInOrder) {
  auto rt = runtime(2);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildChain(w, 512, 64);
  auto s = session(load(*rt, w), 2);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->commandLanes(), (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(s->laneCount(0), 1u); // lane 1 would have nothing to run
}

// Commands predicted under kInlineDispatchNs are not worth another thread:
// a fan-out of them stays on one lane, whatever the lanes allowed.
TEST(Lanes, ShortCommandsStayOnOneLane) {
  auto rt = runtime(2);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildTwoSleeps(w, 1); // two independent commands predicted at 1 us
  auto s = session(load(*rt, w), 4);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->commandLanes(), (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(s->laneCount(0), 1u);
  ASSERT_TRUE(s->run());
}

TEST(Lanes, AssignmentIsDeterministic) {
  auto rt = runtime(2);
  ASSERT_TRUE(rt);
  for (unsigned lanes : {1u, 2u, 3u, 4u}) {
    ExecutableWriter w;
    buildDiamond(w, 0);
    std::vector<uint32_t> first;
    for (int i = 0; i < 3; ++i) {
      // A fresh load each time, and a second runtime with other threads.
      auto other = runtime(1 + i);
      ASSERT_TRUE(other);
      auto s = session(load(i % 2 ? *other : *rt, w), lanes);
      ASSERT_TRUE(s);
      if (i == 0)
        first = s->commandLanes();
      EXPECT_EQ(s->commandLanes(), first) << lanes << " lanes";
      for (uint32_t l : s->commandLanes())
        EXPECT_LT(l, s->laneCount(0));
    }
    // 2 goes behind its dependency 0; 3 to the lane predicted free first
    // (lane 1 after its short command, or an empty lane 2).
    if (lanes == 1)
      EXPECT_EQ(first, (std::vector<uint32_t>{0, 0, 0, 0}));
    else if (lanes == 2)
      EXPECT_EQ(first, (std::vector<uint32_t>{0, 1, 0, 1}));
    else
      EXPECT_EQ(first, (std::vector<uint32_t>{0, 1, 0, 2}));
  }
}

TEST(Lanes, TooManyLanesAreRefused) {
  auto rt = runtime(1);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildChain(w, 64, 64);
  SessionOptions o;
  o.lanes = kMaxSessionLanes + 1;
  auto s = Session::create(load(*rt, w), o);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(s.status().message().find("lanes"), std::string::npos);
}

/// Runs `w` twice with inputs filled deterministically and returns every
/// output's bytes, concatenated.
std::vector<uint8_t> outputsOf(unsigned threads, unsigned lanes,
                               const ExecutableWriter &w) {
  auto rt = runtime(threads);
  if (!rt)
    return {};
  auto s = session(load(*rt, w), lanes);
  if (!s)
    return {};
  const Program &p = s->program();
  std::vector<void *> inputs;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    uint64_t bytes = tensorByteSize(p.inputs[i]);
    float *x = static_cast<float *>(
        std::aligned_alloc(64, (bytes / 64 + 2) * 64)); // a multiple of 64
    for (uint64_t k = 0; k < bytes / 4; ++k)
      x[k] = float(k % 97) * 0.37f - float(i) * 1.25f + 1e-3f * float(k);
    inputs.push_back(x);
    EXPECT_TRUE(s->bindInput(i, p.inputs[i].dtype, p.inputs[i].shape, x,
                             size_t(bytes)));
  }
  std::vector<uint8_t> all;
  for (int run = 0; run < 2; ++run) {
    EXPECT_TRUE(s->run());
    all.clear();
    for (size_t o = 0; o < p.outputs.size(); ++o) {
      std::vector<uint8_t> bytes(size_t(tensorByteSize(p.outputs[o])));
      EXPECT_TRUE(s->readOutput(o, bytes.data(), bytes.size()));
      all.insert(all.end(), bytes.begin(), bytes.end());
    }
  }
  for (void *x : inputs)
    std::free(x);
  return all;
}

TEST(Lanes, OutputsAreIdenticalForEveryLaneAndThreadCount) {
  std::vector<ExecutableWriter> programs(5);
  buildVectorAdd(programs[0], 1000, 256);
  buildChain(programs[1], 1 << 14, 1 << 10);
  buildTwoAdds(programs[2], 1 << 16, 1 << 12);
  buildDiamond(programs[3], 0);
  buildCopy(programs[4], ElementType::F32, {3, 5});
  for (size_t i = 0; i < programs.size(); ++i) {
    std::vector<uint8_t> ref = outputsOf(1, 1, programs[i]);
    ASSERT_FALSE(ref.empty()) << "program " << i;
    for (unsigned threads : {1u, 2u, 4u})
      for (unsigned lanes : {1u, 2u, 4u})
        EXPECT_EQ(outputsOf(threads, lanes, programs[i]), ref)
            << "program " << i << ", " << threads << " threads, " << lanes
            << " lanes";
  }
}

TEST(Lanes, IndependentAddsAreCorrectOnTwoLanes) {
  auto rt = runtime(2);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildTwoAdds(w, 1 << 16, 1 << 12);
  auto s = session(load(*rt, w), 2);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->commandLanes(), (std::vector<uint32_t>{0, 1}));
  size_t n = 1 << 16;
  std::vector<float> a(n), b(n), c(n), d(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = 0.5f * float(i % 13);
  }
  ASSERT_TRUE(s->bindInput(0, ElementType::F32, {int64_t(n)}, a.data(), n * 4));
  ASSERT_TRUE(s->bindInput(1, ElementType::F32, {int64_t(n)}, b.data(), n * 4));
  for (int run = 0; run < 20; ++run) {
    ASSERT_TRUE(s->run());
    ASSERT_TRUE(s->readOutput(0, c.data(), n * 4));
    ASSERT_TRUE(s->readOutput(1, d.data(), n * 4));
    for (size_t i = 0; i < n; i += 31) {
      ASSERT_EQ(c[i], a[i] + b[i]) << i;
      ASSERT_EQ(d[i], b[i] + a[i]) << i;
    }
  }
}

} // namespace
