//===- CountingNew.h - A global operator new that counts ------ -*- C++ -*-===//
//
// Test binaries that link CountingNew.cpp replace the global operator new and
// delete with ones that count every allocation, from every thread, while
// `counting` is on: the tests that runtime paths allocate nothing read
// `allocations` around the code under test.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_UNITTESTS_RUNTIME_COUNTINGNEW_H
#define FUEL_UNITTESTS_RUNTIME_COUNTINGNEW_H

#include <atomic>
#include <cstdint>

namespace fuel::rt::test {
/// While true, every operator new call from any thread adds one.
extern std::atomic<bool> counting;
/// The number of allocations counted.
extern std::atomic<uint64_t> allocations;
} // namespace fuel::rt::test

#endif // FUEL_UNITTESTS_RUNTIME_COUNTINGNEW_H
