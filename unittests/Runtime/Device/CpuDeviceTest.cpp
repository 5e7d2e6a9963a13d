//===- CpuDeviceTest.cpp - Tests of the CPU device ------------------------===//
//
// What the conformance suite cannot say for every device: modules loaded
// from bytes through a memory file, refused images, kernel lookup and
// unloading, bit-identical results for every thread count, per-worker
// workspaces, worker stacks, inline dispatches, zero-copy host buffers and
// shims.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuDevice.h"
#include "TestSupport.h"

#include "fuel-c/ShimABI.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <set>
#include <sstream>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

std::unique_ptr<CpuDevice> makeCpu(unsigned threads, uint64_t ws = 0) {
  CpuDeviceOptions o;
  o.threads = threads;
  o.workspaceBytes = ws;
  auto d = CpuDevice::create(o);
  EXPECT_TRUE(d.isOk()) << d.status().message();
  return d.isOk() ? std::move(*d) : nullptr;
}

std::string procMaps() {
  std::ifstream in("/proc/self/maps");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Status loadBytes(CpuDevice &dev, std::vector<uint8_t> bytes,
                 std::vector<std::string> names = {"fuel_test_vadd"}) {
  ModuleImage image{bytes.data(), bytes.size(), std::move(names)};
  auto m = dev.loadModule(image);
  return m.isOk() ? Status::ok() : m.status();
}

} // namespace

// The module is loaded from bytes through a memory file (the mapping is a
// memfd, not a file on disk) and unloading removes it.
TEST(CpuDeviceTest, LoadsModuleFromMemoryAndUnloads) {
  auto dev = makeCpu(2);
  ASSERT_TRUE(dev);
  std::string before = procMaps();
  EXPECT_EQ(before.find("memfd:fuel-module"), std::string::npos);
  auto m = loadTestKernels(*dev);
  ASSERT_TRUE(m.isOk()) << m.status().message();
  ASSERT_EQ(m->kernels.size(), testKernelNames().size());
  EXPECT_NE(procMaps().find("memfd:fuel-module"), std::string::npos);
  // RTLD_LOCAL: the module's symbols are not visible to the process.
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "fuel_test_vadd"), nullptr);
  // The same bytes load a second, independent time.
  auto again = loadTestKernels(*dev);
  ASSERT_TRUE(again.isOk()) << again.status().message();
  EXPECT_NE(again->kernels[0].id, m->kernels[0].id);
  EXPECT_TRUE(dev->unloadModule(*again).isOk());
  EXPECT_TRUE(dev->unloadModule(*m).isOk());
  EXPECT_EQ(procMaps().find("memfd:fuel-module"), std::string::npos);
  EXPECT_EQ(dev->unloadModule(*m).code(), StatusCode::InvalidArgument);

  // Its kernels are gone with it.
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  auto f =
      (*q)->submit(Command::dispatch(m->kernels[kEmpty], 1, 1, 1, nullptr, 0));
  EXPECT_EQ(f.status().code(), StatusCode::InvalidArgument);
}

// Two different modules loaded at once are two objects: the second's memory
// file must not reuse the first's descriptor number, whose /proc path the
// dynamic loader would resolve to the object already loaded (the second
// module's symbols would then be missing).
TEST(CpuDeviceTest, DifferentModulesLoadSideBySide) {
  auto dev = makeCpu(1);
  ASSERT_TRUE(dev);
  auto first = loadTestKernels(*dev);
  ASSERT_TRUE(first.isOk()) << first.status().message();
  std::vector<uint8_t> other = readFileBytes(FUEL_TEST_SHIM_PATH);
  ModuleImage image{other.data(), other.size(), {"fuel_shim_info"}};
  auto second = dev->loadModule(image);
  ASSERT_TRUE(second.isOk()) << second.status().message();
  EXPECT_TRUE(dev->unloadModule(*second).isOk());
  // A third load after the unload reuses nothing that is still loaded.
  auto third = dev->loadModule(image);
  ASSERT_TRUE(third.isOk()) << third.status().message();
  EXPECT_TRUE(dev->unloadModule(*third).isOk());
  EXPECT_TRUE(dev->unloadModule(*first).isOk());
  EXPECT_EQ(procMaps().find("memfd:fuel-module"), std::string::npos);
}

