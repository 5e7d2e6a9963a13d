//===- DeviceConformance.cpp - One test suite for every device ------------===//
//
// Fences, zero-size and offset copies, bounds, error statuses, timestamps
// and concurrent sessions, against the Device interface only.
//
//===----------------------------------------------------------------------===//

#include "DeviceConformance.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

std::unique_ptr<Device> makeDevice(const ConformanceTarget &t,
                                   uint64_t limit = 0) {
  auto d = t.create(limit);
  EXPECT_TRUE(d.isOk()) << d.status().message();
  return d.isOk() ? std::move(*d) : nullptr;
}

Buffer mustAllocate(Device &d, uint64_t size, uint64_t align = 0) {
  auto b = d.allocate(size, align);
  EXPECT_TRUE(b.isOk()) << b.status().message();
  return b.isOk() ? *b : Buffer{};
}

std::vector<float> iota(size_t n, float start) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = start + float(i) * 0.5f;
  return v;
}

} // namespace

// Allocation counts against the limit; freeing returns it; misuse of
// handles and alignments is refused with a status.
TEST_P(DeviceConformance, AllocateChecksLimitAlignmentAndHandles) {
  auto dev = makeDevice(GetParam(), 1 << 20);
  ASSERT_TRUE(dev);
  EXPECT_EQ(dev->info().memoryLimit, uint64_t(1) << 20);
  Buffer a = mustAllocate(*dev, 1000, 256);
  EXPECT_EQ(dev->bytesAllocated(), 1000u);
  auto size = dev->bufferSize(a);
  ASSERT_TRUE(size.isOk());
  EXPECT_EQ(*size, 1000u);

  auto tooBig = dev->allocate((1 << 20) - 999, 0);
  ASSERT_FALSE(tooBig.isOk());
  EXPECT_EQ(tooBig.status().code(), StatusCode::ResourceExhausted);
  EXPECT_NE(tooBig.status().message().find("memory limit"), std::string::npos);
  auto huge = dev->allocate(~uint64_t(0), 0);
  EXPECT_EQ(huge.status().code(), StatusCode::ResourceExhausted);

  Buffer fits = mustAllocate(*dev, (1 << 20) - 1000);
  EXPECT_EQ(dev->bytesAllocated(), uint64_t(1) << 20);
  EXPECT_TRUE(dev->free(fits).isOk());

  auto badAlign = dev->allocate(16, 48);
  EXPECT_EQ(badAlign.status().code(), StatusCode::InvalidArgument);
  auto hugeAlign = dev->allocate(16, dev->info().maxAlignment * 2);
  EXPECT_EQ(hugeAlign.status().code(), StatusCode::InvalidArgument);

  EXPECT_TRUE(dev->free(a).isOk());
  EXPECT_EQ(dev->bytesAllocated(), 0u);
  Status twice = dev->free(a);
  EXPECT_EQ(twice.code(), StatusCode::InvalidArgument);
  EXPECT_NE(twice.message().find("not a live buffer"), std::string::npos);
  EXPECT_EQ(dev->free(Buffer{}).code(), StatusCode::InvalidArgument);
  EXPECT_FALSE(dev->bufferSize(a).isOk());
}

