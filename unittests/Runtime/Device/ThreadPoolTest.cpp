//===- ThreadPoolTest.cpp - Tests of the CPU device's thread pool ---------===//
//
// The pool directly, with kernels defined here: every workgroup once, per
// worker workspaces, inline runs, concurrent callers, worker stacks.
//
//===----------------------------------------------------------------------===//

#include "cpu/ThreadPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace fuel::rt;

namespace {

// bindings[0]: uint32 counts per workgroup; increments its own.
void countKernel(const fuel_dispatch *d, void *, uint32_t x, uint32_t y,
                 uint32_t z) {
  auto *counts = static_cast<std::atomic<uint32_t> *>(d->bindings[0]);
  counts[(uint64_t(z) * d->grid[1] + y) * d->grid[0] + x].fetch_add(1);
}

struct Seen {
  std::mutex mu;
  std::set<void *> workspaces;
  std::set<std::thread::id> threads;
  bool misaligned = false;
};

// bindings[0]: a Seen; records the workspace and thread of each workgroup
// and writes the whole workspace (its declared size is push[0]); see
// below for push[1].
void recordKernel(const fuel_dispatch *d, void *ws, uint32_t, uint32_t,
                  uint32_t) {
  auto *seen = static_cast<Seen *>(d->bindings[0]);
  std::memset(ws, 0xab, d->push_constants[0]);
  {
    std::lock_guard<std::mutex> lock(seen->mu);
    seen->workspaces.insert(ws);
    seen->threads.insert(std::this_thread::get_id());
    if (reinterpret_cast<uintptr_t>(ws) % FUEL_WORKSPACE_ALIGNMENT)
      seen->misaligned = true;
  }
  // With push[1] set, hold the workgroup until a second thread has taken
  // part (or 5 s pass): a pool whose workers never join fails the test
  // instead of passing by luck, and a loaded machine cannot make it flaky.
  if (d->push_constants[1]) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard<std::mutex> lock(seen->mu);
        if (seen->threads.size() >= 2)
          return;
      }
      std::this_thread::yield();
    }
  }
}

std::unique_ptr<ThreadPool> makePool(unsigned workers, uint64_t ws = 0) {
  auto p = ThreadPool::create(workers, ws);
  EXPECT_TRUE(p.isOk()) << p.status().message();
  return p.isOk() ? std::move(*p) : nullptr;
}

} // namespace

// Every workgroup of many grid shapes runs exactly once, on every pool
// size, dispatch after dispatch.
TEST(ThreadPoolTest, EveryWorkgroupRunsExactlyOnce) {
  for (unsigned workers : {0u, 1u, 3u, 7u}) {
    auto pool = makePool(workers);
    ASSERT_TRUE(pool);
    EXPECT_EQ(pool->concurrency(), workers + 1);
    Workspace ws;
    ASSERT_TRUE(ws.reserve(64).isOk());
    for (auto grid : {std::vector<uint32_t>{1, 1, 1},
                      {1000, 1, 1},
                      {13, 7, 3},
                      {2, 300, 2},
                      {0, 5, 5}}) {
      uint64_t total = uint64_t(grid[0]) * grid[1] * grid[2];
      for (int rep = 0; rep < 20; ++rep) {
        std::vector<std::atomic<uint32_t>> counts(total ? total : 1);
        void *bindings[1] = {counts.data()};
        fuel_dispatch d{bindings, nullptr, {grid[0], grid[1], grid[2]}};
        pool->run(countKernel, d, ws.data(), /*inlineOnly=*/false);
        for (uint64_t i = 0; i < total; ++i)
          ASSERT_EQ(counts[i].load(), 1u)
              << "workers " << workers << " workgroup " << i;
      }
    }
  }
}