// Images that are not a shared object for this machine are refused before
// the dynamic loader sees them, naming what is wrong; a missing kernel
// symbol names the symbol.
TEST(CpuDeviceTest, RefusesBadModules) {
  auto dev = makeCpu(1);
  ASSERT_TRUE(dev);
  std::vector<uint8_t> good = readFileBytes(FUEL_TEST_KERNELS_PATH);
  ASSERT_GT(good.size(), 1000u);

  Status s = loadBytes(*dev, {});
  EXPECT_NE(s.message().find("too small"), std::string::npos) << s.message();
  auto bad = good;
  bad[1] = 'X';
  s = loadBytes(*dev, bad);
  EXPECT_NE(s.message().find("bad magic"), std::string::npos) << s.message();
  bad = good;
  bad[EI_CLASS] = ELFCLASS32;
  s = loadBytes(*dev, bad);
  EXPECT_NE(s.message().find("64-bit"), std::string::npos) << s.message();
  bad = good;
  bad[16] = ET_EXEC; // e_type
  s = loadBytes(*dev, bad);
  EXPECT_NE(s.message().find("e_type"), std::string::npos) << s.message();
  bad = good;
  bad[18] ^= 0x40; // e_machine
  s = loadBytes(*dev, bad);
  EXPECT_NE(s.message().find("e_machine"), std::string::npos) << s.message();
  // Truncated at many lengths: always a status.
  for (size_t len : {size_t(64), size_t(200), good.size() / 3, good.size() / 2,
                     good.size() - 1}) {
    s = loadBytes(*dev, std::vector<uint8_t>(good.begin(), good.begin() + len));
    EXPECT_FALSE(s.isOk()) << "length " << len;
    EXPECT_EQ(s.message().rfind("module: ", 0), 0u) << s.message();
  }
  s = loadBytes(*dev, good, {"fuel_test_vadd", "no_such_kernel"});
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_NE(s.message().find("'no_such_kernel'"), std::string::npos);
  ModuleImage null{nullptr, 100, {}};
  EXPECT_FALSE(dev->loadModule(null).isOk());
  // A refused load leaves no mapping behind.
  EXPECT_EQ(procMaps().find("memfd:fuel-module"), std::string::npos);
}

// The pairwise workspace reduction gives bit-identical sums for every
// thread count, equal to the same computation on the calling thread.
TEST(CpuDeviceTest, ResultsAreBitIdenticalForEveryThreadCount) {
  const uint32_t block = 1024, groups = 97, n = block * groups;
  std::vector<float> in(n);
  uint32_t state = 12345;
  for (float &v : in) {
    state = state * 1664525u + 1013904223u;
    v = float(state >> 8) / float(1 << 24) * 2.0f - 1.0f;
  }
  std::vector<float> reference;
  for (unsigned threads : {1u, 2u, 3u, 4u, 8u}) {
    auto dev = makeCpu(threads);
    ASSERT_TRUE(dev);
    ASSERT_TRUE(dev->reserveWorkspace(block * sizeof(float)).isOk());
    auto m = loadTestKernels(*dev);
    ASSERT_TRUE(m.isOk()) << m.status().message();
    Buffer bin = *dev->allocate(4 * n, 64),
           sum = *dev->allocate(4 * groups, 64),
           flags = *dev->allocate(4 * groups, 64);
    ASSERT_TRUE(dev->write(bin, 0, in.data(), 4 * n).isOk());
    Binding bindings[3] = {
        {bin, 0, 4 * n}, {sum, 0, 4 * groups}, {flags, 0, 4 * groups}};
    uint32_t push[2] = {n, block};
    Command c = Command::dispatch(m->kernels[kWorkspaceSum], groups, 1, 1,
                                  bindings, 3, push, 2);
    c.workspaceBytes = block * sizeof(float);
    auto q = dev->createQueue();
    ASSERT_TRUE(q.isOk());
    auto f = (*q)->submit(c);
    ASSERT_TRUE(f.isOk()) << f.status().message();
    ASSERT_TRUE((*q)->wait(*f).isOk());
    std::vector<float> got(groups);
    std::vector<uint32_t> misaligned(groups);
    ASSERT_TRUE(dev->read(sum, 0, got.data(), 4 * groups).isOk());
    ASSERT_TRUE(dev->read(flags, 0, misaligned.data(), 4 * groups).isOk());
    for (uint32_t g = 0; g < groups; ++g)
      EXPECT_EQ(misaligned[g], 0u) << "workgroup " << g;
    if (reference.empty())
      reference = got;
    else
      for (uint32_t g = 0; g < groups; ++g)
        ASSERT_EQ(std::memcmp(&got[g], &reference[g], 4), 0)
            << "threads " << threads << " workgroup " << g;
  }
}