// A handle of one device is not a handle of another.
TEST_P(DeviceConformance, HandlesOfAnotherDeviceAreRefused) {
  auto d1 = makeDevice(GetParam()), d2 = makeDevice(GetParam());
  ASSERT_TRUE(d1 && d2);
  Buffer b = mustAllocate(*d1, 64);
  uint32_t v = 7;
  EXPECT_EQ(d2->write(b, 0, &v, 4).code(), StatusCode::InvalidArgument);
  EXPECT_EQ(d2->free(b).code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(d1->free(b).isOk());
}

// Zero-size buffers and zero-byte copies are valid anywhere up to the end;
// one byte past it is not.
TEST_P(DeviceConformance, ZeroSizeCopiesAreValid) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  Buffer empty = mustAllocate(*dev, 0);
  Buffer b = mustAllocate(*dev, 16);
  char c = 0;
  EXPECT_TRUE(dev->write(empty, 0, &c, 0).isOk());
  EXPECT_TRUE(dev->read(empty, 0, &c, 0).isOk());
  EXPECT_TRUE(dev->write(b, 16, &c, 0).isOk());
  EXPECT_TRUE(dev->write(b, 16, nullptr, 0).isOk());
  EXPECT_TRUE(dev->copy(b, 16, empty, 0, 0).isOk());
  EXPECT_TRUE(dev->copy(empty, 0, b, 3, 0).isOk());
  EXPECT_EQ(dev->write(b, 17, &c, 0).code(), StatusCode::OutOfRange);
  EXPECT_EQ(dev->read(empty, 1, &c, 0).code(), StatusCode::OutOfRange);
  EXPECT_TRUE(dev->free(empty).isOk());
  EXPECT_TRUE(dev->free(b).isOk());
}

// Host->device, device->device and device->host copies at offsets land
// exactly where they should and nowhere else.
TEST_P(DeviceConformance, OffsetCopiesRoundTrip) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  Buffer a = mustAllocate(*dev, 256), b = mustAllocate(*dev, 256);
  std::vector<uint8_t> zeros(256, 0), pattern(100);
  std::iota(pattern.begin(), pattern.end(), uint8_t(1));
  ASSERT_TRUE(dev->write(a, 0, zeros.data(), 256).isOk());
  ASSERT_TRUE(dev->write(b, 0, zeros.data(), 256).isOk());
  ASSERT_TRUE(dev->write(a, 7, pattern.data(), 100).isOk());
  ASSERT_TRUE(dev->copy(a, 17, b, 130, 50).isOk());
  std::vector<uint8_t> out(256);
  ASSERT_TRUE(dev->read(b, 0, out.data(), 256).isOk());
  for (size_t i = 0; i < 256; ++i) {
    uint8_t want = (i >= 130 && i < 180) ? uint8_t(11 + (i - 130)) : 0;
    ASSERT_EQ(out[i], want) << "byte " << i;
  }
  std::vector<uint8_t> part(10);
  // The last bytes of the pattern, then the zeros after it.
  ASSERT_TRUE(dev->read(a, 100, part.data(), 10).isOk());
  for (size_t i = 0; i < 10; ++i)
    EXPECT_EQ(part[i], i < 7 ? uint8_t(94 + i) : 0);
  // Overlapping copy within one buffer behaves like memmove.
  ASSERT_TRUE(dev->copy(a, 7, a, 9, 100).isOk());
  ASSERT_TRUE(dev->read(a, 9, part.data(), 10).isOk());
  for (size_t i = 0; i < 10; ++i)
    EXPECT_EQ(part[i], uint8_t(1 + i));
  EXPECT_TRUE(dev->free(a).isOk());
  EXPECT_TRUE(dev->free(b).isOk());
}

// A range past the end is refused with OutOfRange and changes nothing,
// including ranges whose end overflows 64 bits.
TEST_P(DeviceConformance, OutOfBoundsCopiesAreRefused) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  Buffer a = mustAllocate(*dev, 64), b = mustAllocate(*dev, 32);
  std::vector<uint8_t> ones(64, 1), out(64, 9);
  ASSERT_TRUE(dev->write(a, 0, ones.data(), 64).isOk());
  Status s = dev->write(a, 60, ones.data(), 5);
  EXPECT_EQ(s.code(), StatusCode::OutOfRange);
  EXPECT_NE(s.message().find("64 bytes"), std::string::npos) << s.message();
  EXPECT_EQ(dev->read(a, 1, out.data(), 64).code(), StatusCode::OutOfRange);
  EXPECT_EQ(dev->read(a, ~uint64_t(0), out.data(), 2).code(),
            StatusCode::OutOfRange);
  EXPECT_EQ(dev->copy(a, 0, b, 0, 33).code(), StatusCode::OutOfRange);
  EXPECT_EQ(dev->copy(a, 40, b, 0, 32).code(), StatusCode::OutOfRange);
  EXPECT_EQ(dev->copy(a, 8, b, 1, ~uint64_t(0)).code(), StatusCode::OutOfRange);
  EXPECT_EQ(dev->write(a, 0, nullptr, 4).code(), StatusCode::InvalidArgument);
  ASSERT_TRUE(dev->read(a, 0, out.data(), 64).isOk());
  EXPECT_EQ(out, ones);
  EXPECT_TRUE(dev->free(a).isOk());
  EXPECT_TRUE(dev->free(b).isOk());
}

