//===- DeviceConformance.h - One test suite for every device ----*- C++ -*-===//
//
// The device conformance suite, written once against fuel/Runtime/Device.h
// and instantiated per device (CPU, Vulkan on lavapipe, and CUDA where a
// driver is present). A device provides a factory and its build of the
// conformance kernels, which behave like TestKernels.c's vadd, wgid and
// sleep. Where devices differ (the alignment of binding offsets) the tests
// read the device's DeviceInfo.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_UNITTESTS_RUNTIME_DEVICE_DEVICECONFORMANCE_H
#define FUEL_UNITTESTS_RUNTIME_DEVICE_DEVICECONFORMANCE_H

#include "fuel/Runtime/Device.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace fuel::rt::test {

/// The kernels every device's conformance build provides:
/// - vadd: bindings a, b, c (f32), push n, block; workgroup x adds block x.
/// - wgid: bindings out, count (u32); out[i] = 1 + x + 1000y + 1000000z and
///   count[i] += 1 at the linear id i.
/// - sleep: binding out (u32), push microseconds; waits, then out[x] = 1.
struct ConformanceKernels {
  ModuleHandle module;
  Kernel vadd, wgid, sleep;
};

struct ConformanceTarget {
  std::string name;
  /// A device whose memory limit is `memoryLimit` (0: the device's own).
  std::function<StatusOr<std::unique_ptr<Device>>(uint64_t memoryLimit)> create;
  std::function<StatusOr<ConformanceKernels>(Device &)> loadKernels;
  /// Why the device is absent ("" when present, or when not given): its
  /// tests then skip with the reason, and fail with it under CI=true.
  std::function<std::string()> unavailable;
  /// Whether CI=true turns a skip into a failure (false for devices no CI
  /// machine has, such as CUDA).
  bool requiredUnderCi = true;
};

inline std::ostream &operator<<(std::ostream &os, const ConformanceTarget &t) {
  return os << t.name;
}

class DeviceConformance : public ::testing::TestWithParam<ConformanceTarget> {
protected:
  void SetUp() override {
    if (!GetParam().unavailable)
      return;
    std::string why = GetParam().unavailable();
    if (why.empty())
      return;
    const char *ci = std::getenv("CI");
    if (ci && std::string(ci) == "true" && GetParam().requiredUnderCi)
      FAIL() << GetParam().name << " is required under CI=true: " << why;
    GTEST_SKIP() << GetParam().name << " is not available: " << why;
  }
};

} // namespace fuel::rt::test

#endif // FUEL_UNITTESTS_RUNTIME_DEVICE_DEVICECONFORMANCE_H
