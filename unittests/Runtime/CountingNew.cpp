//===- CountingNew.cpp - A global operator new that counts ----------------===//
//
// The replacement global operator new and delete of CountingNew.h. Aligned
// requests go to aligned_alloc, the rest to malloc; every delete is free.
//
//===----------------------------------------------------------------------===//

#include "CountingNew.h"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace fuel::rt::test {
std::atomic<bool> counting{false};
std::atomic<uint64_t> allocations{0};
} // namespace fuel::rt::test

namespace {
using fuel::rt::test::allocations;
using fuel::rt::test::counting;

void *countedAlloc(std::size_t size, std::size_t align) {
  if (counting.load(std::memory_order_relaxed))
    allocations.fetch_add(1, std::memory_order_relaxed);
  if (size == 0)
    size = 1;
  void *p = align > alignof(std::max_align_t)
                ? std::aligned_alloc(align, (size + align - 1) / align * align)
                : std::malloc(size);
  if (!p)
    throw std::bad_alloc();
  return p;
}
} // namespace

void *operator new(std::size_t n) { return countedAlloc(n, 0); }
void *operator new[](std::size_t n) { return countedAlloc(n, 0); }
void *operator new(std::size_t n, std::align_val_t a) {
  return countedAlloc(n, std::size_t(a));
}
void *operator new[](std::size_t n, std::align_val_t a) {
  return countedAlloc(n, std::size_t(a));
}
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return countedAlloc(n, 0);
  } catch (...) {
    return nullptr;
  }
}
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return countedAlloc(n, 0);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
