//===- NoAllocationTest.cpp - Dispatches allocate nothing -----------------===//
//
// Counts the global operator new calls of this test binary (CountingNew.h)
// while counting is on, from every thread (the submitter, the queue
// thread and the pool's workers), and checks that submitting and running
// dispatches and copies allocates nothing once a session is set up.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"
#include "cpu/CpuDevice.h"

#include "CountingNew.h"

#include <gtest/gtest.h>

using namespace fuel::rt;
using namespace fuel::rt::test;

// The counter counts: a std::string past the small-string size allocates.
TEST(NoAllocationTest, CounterSeesAllocations) {
  allocations = 0;
  counting = true;
  std::string s(100, 'x');
  counting = false;
  EXPECT_GE(allocations.load(), 1u);
}

// After set-up (device, module, buffers, queue, reserved workspace), 2,000
// fanned-out and inline dispatches with bindings, push constants and
// timings, copies, and the waits on them allocate nothing on any thread.
TEST(NoAllocationTest, DispatchesAndCopiesAllocateNothing) {
  for (unsigned threads : {1u, 4u}) {
    CpuDeviceOptions o;
    o.threads = threads;
    auto dev = CpuDevice::create(o);
    ASSERT_TRUE(dev.isOk());
    ASSERT_TRUE((*dev)->reserveWorkspace(4096).isOk());
    auto m = loadTestKernels(**dev);
    ASSERT_TRUE(m.isOk()) << m.status().message();
    const uint32_t n = 4096, block = 256;
    Buffer a = *(*dev)->allocate(4 * n, 64), b = *(*dev)->allocate(4 * n, 64),
           c = *(*dev)->allocate(4 * n, 64);
    Binding bindings[3] = {{a, 0, 4 * n}, {b, 0, 4 * n}, {c, 0, 4 * n}};
    uint32_t push[2] = {n, block};
    CommandTiming timing;
    auto queue = (*dev)->createQueue();
    ASSERT_TRUE(queue.isOk());
    Queue &q = **queue;
    Command fanOut = Command::dispatch(m->kernels[kVadd], n / block, 1, 1,
                                       bindings, 3, push, 2);
    fanOut.timing = &timing;
    fanOut.workspaceBytes = 4096;
    Command inlined = fanOut;
    inlined.predictedNs = 500;
    Command copy = Command::copy(c, 0, a, 0, 4 * n);
    // Warm up: first use of every path.
    ASSERT_TRUE(q.submit(fanOut).isOk());
    ASSERT_TRUE(q.submit(inlined).isOk());
    ASSERT_TRUE(q.submit(copy).isOk());
    ASSERT_TRUE(q.finish().isOk());

    allocations = 0;
    counting = true;
    bool ok = true;
    for (int i = 0; i < 1000 && ok; ++i) {
      auto f1 = q.submit(i % 2 ? fanOut : inlined);
      auto f2 = q.submit(copy);
      ok = f1.isOk() && f2.isOk();
      if (ok && i % 100 == 0)
        ok = q.wait(*f2).isOk();
    }
    ok = ok && q.finish().isOk();
    counting = false;
    EXPECT_TRUE(ok);
    EXPECT_EQ(allocations.load(), 0u) << "threads " << threads;
  }
}
