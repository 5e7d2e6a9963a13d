//===- VulkanTestSupport.h - The Vulkan device's test kernels ---*- C++ -*-===//
//
// Opens vulkan:0 for the tests and loads the conformance kernels of
// vulkan/ConformanceKernels.spvasm (assembled and validated at build time),
// with the sleep kernel's loop timed on the device first.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_UNITTESTS_RUNTIME_DEVICE_VULKANTESTSUPPORT_H
#define FUEL_UNITTESTS_RUNTIME_DEVICE_VULKANTESTSUPPORT_H

#include "DeviceConformance.h"
#include "TestSupport.h"

#include "vulkan/VulkanDevice.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace fuel::rt::test {

/// Entry points of ConformanceKernels.spvasm, in load order.
enum VulkanTestKernel { kVkVadd, kVkWgid, kVkSleep, kVkClock };

inline ModuleImage vulkanKernelImage(const std::vector<uint8_t> &words) {
  ModuleImage image;
  image.data = words.data();
  image.size = words.size();
  image.kernelNames = {"vadd", "wgid", "sleep", "clock"};
  KernelLayout vadd, one;
  vadd.workgroupSize[0] = 64;
  vadd.bindingSlots = {{0, 0}, {0, 1}, {0, 2}};
  KernelLayout wgid;
  wgid.bindingSlots = {{0, 0}, {0, 1}};
  one.bindingSlots = {{0, 0}};
  image.layouts = {vadd, wgid, one, one};
  return image;
}

/// Why vulkan:0 cannot be opened, or "".
inline std::string vulkanUnavailable() {
  static std::string why = [] {
    VulkanDeviceOptions options;
    options.pipelineCache = false;
    auto d = openVulkanDevice(0, options);
    return d.isOk() ? std::string() : d.status().message();
  }();
  return why;
}

/// Replaces the sleep kernel's placeholder rate (an OpConstant of a 64-bit
/// integer) with `ticksPerMicrosecond`.
inline bool patchTicksPerMicrosecond(std::vector<uint8_t> &bytes,
                                     uint64_t ticksPerMicrosecond) {
  const uint32_t kPlaceholder = 1592377612u;
  size_t n = bytes.size() / 4;
  std::vector<uint32_t> w(n);
  std::memcpy(w.data(), bytes.data(), 4 * n);
  for (size_t i = 0; i + 4 < n; ++i)
    if (w[i] == ((5u << 16) | 43u) && w[i + 3] == kPlaceholder &&
        w[i + 4] == 0) {
      w[i + 3] = uint32_t(ticksPerMicrosecond);
      w[i + 4] = uint32_t(ticksPerMicrosecond >> 32);
      std::memcpy(bytes.data(), w.data(), 4 * n);
      return true;
    }
  return false;
}

/// Loads the conformance kernels. The sleep kernel's loop is timed first
/// with the device's timestamps (one iteration per "microsecond"); the
/// fastest of three runs, times four, sets its rate, so that a sleep does
/// not end early when a busy machine gets less busy. (lavapipe's loop limit
/// caps a sleep at about 50 ms, which the 20 ms the suite checks fits.)
inline StatusOr<ConformanceKernels> loadVulkanKernels(Device &device) {
  std::vector<uint8_t> bytes = readFileBytes(FUEL_VULKAN_TEST_KERNELS_PATH);
  if (bytes.empty())
    return Status::error(StatusCode::Unavailable,
                         "cannot read " FUEL_VULKAN_TEST_KERNELS_PATH);
  static uint64_t rate = 0;
  if (!rate) {
    std::vector<uint8_t> once = bytes;
    if (!patchTicksPerMicrosecond(once, 1))
      return Status::error(StatusCode::Internal,
                           "the sleep kernel's rate constant is missing");
    auto probe = device.loadModule(vulkanKernelImage(once));
    if (!probe.isOk())
      return probe.status();
    auto buf = device.allocate(64, 0);
    auto queue = device.createQueue();
    if (!buf.isOk() || !queue.isOk())
      return Status::error(StatusCode::Internal, "calibration setup failed");
    Binding b{*buf, 0, 4};
    double best = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t iterations = 5000;
      CommandTiming t;
      Command c = Command::dispatch(probe->kernels[kVkSleep], 1, 1, 1, &b, 1,
                                    &iterations, 1);
      c.timing = &t;
      auto f = (*queue)->submit(c);
      if (!f.isOk() || !(*queue)->wait(*f).isOk())
        return Status::error(StatusCode::Internal, "sleep kernel failed");
      double us = double(t.endNs - t.startNs) / 1000 + 1;
      if (i) // The first run may include the shader's compilation.
        best = std::max(best, iterations / us);
    }
    (void)device.free(*buf);
    (void)device.unloadModule(*probe);
    rate = uint64_t(best * 4) + 1;
  }
  if (!patchTicksPerMicrosecond(bytes, rate))
    return Status::error(StatusCode::Internal,
                         "the sleep kernel's rate constant is missing");
  auto m = device.loadModule(vulkanKernelImage(bytes));
  if (!m.isOk())
    return m.status();
  ConformanceKernels k;
  k.module = *m;
  k.vadd = m->kernels[kVkVadd];
  k.wgid = m->kernels[kVkWgid];
  k.sleep = m->kernels[kVkSleep];
  return k;
}

/// vulkan:0 without a pipeline cache, with `memoryLimit` (0: the heap's).
inline StatusOr<std::unique_ptr<Device>>
openTestVulkanDevice(uint64_t memoryLimit, bool forceStaging = false) {
  VulkanDeviceOptions options;
  options.pipelineCache = false;
  options.memoryLimit = memoryLimit;
  options.forceStaging = forceStaging;
  return openVulkanDevice(0, options);
}

/// Skips the test when there is no Vulkan device; fails under CI=true.
#define FUEL_REQUIRE_VULKAN()                                                  \
  do {                                                                         \
    std::string why = ::fuel::rt::test::vulkanUnavailable();                   \
    if (!why.empty()) {                                                        \
      const char *ci = std::getenv("CI");                                      \
      if (ci && std::string(ci) == "true")                                     \
        FAIL() << "a Vulkan device is required under CI=true: " << why;        \
      GTEST_SKIP() << "no Vulkan device: " << why;                             \
    }                                                                          \
  } while (0)

} // namespace fuel::rt::test

#endif // FUEL_UNITTESTS_RUNTIME_DEVICE_VULKANTESTSUPPORT_H
