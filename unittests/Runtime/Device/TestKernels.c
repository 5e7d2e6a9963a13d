//===- TestKernels.c - Kernels the device tests load from bytes -----------===//
//
// A small module of kernel-ABI functions, built as a shared library by the
// tests' CMake; the tests read its bytes and load them through the device,
// as the runtime loads an executable's CPU segment.
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include "fuel-c/KernelABI.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

// c[i] = a[i] + b[i] for i in this workgroup's block of push[1] elements;
// push[0] is the element count. Bindings: a, b, c (float).
EXPORT void fuel_test_vadd(const fuel_dispatch *d, void *workspace, uint32_t x,
                           uint32_t y, uint32_t z) {
  (void)workspace;
  (void)y;
  (void)z;
  const float *a = (const float *)d->bindings[0];
  const float *b = (const float *)d->bindings[1];
  float *c = (float *)d->bindings[2];
  uint32_t n = d->push_constants[0], block = d->push_constants[1];
  uint64_t begin = (uint64_t)x * block, end = begin + block;
  if (end > n)
    end = n;
  for (uint64_t i = begin; i < end; ++i)
    c[i] = a[i] + b[i];
}

// out[linear id] = 1 + x + 1000 y + 1000000 z, and count[linear id] += 1
// (every workgroup runs exactly once). Bindings: out, count (uint32).
EXPORT void fuel_test_wgid(const fuel_dispatch *d, void *workspace, uint32_t x,
                           uint32_t y, uint32_t z) {
  (void)workspace;
  uint32_t *out = (uint32_t *)d->bindings[0];
  uint32_t *count = (uint32_t *)d->bindings[1];
  uint64_t i = ((uint64_t)z * d->grid[1] + y) * d->grid[0] + x;
  out[i] = 1u + x + 1000u * y + 1000000u * z;
  count[i] += 1;
}

// Sums a block of push[1] floats through the workspace: copies the block
// in, reduces it in a fixed, non-trivial order (pairwise, so the result
// depends on the order and would change if blocks were split differently),
// writes sum[x]. flags[x] = 1 if the workspace is not 64-byte aligned.
// Bindings: in (float), sum (float), flags (uint32). Workspace: push[1]
// floats.
EXPORT void fuel_test_workspace_sum(const fuel_dispatch *d, void *workspace,
                                    uint32_t x, uint32_t y, uint32_t z) {
  (void)y;
  (void)z;
  const float *in = (const float *)d->bindings[0];
  float *sum = (float *)d->bindings[1];
  uint32_t *flags = (uint32_t *)d->bindings[2];
  uint32_t block = d->push_constants[1];
  float *ws = (float *)workspace;
  flags[x] = ((uintptr_t)workspace % FUEL_WORKSPACE_ALIGNMENT) != 0;
  memcpy(ws, in + (uint64_t)x * block, block * sizeof(float));
  for (uint32_t width = 1; width < block; width *= 2)
    for (uint32_t i = 0; i + width < block; i += 2 * width)
      ws[i] = ws[i] + ws[i + width] * 1.0000001f;
  sum[x] = ws[0];
}

// Uses 6 MiB of stack: runs only on threads with big stacks (beyond the
// 256 KiB a real kernel may use; it checks the pool's stack guarantee).
// Writes the sum of its stack array to out[x]. Bindings: out (uint32).
EXPORT void fuel_test_deep_stack(const fuel_dispatch *d, void *workspace,
                                 uint32_t x, uint32_t y, uint32_t z) {
  (void)workspace;
  (void)y;
  (void)z;
  volatile unsigned char big[6u << 20];
  for (uint32_t i = 0; i < sizeof big; i += 4096)
    big[i] = (unsigned char)(i >> 12);
  uint32_t s = 0;
  for (uint32_t i = 0; i < sizeof big; i += 4096)
    s += big[i];
  ((uint32_t *)d->bindings[0])[x] = s;
}

// Does nothing: the kernel of the dispatch-overhead benchmark.
EXPORT void fuel_test_empty(const fuel_dispatch *d, void *workspace, uint32_t x,
                            uint32_t y, uint32_t z) {
  (void)d;
  (void)workspace;
  (void)x;
  (void)y;
  (void)z;
}

// Spins for push[0] microseconds, then writes 1 to out[x]: a long command
// for tests of fences and overlap. Bindings: out (uint32).
EXPORT void fuel_test_sleep(const fuel_dispatch *d, void *workspace, uint32_t x,
                            uint32_t y, uint32_t z) {
  (void)workspace;
  (void)y;
  (void)z;
  struct timespec ts = {0, (long)d->push_constants[0] * 1000L};
  nanosleep(&ts, NULL);
  ((uint32_t *)d->bindings[0])[x] = 1;
}

// out[x] = in[x] + 1 (uint32): run after fuel_test_sleep wrote 1 to in[x],
// it writes 2; run too early, it writes 1. Bindings: in, out (uint32).
EXPORT void fuel_test_increment(const fuel_dispatch *d, void *workspace,
                                uint32_t x, uint32_t y, uint32_t z) {
  (void)workspace;
  (void)y;
  (void)z;
  const uint32_t *in = (const uint32_t *)d->bindings[0];
  uint32_t *out = (uint32_t *)d->bindings[1];
  out[x] = in[x] + 1;
}

// ids[x] = the calling thread (pthread_self). With push[0] set, also waits
// (up to 5 s) until a second thread has run a workgroup, so a test can
// check that a dispatch fans out without depending on timing.
// Bindings: ids (uint64 per workgroup), state (uint64[2]: first thread,
// a second thread seen).
EXPORT void fuel_test_thread_id(const fuel_dispatch *d, void *workspace,
                                uint32_t x, uint32_t y, uint32_t z) {
  (void)workspace;
  (void)y;
  (void)z;
  uint64_t self = (uint64_t)pthread_self();
  ((uint64_t *)d->bindings[0])[x] = self;
  if (!d->push_constants || !d->push_constants[0])
    return;
  uint64_t *state = (uint64_t *)d->bindings[1];
  uint64_t expected = 0;
  if (!__atomic_compare_exchange_n(&state[0], &expected, self, 0,
                                   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) &&
      expected != self)
    __atomic_store_n(&state[1], 1, __ATOMIC_SEQ_CST);
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (!__atomic_load_n(&state[1], __ATOMIC_SEQ_CST)) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > 5)
      return;
    sched_yield();
  }
}