// A dispatch with bindings at offsets computes over the bound ranges.
TEST_P(DeviceConformance, DispatchWithOffsetBindings) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto k = GetParam().loadKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  const uint32_t n = 1000, block = 64;
  Buffer buf = mustAllocate(*dev, 4 * 3 * 1024 + 256);
  auto a = iota(n, 1.0f), b = iota(n, -3.0f);
  ASSERT_TRUE(dev->write(buf, 256, a.data(), 4 * n).isOk());
  ASSERT_TRUE(dev->write(buf, 256 + 4096, b.data(), 4 * n).isOk());
  Binding bindings[3] = {
      {buf, 256, 4 * n}, {buf, 256 + 4096, 4 * n}, {buf, 256 + 8192, 4 * n}};
  uint32_t push[2] = {n, block};
  auto queue = dev->createQueue();
  ASSERT_TRUE(queue.isOk());
  auto fence = (*queue)->submit(Command::dispatch(
      k->vadd, (n + block - 1) / block, 1, 1, bindings, 3, push, 2));
  ASSERT_TRUE(fence.isOk()) << fence.status().message();
  ASSERT_TRUE((*queue)->wait(*fence).isOk());
  std::vector<float> c(n);
  ASSERT_TRUE(dev->read(buf, 256 + 8192, c.data(), 4 * n).isOk());
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

// Every workgroup of a 3-D grid runs exactly once with its own id.
TEST_P(DeviceConformance, EveryWorkgroupRunsOnce) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto k = GetParam().loadKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  const uint32_t gx = 7, gy = 5, gz = 3, total = gx * gy * gz;
  Buffer out = mustAllocate(*dev, 4 * total),
         count = mustAllocate(*dev, 4 * total);
  std::vector<uint32_t> zeros(total, 0);
  ASSERT_TRUE(dev->write(count, 0, zeros.data(), 4 * total).isOk());
  Binding bindings[2] = {{out, 0, 4 * total}, {count, 0, 4 * total}};
  auto queue = dev->createQueue();
  ASSERT_TRUE(queue.isOk());
  auto fence =
      (*queue)->submit(Command::dispatch(k->wgid, gx, gy, gz, bindings, 2));
  ASSERT_TRUE(fence.isOk());
  ASSERT_TRUE((*queue)->wait(*fence).isOk());
  std::vector<uint32_t> ids(total), counts(total);
  ASSERT_TRUE(dev->read(out, 0, ids.data(), 4 * total).isOk());
  ASSERT_TRUE(dev->read(count, 0, counts.data(), 4 * total).isOk());
  for (uint32_t z = 0; z < gz; ++z)
    for (uint32_t y = 0; y < gy; ++y)
      for (uint32_t x = 0; x < gx; ++x) {
        uint32_t i = (z * gy + y) * gx + x;
        EXPECT_EQ(ids[i], 1 + x + 1000 * y + 1000000 * z);
        EXPECT_EQ(counts[i], 1u);
      }
}

