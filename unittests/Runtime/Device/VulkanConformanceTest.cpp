//===- VulkanConformanceTest.cpp - The conformance suite on Vulkan --------===//
//
// Instantiates the device conformance suite for vulkan:0 (lavapipe in CI),
// with buffers mapped directly where the device allows and with every
// write and read staged through a host-visible buffer, and its kernels
// from vulkan/ConformanceKernels.spvasm.
//
//===----------------------------------------------------------------------===//

#include "VulkanTestSupport.h"

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

ConformanceTarget vulkanTarget(bool staged) {
  ConformanceTarget t;
  t.name = staged ? "vulkan0_staged" : "vulkan0";
  t.create = [staged](uint64_t limit) {
    return openTestVulkanDevice(limit, staged);
  };
  t.loadKernels = loadVulkanKernels;
  t.unavailable = vulkanUnavailable;
  return t;
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Vulkan, DeviceConformance,
                         ::testing::Values(vulkanTarget(false),
                                           vulkanTarget(true)),
                         [](const auto &info) { return info.param.name; });