// A dispatch that declares more workspace than was reserved is refused.
TEST(CpuDeviceTest, WorkspaceMustBeReserved) {
  auto dev = makeCpu(2, 256);
  ASSERT_TRUE(dev);
  auto m = loadTestKernels(*dev);
  ASSERT_TRUE(m.isOk());
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  Command c = Command::dispatch(m->kernels[kEmpty], 4, 1, 1, nullptr, 0);
  c.workspaceBytes = 257;
  auto f = (*q)->submit(c);
  EXPECT_EQ(f.status().code(), StatusCode::FailedPrecondition);
  EXPECT_NE(f.status().message().find("reserveWorkspace"), std::string::npos);
  ASSERT_TRUE(dev->reserveWorkspace(257).isOk());
  f = (*q)->submit(c);
  ASSERT_TRUE(f.isOk()) << f.status().message();
  EXPECT_TRUE((*q)->wait(*f).isOk());
}

// Workgroups that use 6 MiB of stack run on the workers and the queue
// thread: every thread has a stack of at least 8 MiB.
TEST(CpuDeviceTest, KernelsRunOnLargeStacks) {
  auto dev = makeCpu(4);
  ASSERT_TRUE(dev);
  EXPECT_GE(dev->workerStackBytes(), size_t(FUEL_WORKER_MIN_STACK_BYTES));
  auto m = loadTestKernels(*dev);
  ASSERT_TRUE(m.isOk());
  Buffer out = *dev->allocate(4 * 16, 64);
  Binding b{out, 0, 64};
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  auto f =
      (*q)->submit(Command::dispatch(m->kernels[kDeepStack], 16, 1, 1, &b, 1));
  ASSERT_TRUE(f.isOk());
  ASSERT_TRUE((*q)->wait(*f).isOk());
  std::vector<uint32_t> got(16);
  ASSERT_TRUE(dev->read(out, 0, got.data(), 64).isOk());
  uint32_t want = 0;
  for (uint32_t i = 0; i < (6u << 20); i += 4096)
    want += uint8_t(i >> 12);
  for (uint32_t v : got)
    EXPECT_EQ(v, want);
}

// A dispatch predicted under the inline threshold runs all its workgroups
// on one thread; its results are the same.
TEST(CpuDeviceTest, ShortDispatchesRunInline) {
  auto dev = makeCpu(4);
  ASSERT_TRUE(dev);
  auto m = loadTestKernels(*dev);
  ASSERT_TRUE(m.isOk());
  const uint32_t n = 512;
  Buffer a = *dev->allocate(4 * n, 64), b = *dev->allocate(4 * n, 64),
         c = *dev->allocate(4 * n, 64);
  std::vector<float> av(n, 1.5f), bv(n, 2.25f);
  ASSERT_TRUE(dev->write(a, 0, av.data(), 4 * n).isOk());
  ASSERT_TRUE(dev->write(b, 0, bv.data(), 4 * n).isOk());
  Binding bindings[3] = {{a, 0, 4 * n}, {b, 0, 4 * n}, {c, 0, 4 * n}};
  uint32_t push[2] = {n, 16};
  Command cmd =
      Command::dispatch(m->kernels[kVadd], n / 16, 1, 1, bindings, 3, push, 2);
  cmd.predictedNs = 1000;
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  auto f = (*q)->submit(cmd);
  ASSERT_TRUE(f.isOk());
  ASSERT_TRUE((*q)->wait(*f).isOk());
  std::vector<float> got(n);
  ASSERT_TRUE(dev->read(c, 0, got.data(), 4 * n).isOk());
  for (float v : got)
    EXPECT_EQ(v, 3.75f);
}