// Misuse at submit is refused with a status and enqueues nothing.
TEST_P(DeviceConformance, SubmitRefusesBadCommands) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto k = GetParam().loadKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  Buffer buf = mustAllocate(*dev, 64);
  auto queue = dev->createQueue();
  ASSERT_TRUE(queue.isOk());
  Queue &q = **queue;
  uint32_t push[2] = {16, 16};

  const uint64_t align =
      std::max<uint64_t>(4, dev->info().bindingOffsetAlignment);
  Binding past[3] = {{buf, 0, 64}, {buf, 0, 64}, {buf, align, 64}};
  auto r = q.submit(Command::dispatch(k->vadd, 1, 1, 1, past, 3, push, 2));
  EXPECT_EQ(r.status().code(), StatusCode::OutOfRange);
  EXPECT_NE(r.status().message().find("binding 2"), std::string::npos)
      << r.status().message();

  Binding ok[3] = {{buf, 0, 64}, {buf, 0, 64}, {buf, 0, 64}};
  r = q.submit(Command::dispatch(Kernel{buf.id}, 1, 1, 1, ok, 3, push, 2));
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("kernel"), std::string::npos);

  Binding freed[3] = {{Buffer{999999999}, 0, 4}, {buf, 0, 4}, {buf, 0, 4}};
  r = q.submit(Command::dispatch(k->vadd, 1, 1, 1, freed, 3, push, 2));
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);

  r = q.submit(Command::dispatch(k->vadd, 1, 1, 1, nullptr, 3, push, 2));
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  r = q.submit(Command::dispatch(k->vadd, 1, 1, 1, ok, kMaxBindings + 1));
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  r = q.submit(
      Command::dispatch(k->vadd, 1u << 31, 1u << 31, 1u << 31, ok, 3, push, 2));
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);

  r = q.submit(Command::copy(buf, 32, buf, 0, 33));
  EXPECT_EQ(r.status().code(), StatusCode::OutOfRange);

  Command huge = Command::dispatch(k->vadd, 1, 1, 1, ok, 3, push, 2);
  huge.workspaceBytes = uint64_t(1) << 40;
  r = q.submit(huge);
  EXPECT_EQ(r.status().code(), StatusCode::FailedPrecondition);

  // Nothing was enqueued: the next good command gets the first fence.
  auto good = q.submit(Command::copy(buf, 0, buf, 32, 32));
  ASSERT_TRUE(good.isOk());
  EXPECT_EQ(good->value, 1u);
  EXPECT_TRUE(q.wait(*good).isOk());
}

// Fences signal in submission order, each command is timed, and the times
// of one queue's commands do not overlap.
TEST_P(DeviceConformance, FencesSignalInSubmissionOrder) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto k = GetParam().loadKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  // One word per command, at offsets every binding may take.
  const uint64_t stride =
      std::max<uint64_t>(4, dev->info().bindingOffsetAlignment);
  Buffer out = mustAllocate(*dev, 8 * stride);
  std::vector<uint8_t> zeros(8 * stride, 0);
  ASSERT_TRUE(dev->write(out, 0, zeros.data(), 8 * stride).isOk());
  auto queue = dev->createQueue();
  ASSERT_TRUE(queue.isOk());
  Queue &q = **queue;
  Binding bindings[8];
  uint32_t push[8];
  CommandTiming timing[8];
  Fence fences[8];
  for (int i = 0; i < 8; ++i) {
    bindings[i] = {out, i * stride, 4};
    push[i] = i == 0 ? 20000 : 100; // The first one is slow.
    Command c =
        Command::dispatch(k->sleep, 1, 1, 1, &bindings[i], 1, &push[i], 1);
    c.timing = &timing[i];
    auto f = q.submit(c);
    ASSERT_TRUE(f.isOk()) << f.status().message();
    fences[i] = *f;
    EXPECT_EQ(fences[i].value, uint64_t(i + 1));
  }
  EXPECT_FALSE(q.isSignalled(fences[7]));
  ASSERT_TRUE(q.wait(fences[3]).isOk());
  for (int i = 0; i <= 3; ++i)
    EXPECT_TRUE(q.isSignalled(fences[i])) << i;
  ASSERT_TRUE(q.finish().isOk());
  for (int i = 0; i < 8; ++i) {
    uint32_t got = 0;
    ASSERT_TRUE(dev->read(out, i * stride, &got, 4).isOk());
    EXPECT_EQ(got, 1u);
    EXPECT_TRUE(q.isSignalled(fences[i]));
    EXPECT_GT(timing[i].startNs, 0u);
    EXPECT_LE(timing[i].startNs, timing[i].endNs);
    if (i) {
      EXPECT_LE(timing[i - 1].endNs, timing[i].startNs);
    }
  }
  EXPECT_GE(timing[0].endNs - timing[0].startNs, 20000u * 1000u);
  EXPECT_TRUE(q.isSignalled(Fence{}));
  EXPECT_TRUE(q.wait(Fence{}).isOk());
}

