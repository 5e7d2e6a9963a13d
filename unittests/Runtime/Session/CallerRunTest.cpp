//===- CallerRunTest.cpp - run() of a cpu-only program on this thread -----===//
//
// Session::run of a program whose commands are all on the cpu runs them on
// the calling thread (caller queues, SessionOptions::RunOn::CallerThread):
// exact results, no thread started for it, one lane by default on a
// one-thread device; runAsync still on the queue threads and still
// asynchronous; switching between the two on one session; a thread whose
// stack is too small for kernels handed to the queue threads; and
// RunOn::QueueThreads keeping the queue threads for run() too.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Runtime.h"

#include "TestPrograms.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <pthread.h>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

// ThreadSanitizer starts threads of its own at any time: thread counts are
// not checked under it (scripts/test-tsan.sh).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FUEL_COUNTS_THREADS 0
#endif
#endif
#ifndef FUEL_COUNTS_THREADS
#define FUEL_COUNTS_THREADS 1
#endif

/// The threads of this process, from /proc/self/task.
size_t threadCount() {
  size_t n = 0;
  if (DIR *d = opendir("/proc/self/task")) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        ++n;
    closedir(d);
  }
  return n;
}

struct Chain {
  std::unique_ptr<Runtime> rt;
  std::shared_ptr<LoadedExecutable> exe;
  std::vector<float> a, b;
};

/// The two-dispatch chain c = (a + b) + a over 512 elements.
Chain loadChain(unsigned threads) {
  Chain c;
  RuntimeOptions o;
  o.threads = threads;
  auto rt = Runtime::create(o);
  EXPECT_TRUE(rt) << rt.status().toString();
  if (!rt)
    return c;
  c.rt = std::move(*rt);
  ExecutableWriter w;
  buildChain(w);
  std::vector<uint8_t> bytes = finishBytes(w);
  auto exe = c.rt->loadExecutableBytes(bytes.data(), bytes.size());
  EXPECT_TRUE(exe) << exe.status().toString();
  if (exe)
    c.exe = *exe;
  for (int i = 0; i < 512; ++i) {
    c.a.push_back(float(i) * 0.5f);
    c.b.push_back(float(7 - i));
  }
  return c;
}

std::unique_ptr<Session> open(Chain &c, SessionOptions o = {}) {
  auto s = Session::create(c.exe, o);
  EXPECT_TRUE(s) << s.status().toString();
  if (!s)
    return nullptr;
  EXPECT_TRUE((*s)->bindInput(0, ElementType::F32, {512}, c.a.data(), 2048));
  EXPECT_TRUE((*s)->bindInput(1, ElementType::F32, {512}, c.b.data(), 2048));
  return std::move(*s);
}

/// The output equals (a + b) + a, element by element.
void expectChainResult(Session &s, const Chain &c) {
  std::vector<float> out(512);
  ASSERT_TRUE(s.readOutput(0, out.data(), 2048));
  for (int i = 0; i < 512; ++i)
    ASSERT_EQ(out[i], (c.a[i] + c.b[i]) + c.a[i]) << i;
}

TEST(CallerRun, ACpuProgramRunsOnTheCallingThreadAndStartsNoThread) {
  Chain c = loadChain(1);
  ASSERT_TRUE(c.exe);
  size_t before = threadCount();
  auto s = open(c);
  ASSERT_TRUE(s);
  // One lane by default on a one-thread cpu: no second thread computes.
  EXPECT_EQ(s->laneLimit(), 1u);
  for (int run = 0; run < 3; ++run) {
    ASSERT_TRUE(s->run());
    EXPECT_TRUE(s->lastRunOnCaller());
    expectChainResult(*s, c);
    const auto &t = s->commandTimes();
    ASSERT_EQ(t.size(), 2u);
    EXPECT_GT(t[0].startNs, 0u);
    EXPECT_LE(t[0].endNs, t[1].startNs);
  }
  if (FUEL_COUNTS_THREADS)
    EXPECT_EQ(threadCount(), before) << "run() started a thread";
}