// Imported host memory binds without a copy: the kernel writes straight
// into the caller's array, and freeing the import leaves the memory alone.
TEST(CpuDeviceTest, ImportedHostMemoryIsZeroCopy) {
  auto dev = makeCpu(2);
  ASSERT_TRUE(dev);
  auto m = loadTestKernels(*dev);
  ASSERT_TRUE(m.isOk());
  std::vector<uint32_t> out(6, 0), count(6, 0);
  auto bo = dev->importHost(out.data(), 24);
  auto bc = dev->importHost(count.data(), 24);
  ASSERT_TRUE(bo.isOk() && bc.isOk());
  EXPECT_EQ(*dev->hostPointer(*bo), static_cast<void *>(out.data()));
  EXPECT_EQ(dev->bytesAllocated(), 0u);
  Binding bindings[2] = {{*bo, 0, 24}, {*bc, 0, 24}};
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  auto f =
      (*q)->submit(Command::dispatch(m->kernels[kWgid], 3, 2, 1, bindings, 2));
  ASSERT_TRUE(f.isOk());
  ASSERT_TRUE((*q)->wait(*f).isOk());
  EXPECT_EQ(out[4], 1u + 1 + 1000);
  EXPECT_EQ(count[5], 1u);
  EXPECT_TRUE(dev->free(*bo).isOk());
  EXPECT_TRUE(dev->free(*bc).isOk());
  EXPECT_EQ(out[0], 1u); // Still the caller's memory.
  EXPECT_EQ(dev->importHost(nullptr, 4).status().code(),
            StatusCode::InvalidArgument);
}

// A shim loads with its own RTLD_LOCAL handle, takes cosf from libm by
// dlsym, and runs as a kernel; results equal libm's bit for bit.
TEST(CpuDeviceTest, ShimRunsAsAKernel) {
  auto dev = makeCpu(3);
  ASSERT_TRUE(dev);
  auto m = dev->loadShim(FUEL_TEST_SHIM_PATH, {"test_vcos"});
  ASSERT_TRUE(m.isOk()) << m.status().message();
  const uint32_t n = 1000, block = 100;
  std::vector<float> in(n);
  for (uint32_t i = 0; i < n; ++i)
    in[i] = float(i) * 0.01f - 5.0f;
  Buffer bi = *dev->allocate(4 * n, 64), bo = *dev->allocate(4 * n, 64);
  ASSERT_TRUE(dev->write(bi, 0, in.data(), 4 * n).isOk());
  Binding bindings[2] = {{bi, 0, 4 * n}, {bo, 0, 4 * n}};
  uint32_t push[2] = {n, block};
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  auto f = (*q)->submit(
      Command::dispatch(m->kernels[0], n / block, 1, 1, bindings, 2, push, 2));
  ASSERT_TRUE(f.isOk());
  ASSERT_TRUE((*q)->wait(*f).isOk());
  std::vector<float> got(n);
  ASSERT_TRUE(dev->read(bo, 0, got.data(), 4 * n).isOk());
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], ::cosf(in[i])) << i;
  EXPECT_TRUE(dev->unloadModule(*m).isOk());
}

// The shim does not link its library: its DT_NEEDED has no libm.
TEST(CpuDeviceTest, ShimDoesNotLinkItsLibrary) {
  std::string error;
  auto needed = elfNeeded(readFileBytes(FUEL_TEST_SHIM_PATH), error);
  ASSERT_TRUE(error.empty()) << error;
  for (const std::string &n : needed)
    EXPECT_EQ(n.find("libm"), std::string::npos) << n;
}