// Waiting on a fence of another queue, or one never returned, is refused.
TEST_P(DeviceConformance, WaitRefusesForeignAndFutureFences) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto q1 = dev->createQueue(), q2 = dev->createQueue();
  ASSERT_TRUE(q1.isOk() && q2.isOk());
  Buffer b = mustAllocate(*dev, 8);
  auto f = (*q1)->submit(Command::copy(b, 0, b, 4, 4));
  ASSERT_TRUE(f.isOk());
  EXPECT_EQ((*q2)->wait(*f).code(), StatusCode::InvalidArgument);
  EXPECT_EQ((*q1)->wait(Fence{q1->get(), 5}).code(),
            StatusCode::InvalidArgument);
  EXPECT_FALSE((*q2)->isSignalled(*f));
  EXPECT_TRUE((*q1)->wait(*f).isOk());
}

// A command waits for fences of another queue before it runs.
TEST_P(DeviceConformance, CommandsWaitOnOtherQueuesFences) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto k = GetParam().loadKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  auto q1 = dev->createQueue(), q2 = dev->createQueue();
  ASSERT_TRUE(q1.isOk() && q2.isOk());
  Buffer flag = mustAllocate(*dev, 4), copy = mustAllocate(*dev, 4);
  uint32_t zero = 0, us = 20000;
  ASSERT_TRUE(dev->write(flag, 0, &zero, 4).isOk());
  ASSERT_TRUE(dev->write(copy, 0, &zero, 4).isOk());
  Binding b{flag, 0, 4};
  auto slow =
      (*q1)->submit(Command::dispatch(k->sleep, 1, 1, 1, &b, 1, &us, 1));
  ASSERT_TRUE(slow.isOk());
  Fence waits[1] = {*slow};
  auto after = (*q2)->submit(Command::copy(flag, 0, copy, 0, 4), waits, 1);
  ASSERT_TRUE(after.isOk()) << after.status().message();
  ASSERT_TRUE((*q2)->wait(*after).isOk());
  EXPECT_TRUE((*q1)->isSignalled(*slow));
  uint32_t got = 0;
  ASSERT_TRUE(dev->read(copy, 0, &got, 4).isOk());
  EXPECT_EQ(got, 1u);
}

// A buffer freed before its command ran fails that command with a status;
// the queue then reports the failure for every later fence.
TEST_P(DeviceConformance, FailedCommandIsReportedByLaterFences) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto k = GetParam().loadKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  auto queue = dev->createQueue();
  ASSERT_TRUE(queue.isOk());
  Queue &q = **queue;
  Buffer keep = mustAllocate(*dev, 4), doomed = mustAllocate(*dev, 4);
  uint32_t us = 200000; // Ample time to free `doomed` before the copy runs.
  Binding b{keep, 0, 4};
  auto slow = q.submit(Command::dispatch(k->sleep, 1, 1, 1, &b, 1, &us, 1));
  ASSERT_TRUE(slow.isOk());
  auto bad = q.submit(Command::copy(doomed, 0, keep, 0, 4));
  ASSERT_TRUE(bad.isOk());
  auto later = q.submit(Command::copy(keep, 0, keep, 0, 4));
  ASSERT_TRUE(later.isOk());
  ASSERT_TRUE(dev->free(doomed).isOk());
  EXPECT_TRUE(q.wait(*slow).isOk());
  Status s = q.wait(*bad);
  EXPECT_EQ(s.code(), StatusCode::FailedPrecondition);
  EXPECT_NE(s.message().find("freed"), std::string::npos) << s.message();
  EXPECT_EQ(q.wait(*later).code(), StatusCode::FailedPrecondition);
  EXPECT_EQ(q.finish().code(), StatusCode::FailedPrecondition);
}

