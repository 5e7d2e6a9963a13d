//===- NoAllocationTest.cpp - Session runs allocate nothing ---------------===//
//
// Counts the global operator new calls of this test binary (CountingNew.h)
// while counting is on, from every thread, and checks that once a
// session is created, its inputs bound and each kind of run done once
// (run() on the calling thread, runAsync() on the queue threads: each
// creates its queues the first time), running it, reading its output and
// its timings allocates nothing.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Runtime.h"

#include "TestPrograms.h"

#include "CountingNew.h"

#include <gtest/gtest.h>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

TEST(SessionNoAllocation, RunsReadsAndTimingsAllocateNothing) {
  for (unsigned threads : {1u, 2u}) {
    RuntimeOptions o;
    o.threads = threads;
    auto rt = Runtime::create(o);
    ASSERT_TRUE(rt);
    ExecutableWriter w;
    // Big enough to fan out over the pool, and a chain with a dependency.
    buildChain(w, 1 << 16, 1 << 12);
    std::vector<uint8_t> bytes = finishBytes(w);
    auto exe = (*rt)->loadExecutableBytes(bytes.data(), bytes.size());
    ASSERT_TRUE(exe) << exe.status().toString();
    auto s = Session::create(*exe);
    ASSERT_TRUE(s);
    size_t n = 1 << 16;
    float *a = static_cast<float *>(std::aligned_alloc(64, n * 4));
    float *c = static_cast<float *>(std::aligned_alloc(64, n * 4));
    for (size_t i = 0; i < n; ++i)
      a[i] = float(i % 100);
    ASSERT_TRUE((*s)->bindInput(0, ElementType::F32, {int64_t(n)}, a, n * 4));
    ASSERT_TRUE((*s)->bindInput(1, ElementType::F32, {int64_t(n)}, a, n * 4));
    // The first run sizes the timing record; the first run() and the first
    // runAsync() create their queues (the calling thread's, the queue
    // threads').
    ASSERT_TRUE((*s)->run());
    ASSERT_TRUE((*s)->runAsync() && (*s)->wait());
    allocations = 0;
    counting = true;
    bool ok = true;
    uint64_t sum = 0;
    for (int i = 0; i < 200; ++i) {
      ok = ok && (*s)->run().isOk();
      ok = ok && (*s)->runAsync().isOk() && (*s)->wait().isOk();
      ok = ok && (*s)->readOutput(0, c, n * 4).isOk();
      for (const CommandTime &t : (*s)->commandTimes())
        sum += t.durationNs();
    }
    counting = false;
    EXPECT_TRUE(ok);
    EXPECT_EQ(allocations.load(), 0u) << "threads " << threads;
    EXPECT_EQ(c[n - 1], 3.0f * a[n - 1]);
    (void)sum;
    std::free(a);
    std::free(c);
  }
}

TEST(SessionNoAllocation, RunsOverLanesWithFenceWaitsAllocateNothing) {
  for (unsigned threads : {1u, 2u}) {
    RuntimeOptions o;
    o.threads = threads;
    auto rt = Runtime::create(o);
    ASSERT_TRUE(rt);
    ExecutableWriter w;
    // Two lanes, command 3 waiting by fence on a command of the other lane.
    buildDiamond(w, 0);
    std::vector<uint8_t> bytes = finishBytes(w);
    auto exe = (*rt)->loadExecutableBytes(bytes.data(), bytes.size());
    ASSERT_TRUE(exe) << exe.status().toString();
    SessionOptions so;
    so.lanes = 2;
    auto s = Session::create(*exe, so);
    ASSERT_TRUE(s);
    ASSERT_EQ((*s)->commandLanes(), (std::vector<uint32_t>{0, 1, 0, 1}));
    ASSERT_TRUE((*s)->run());
    ASSERT_TRUE((*s)->runAsync() && (*s)->wait());
    int32_t flags[4] = {};
    allocations = 0;
    counting = true;
    bool ok = true;
    for (int i = 0; i < 200; ++i) {
      ok = ok && (*s)->run().isOk();
      ok = ok && (*s)->runAsync().isOk() && (*s)->wait().isOk();
      ok = ok && (*s)->readOutput(0, flags, sizeof flags).isOk();
    }
    counting = false;
    EXPECT_TRUE(ok);
    EXPECT_EQ(allocations.load(), 0u) << "threads " << threads;
    EXPECT_EQ(flags[3], 2);
  }
}

} // namespace