// Shim failures are statuses naming the shim: a missing file, an unknown
// entry, another ABI version, a library its init cannot open.
TEST(CpuDeviceTest, ShimErrorsAreStatuses) {
  auto dev = makeCpu(1);
  ASSERT_TRUE(dev);
  auto r = dev->loadShim("/nonexistent/libfuel-shim-x.so", {"a"});
  EXPECT_EQ(r.status().code(), StatusCode::Unavailable);
  r = dev->loadShim(FUEL_TEST_SHIM_PATH, {"no_entry"});
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("'no_entry'"), std::string::npos);
  // Not a shim: the test kernel module exports no fuel_shim_info.
  r = dev->loadShim(FUEL_TEST_KERNELS_PATH, {"fuel_test_vadd"});
  EXPECT_NE(r.status().message().find("fuel_shim_info"), std::string::npos);

  setenv("FUEL_TEST_SHIM_ABI", "99", 1);
  r = dev->loadShim(FUEL_TEST_SHIM_PATH, {"test_vcos"});
  unsetenv("FUEL_TEST_SHIM_ABI");
  EXPECT_EQ(r.status().code(), StatusCode::FailedPrecondition);
  EXPECT_NE(r.status().message().find("shim ABI version 99"), std::string::npos)
      << r.status().message();

  setenv("FUEL_TEST_SHIM_LIBRARY", "libfuel-no-such-library.so", 1);
  r = dev->loadShim(FUEL_TEST_SHIM_PATH, {"test_vcos"});
  unsetenv("FUEL_TEST_SHIM_LIBRARY");
  EXPECT_EQ(r.status().code(), StatusCode::Unavailable);
  EXPECT_NE(r.status().message().find("libfuel-no-such-library.so"),
            std::string::npos)
      << r.status().message();
}

// Shims are looked up beside the code of the runtime.
TEST(CpuDeviceTest, ShimPathIsBesideTheRuntime) {
  std::string dir = runtimeDirectory();
  ASSERT_FALSE(dir.empty());
  EXPECT_EQ(shimPath("openblas"), dir + "/libfuel-shim-openblas.so");
  // Linked statically into this test, the runtime's code is the test's.
  char self[4096];
  ASSERT_NE(realpath(FUEL_TEST_BINARY_DIR, self), nullptr);
  EXPECT_EQ(dir, std::string(self));
}

// Creating the device refuses absurd thread counts.
TEST(CpuDeviceTest, RefusesAbsurdThreadCounts) {
  CpuDeviceOptions o;
  o.threads = 100000;
  auto d = CpuDevice::create(o);
  EXPECT_EQ(d.status().code(), StatusCode::InvalidArgument);
  auto one = makeCpu(1);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->threadCount(), 1u);
  auto all = makeCpu(0);
  ASSERT_TRUE(all);
  EXPECT_GE(all->threadCount(), 1u);
  EXPECT_TRUE(all->info().hostVisible);
  EXPECT_GT(all->info().memoryLimit, 0u);
}

namespace {
/// The distinct threads that ran a dispatch of fuel_test_thread_id over
/// `groups` workgroups, given its predicted time.
std::set<uint64_t> threadsOfDispatch(CpuDevice &dev, uint32_t groups,
                                     uint64_t predictedNs, bool waitForTwo) {
  auto m = loadTestKernels(dev);
  EXPECT_TRUE(m.isOk());
  Buffer ids = *dev.allocate(8 * groups, 64), state = *dev.allocate(16, 64);
  uint64_t zeros[2] = {0, 0};
  EXPECT_TRUE(dev.write(state, 0, zeros, 16).isOk());
  Binding bindings[2] = {{ids, 0, 8 * groups}, {state, 0, 16}};
  uint32_t push[1] = {waitForTwo};
  Command c = Command::dispatch(m->kernels[kThreadId], groups, 1, 1, bindings,
                                2, push, 1);
  c.predictedNs = predictedNs;
  auto q = dev.createQueue();
  EXPECT_TRUE(q.isOk());
  auto f = (*q)->submit(c);
  EXPECT_TRUE(f.isOk());
  EXPECT_TRUE((*q)->wait(*f).isOk());
  std::vector<uint64_t> got(groups);
  EXPECT_TRUE(dev.read(ids, 0, got.data(), 8 * groups).isOk());
  return std::set<uint64_t>(got.begin(), got.end());
}
} // namespace