// Two sessions on two threads, each with its own queue and buffers, run
// interleaved dispatches and copies and both get exact results.
TEST_P(DeviceConformance, ConcurrentSessionsFromTwoThreads) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto k = GetParam().loadKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  std::atomic<int> failures{0};
  auto session = [&](float base) {
    const uint32_t n = 4096, block = 128;
    auto queue = dev->createQueue();
    if (!queue.isOk())
      return void(++failures);
    Buffer a = *dev->allocate(4 * n, 64), b = *dev->allocate(4 * n, 64),
           c = *dev->allocate(4 * n, 64);
    auto av = iota(n, base), bv = iota(n, 2 * base);
    if (!dev->write(a, 0, av.data(), 4 * n).isOk() ||
        !dev->write(b, 0, bv.data(), 4 * n).isOk())
      return void(++failures);
    Binding bindings[3] = {{a, 0, 4 * n}, {b, 0, 4 * n}, {c, 0, 4 * n}};
    uint32_t push[2] = {n, block};
    for (int round = 0; round < 100; ++round) {
      // c = a + b, then a = c: a grows by b each round.
      if (!(*queue)
               ->submit(Command::dispatch(k->vadd, n / block, 1, 1, bindings, 3,
                                          push, 2))
               .isOk() ||
          !(*queue)->submit(Command::copy(c, 0, a, 0, 4 * n)).isOk())
        return void(++failures);
    }
    if (!(*queue)->finish().isOk())
      return void(++failures);
    std::vector<float> got(n);
    if (!dev->read(a, 0, got.data(), 4 * n).isOk())
      return void(++failures);
    for (uint32_t i = 0; i < n; ++i) {
      float want = av[i];
      for (int round = 0; round < 100; ++round)
        want = want + bv[i];
      if (got[i] != want)
        return void(++failures);
    }
    for (Buffer x : {a, b, c})
      if (!dev->free(x).isOk())
        ++failures;
  };
  std::thread t1(session, 1.0f), t2(session, -7.25f);
  t1.join();
  t2.join();
  EXPECT_EQ(failures.load(), 0);
}

// A binding offset that is not a multiple of the device's
// bindingOffsetAlignment is refused, never silently misaligned; one that is
// works.
TEST_P(DeviceConformance, BindingOffsetsFollowTheDeviceAlignment) {
  auto dev = makeDevice(GetParam());
  ASSERT_TRUE(dev);
  auto k = GetParam().loadKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  const uint64_t align = dev->info().bindingOffsetAlignment;
  ASSERT_GE(align, 1u);
  ASSERT_EQ(align & (align - 1), 0u) << "not a power of two";
  const uint64_t at = std::max<uint64_t>(4, align);
  Buffer out = mustAllocate(*dev, 2 * at + 64);
  std::vector<uint8_t> zeros(2 * at + 64, 0);
  ASSERT_TRUE(dev->write(out, 0, zeros.data(), zeros.size()).isOk());
  auto queue = dev->createQueue();
  ASSERT_TRUE(queue.isOk());
  uint32_t us = 1;
  if (align > 4) {
    Binding bad{out, 4, 4};
    auto r =
        (*queue)->submit(Command::dispatch(k->sleep, 1, 1, 1, &bad, 1, &us, 1));
    EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
    EXPECT_NE(r.status().message().find("alignment"), std::string::npos)
        << r.status().message();
  }
  Binding good{out, at, 4};
  auto f =
      (*queue)->submit(Command::dispatch(k->sleep, 1, 1, 1, &good, 1, &us, 1));
  ASSERT_TRUE(f.isOk()) << f.status().message();
  ASSERT_TRUE((*queue)->wait(*f).isOk());
  uint32_t got = 0, before = 7;
  ASSERT_TRUE(dev->read(out, at, &got, 4).isOk());
  EXPECT_EQ(got, 1u);
  ASSERT_TRUE(dev->read(out, 0, &before, 4).isOk());
  EXPECT_EQ(before, 0u);
}