TEST(CallerRun, QueueThreadsKeepRunOnTheQueueThreads) {
  Chain c = loadChain(1);
  ASSERT_TRUE(c.exe);
  size_t before = threadCount();
  SessionOptions o;
  o.runOn = SessionOptions::RunOn::QueueThreads;
  auto s = open(c, o);
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->run());
  EXPECT_FALSE(s->lastRunOnCaller());
  expectChainResult(*s, c);
  if (FUEL_COUNTS_THREADS)
    EXPECT_EQ(threadCount(), before + 1) << "one queue thread, one lane";
}

TEST(CallerRun, RunAsyncStaysAsynchronousAndRunsSwitchBack) {
  Chain c = loadChain(2);
  ASSERT_TRUE(c.exe);
  auto s = open(c);
  ASSERT_TRUE(s);
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(s->run());
    EXPECT_TRUE(s->lastRunOnCaller());
    expectChainResult(*s, c);
    ASSERT_TRUE(s->runAsync());
    EXPECT_FALSE(s->lastRunOnCaller());
    ASSERT_TRUE(s->wait());
    expectChainResult(*s, c);
  }

  // runAsync returns before a 100 ms command has run: it went to a queue
  // thread, not to this one.
  RuntimeOptions o;
  o.threads = 2;
  auto rt = Runtime::create(o);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildTwoSleeps(w, 100000);
  std::vector<uint8_t> bytes = finishBytes(w);
  auto exe = (*rt)->loadExecutableBytes(bytes.data(), bytes.size());
  ASSERT_TRUE(exe);
  SessionOptions so;
  so.lanes = 1;
  auto sleeps = Session::create(*exe, so);
  ASSERT_TRUE(sleeps);
  uint64_t start = monotonicNs();
  ASSERT_TRUE((*sleeps)->runAsync());
  uint64_t submitted = monotonicNs() - start;
  EXPECT_TRUE((*sleeps)->isRunning());
  ASSERT_TRUE((*sleeps)->wait());
  EXPECT_GE(monotonicNs() - start, 200000000u);
  EXPECT_LT(submitted, 100000000u) << "runAsync ran the commands itself";
  // run() on this thread takes as long, and both flags are set.
  start = monotonicNs();
  ASSERT_TRUE((*sleeps)->run());
  EXPECT_TRUE((*sleeps)->lastRunOnCaller());
  EXPECT_GE(monotonicNs() - start, 200000000u);
  int32_t flags[2] = {};
  ASSERT_TRUE((*sleeps)->readOutput(0, flags, sizeof flags));
  EXPECT_EQ(flags[0], 1);
  EXPECT_EQ(flags[1], 1);
}

TEST(CallerRun, ASmallStackHandsTheRunToTheQueueThreads) {
  Chain c = loadChain(1);
  ASSERT_TRUE(c.exe);
  auto s = open(c);
  ASSERT_TRUE(s);
  struct Job {
    Session *session;
    bool ok = false, onCaller = true, fits = true;
  } job{s.get()};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  // Under kCallerMinStackBytes, and enough for the runtime's own frames.
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
  pthread_t t;
  ASSERT_EQ(pthread_create(
                &t, &attr,
                [](void *arg) -> void * {
                  auto *j = static_cast<Job *>(arg);
                  j->fits = callerStackFitsKernels();
                  j->ok = j->session->run().isOk();
                  j->onCaller = j->session->lastRunOnCaller();
                  return nullptr;
                },
                &job),
            0);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  EXPECT_FALSE(job.fits);
  EXPECT_TRUE(job.ok);
  EXPECT_FALSE(job.onCaller);
  expectChainResult(*s, c);
  // This thread's stack is large enough.
  EXPECT_TRUE(callerStackFitsKernels());
  ASSERT_TRUE(s->run());
  EXPECT_TRUE(s->lastRunOnCaller());
}

} // namespace