// A dispatch predicted under 20 us runs every workgroup on one thread; an
// unpredicted one fans out to the workers.
TEST(CpuDeviceTest, PredictedTimeChoosesInlineOrFanOut) {
  auto dev = makeCpu(4);
  ASSERT_TRUE(dev);
  EXPECT_EQ(threadsOfDispatch(*dev, 64, kInlineDispatchNs - 1, false).size(),
            1u);
  EXPECT_GE(threadsOfDispatch(*dev, 64, 0, true).size(), 2u);
  EXPECT_GE(threadsOfDispatch(*dev, 64, kInlineDispatchNs, true).size(), 2u);
}

// Destroying a queue runs what was submitted to it first.
TEST(CpuDeviceTest, DestroyingAQueueDrainsIt) {
  auto dev = makeCpu(2);
  ASSERT_TRUE(dev);
  auto m = loadTestKernels(*dev);
  ASSERT_TRUE(m.isOk());
  std::vector<uint32_t> out(4, 0);
  Buffer b = *dev->importHost(out.data(), 16);
  Binding binding{b, 0, 16};
  uint32_t us = 20000;
  {
    auto q = dev->createQueue();
    ASSERT_TRUE(q.isOk());
    ASSERT_TRUE((*q)->submit(Command::dispatch(m->kernels[kSleep], 4, 1, 1,
                                               &binding, 1, &us, 1))
                    .isOk());
  }
  EXPECT_EQ(out, std::vector<uint32_t>(4, 1));
}

// A queue may outlive its device: it still drains, then releases the
// device's state.
TEST(CpuDeviceTest, QueueMayOutliveItsDevice) {
  auto dev = makeCpu(2);
  ASSERT_TRUE(dev);
  auto m = loadTestKernels(*dev);
  ASSERT_TRUE(m.isOk());
  std::vector<uint32_t> out(2, 0);
  Buffer b = *dev->importHost(out.data(), 8);
  Binding binding{b, 0, 8};
  uint32_t us = 20000;
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  auto f = (*q)->submit(
      Command::dispatch(m->kernels[kSleep], 2, 1, 1, &binding, 1, &us, 1));
  ASSERT_TRUE(f.isOk());
  dev.reset();
  EXPECT_TRUE((*q)->wait(*f).isOk());
  EXPECT_EQ(out, std::vector<uint32_t>(2, 1));
}

// Independent commands on two queues overlap in time: a session that
// spreads independent chains over queues (with fences for the dependencies
// between them) gets concurrency.
TEST(CpuDeviceTest, CommandsOfDifferentQueuesOverlap) {
  auto dev = makeCpu(2);
  ASSERT_TRUE(dev);
  auto m = loadTestKernels(*dev);
  ASSERT_TRUE(m.isOk());
  std::vector<uint32_t> out(2, 0);
  Buffer b = *dev->importHost(out.data(), 8);
  Binding first{b, 0, 4}, second{b, 4, 4};
  uint32_t us = 200000;
  auto q1 = dev->createQueue(), q2 = dev->createQueue();
  ASSERT_TRUE(q1.isOk() && q2.isOk());
  CommandTiming t1, t2;
  Command c1 =
      Command::dispatch(m->kernels[kSleep], 1, 1, 1, &first, 1, &us, 1);
  Command c2 =
      Command::dispatch(m->kernels[kSleep], 1, 1, 1, &second, 1, &us, 1);
  c1.timing = &t1;
  c2.timing = &t2;
  auto f1 = (*q1)->submit(c1);
  auto f2 = (*q2)->submit(c2);
  ASSERT_TRUE(f1.isOk() && f2.isOk());
  ASSERT_TRUE((*q1)->wait(*f1).isOk());
  ASSERT_TRUE((*q2)->wait(*f2).isOk());
  EXPECT_LT(t1.startNs, t2.endNs);
  EXPECT_LT(t2.startNs, t1.endNs);
  EXPECT_EQ(out, std::vector<uint32_t>(2, 1));
}

