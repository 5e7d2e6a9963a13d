//===- LibFuelRtTest.cpp - Tests of what libfuelrt.so links ---------------===//
//
// libfuelrt.so may need only the C and C++ runtimes: every GPU API and
// vendor library is loaded with dlopen. The DT_NEEDED list is read from the
// built file.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "fuel-c/KernelABI.h"
#include "fuel-c/ShimABI.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <dlfcn.h>

using namespace fuel::rt::test;

// DT_NEEDED is exactly libc, libstdc++, libm and libgcc_s.
TEST(LibFuelRtTest, NeedsOnlyTheCAndCxxRuntimes) {
  std::vector<uint8_t> bytes = readFileBytes(FUEL_LIBFUELRT_PATH);
  ASSERT_FALSE(bytes.empty()) << FUEL_LIBFUELRT_PATH;
  std::string error;
  std::vector<std::string> needed = elfNeeded(bytes, error);
  ASSERT_TRUE(error.empty()) << error;
  std::sort(needed.begin(), needed.end());
  std::vector<std::string> want = {"libc.so.6", "libgcc_s.so.1", "libm.so.6",
                                   "libstdc++.so.6"};
  EXPECT_EQ(needed, want);
}

// The parser itself: a file that is not ELF is reported, not misread.
TEST(LibFuelRtTest, ElfParserRefusesNonElf) {
  std::string error;
  std::vector<uint8_t> junk(100, 'x');
  EXPECT_TRUE(elfNeeded(junk, error).empty());
  EXPECT_EQ(error, "not ELF64");
}

// The library loads on its own (no undefined symbols left) and reports the
// ABI versions it was built with.
TEST(LibFuelRtTest, LoadsAndReportsItsAbiVersions) {
  void *h = dlopen(FUEL_LIBFUELRT_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  using VersionFn = uint32_t (*)();
  auto kernel = reinterpret_cast<VersionFn>(dlsym(h, "fuelRtKernelAbiVersion"));
  auto shim = reinterpret_cast<VersionFn>(dlsym(h, "fuelRtShimAbiVersion"));
  ASSERT_TRUE(kernel && shim);
  EXPECT_EQ(kernel(), FUEL_KERNEL_ABI_VERSION);
  EXPECT_EQ(shim(), FUEL_SHIM_ABI_VERSION);
  dlclose(h);
}