// Each thread gets its own 64-byte-aligned workspace, the workers' sized by
// reserveWorkspace; the caller's is the one it passes.
TEST(ThreadPoolTest, WorkspacesArePerThreadAndAligned) {
  auto pool = makePool(3, 100);
  ASSERT_TRUE(pool);
  ASSERT_TRUE(pool->reserveWorkspace(4096).isOk());
  EXPECT_GE(pool->workspaceBytes(), 4096u);
  Workspace callerWs;
  ASSERT_TRUE(callerWs.reserve(4096).isOk());
  Seen seen;
  void *bindings[1] = {&seen};
  uint32_t push[2] = {4096, 1};
  fuel_dispatch d{bindings, push, {64, 1, 1}};
  pool->run(recordKernel, d, callerWs.data(), false);
  EXPECT_FALSE(seen.misaligned);
  // As many workspaces as threads that took part, one per thread.
  EXPECT_EQ(seen.workspaces.size(), seen.threads.size());
  EXPECT_GE(seen.threads.size(), 2u);
  EXPECT_LE(seen.threads.size(), 4u);
}

// An inline run, a pool without workers and a one-workgroup grid all stay
// on the calling thread.
TEST(ThreadPoolTest, InlineRunsStayOnTheCaller) {
  auto pool = makePool(3);
  ASSERT_TRUE(pool);
  Workspace ws;
  ASSERT_TRUE(ws.reserve(64).isOk());
  Seen seen;
  void *bindings[1] = {&seen};
  uint32_t push[2] = {64, 0};
  fuel_dispatch d{bindings, push, {16, 1, 1}};
  pool->run(recordKernel, d, ws.data(), /*inlineOnly=*/true);
  EXPECT_EQ(seen.threads.size(), 1u);
  EXPECT_EQ(*seen.threads.begin(), std::this_thread::get_id());
  EXPECT_EQ(seen.workspaces.size(), 1u);
  EXPECT_EQ(*seen.workspaces.begin(), ws.data());
}

// Several threads dispatching at once through one pool each get every
// workgroup of their own dispatch exactly once.
TEST(ThreadPoolTest, ConcurrentCallersShareThePool) {
  auto pool = makePool(3);
  ASSERT_TRUE(pool);
  std::atomic<int> bad{0};
  auto caller = [&] {
    Workspace ws;
    if (!ws.reserve(64).isOk())
      return void(++bad);
    for (int rep = 0; rep < 200; ++rep) {
      std::vector<std::atomic<uint32_t>> counts(257);
      void *bindings[1] = {counts.data()};
      fuel_dispatch d{bindings, nullptr, {257, 1, 1}};
      pool->run(countKernel, d, ws.data(), false);
      for (auto &c : counts)
        if (c.load() != 1)
          ++bad;
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i)
    threads.emplace_back(caller);
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(bad.load(), 0);
}

// Workers sleep after their spin period and wake for the next dispatch.
TEST(ThreadPoolTest, SleepingWorkersWakeUp) {
  auto pool = makePool(2);
  ASSERT_TRUE(pool);
  Workspace ws;
  ASSERT_TRUE(ws.reserve(64).isOk());
  for (int rep = 0; rep < 3; ++rep) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5)); // > 50 µs
    Seen seen;
    void *bindings[1] = {&seen};
    uint32_t push[2] = {64, 1};
    fuel_dispatch d{bindings, push, {24, 1, 1}};
    pool->run(recordKernel, d, ws.data(), false);
    EXPECT_GE(seen.threads.size(), 2u) << "workers did not join";
  }
}

// Workers are created with stacks of at least FUEL_WORKER_MIN_STACK_BYTES.
TEST(ThreadPoolTest, WorkerStacksAreLarge) {
  auto pool = makePool(1);
  ASSERT_TRUE(pool);
  EXPECT_GE(pool->workerStackBytes(), size_t(FUEL_WORKER_MIN_STACK_BYTES));
}

// A workspace too large to allocate is a status, not a crash.
TEST(ThreadPoolTest, HugeWorkspaceIsRefused) {
  Workspace ws;
  Status s = ws.reserve(~uint64_t(0) - 8);
  EXPECT_EQ(s.code(), StatusCode::ResourceExhausted);
  auto pool = ThreadPool::create(1, uint64_t(1) << 62);
  ASSERT_FALSE(pool.isOk());
  EXPECT_EQ(pool.status().code(), StatusCode::ResourceExhausted);
}