namespace {

// A caller queue records commands and runs them on the thread that waits:
// nothing has run before the wait, everything up to the fence after it.
TEST(CpuCallerQueueTest, RunsWhatItRecordedWhenWaitedOn) {
  auto dev = makeCpu(2);
  ASSERT_TRUE(dev);
  auto q = dev->createCallerQueue();
  ASSERT_TRUE(q) << q.status().toString();
  Buffer b = *dev->allocate(16, 0);
  uint32_t v[4] = {1, 2, 3, 4};
  ASSERT_TRUE(dev->write(b, 0, v, 16));
  auto f1 = (*q)->submit(Command::copy(b, 0, b, 4, 4)); // v[1] = v[0]
  auto f2 = (*q)->submit(Command::copy(b, 4, b, 8, 4)); // v[2] = v[1]
  ASSERT_TRUE(f1 && f2);
  EXPECT_FALSE((*q)->isSignalled(*f1));
  uint32_t got[4];
  ASSERT_TRUE(dev->read(b, 0, got, 16));
  EXPECT_EQ(got[1], 2u) << "a caller queue ran a command before any wait";
  ASSERT_TRUE((*q)->wait(*f1));
  EXPECT_TRUE((*q)->isSignalled(*f1));
  EXPECT_FALSE((*q)->isSignalled(*f2));
  ASSERT_TRUE((*q)->finish());
  ASSERT_TRUE(dev->read(b, 0, got, 16));
  EXPECT_EQ(got[1], 1u);
  EXPECT_EQ(got[2], 1u);
  ASSERT_TRUE(dev->free(b));
}

// Destroying a caller queue runs what it still holds, as a queue thread
// drains its ring before it stops.
TEST(CpuCallerQueueTest, DrainsWhenDestroyed) {
  auto dev = makeCpu(1);
  ASSERT_TRUE(dev);
  Buffer b = *dev->allocate(8, 0);
  uint32_t v[2] = {5, 0};
  ASSERT_TRUE(dev->write(b, 0, v, 8));
  {
    auto q = dev->createCallerQueue();
    ASSERT_TRUE(q);
    ASSERT_TRUE((*q)->submit(Command::copy(b, 0, b, 4, 4)));
  }
  uint32_t got[2];
  ASSERT_TRUE(dev->read(b, 0, got, 8));
  EXPECT_EQ(got[1], 5u);
  ASSERT_TRUE(dev->free(b));
}

// More commands than the ring holds: the submitting thread runs the oldest.
TEST(CpuCallerQueueTest, AFullRingRunsItsOldestOnSubmit) {
  auto dev = makeCpu(1);
  ASSERT_TRUE(dev);
  Buffer b = *dev->allocate(8, 0);
  uint32_t v[2] = {9, 0};
  ASSERT_TRUE(dev->write(b, 0, v, 8));
  auto q = dev->createCallerQueue();
  ASSERT_TRUE(q);
  std::vector<Fence> fences;
  for (int i = 0; i < 1000; ++i) {
    auto f = (*q)->submit(Command::copy(b, 0, b, 4, 4));
    ASSERT_TRUE(f) << f.status().toString();
    fences.push_back(*f);
  }
  EXPECT_TRUE((*q)->isSignalled(fences[0]));
  EXPECT_FALSE((*q)->isSignalled(fences.back()));
  ASSERT_TRUE((*q)->finish());
  EXPECT_TRUE((*q)->isSignalled(fences.back()));
  ASSERT_TRUE(dev->free(b));
}

} // namespace
