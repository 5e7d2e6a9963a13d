//===- CApiVersionTest.cpp - The version of the runtime's C API -----------===//
//
// fuelRuntimeCApiVersion() reports the FUEL_RUNTIME_C_API_VERSION the
// library was built with, which the header composes from its major and
// minor versions (docs/EMBEDDING.md, "What is stable").
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Runtime.h"

#include <gtest/gtest.h>

namespace {

TEST(CApiVersion, LibraryMatchesHeader) {
  EXPECT_EQ(fuelRuntimeCApiVersion(), uint32_t(FUEL_RUNTIME_C_API_VERSION));
}

TEST(CApiVersion, ComposedFromMajorAndMinor) {
  static_assert(FUEL_RUNTIME_C_API_VERSION_MINOR < 1000,
                "the minor version must fit below the major's unit");
  EXPECT_EQ(FUEL_RUNTIME_C_API_VERSION,
            FUEL_RUNTIME_C_API_VERSION_MAJOR * 1000 +
                FUEL_RUNTIME_C_API_VERSION_MINOR);
  EXPECT_GE(FUEL_RUNTIME_C_API_VERSION_MAJOR, 1);
}

} // namespace
