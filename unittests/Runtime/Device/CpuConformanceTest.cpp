//===- CpuConformanceTest.cpp - The conformance suite on the CPU ----------===//
//
// Instantiates the device conformance suite for the CPU device with one
// thread and with four, and its kernels from TestKernels.c's module.
//
//===----------------------------------------------------------------------===//

#include "DeviceConformance.h"
#include "TestSupport.h"

#include "cpu/CpuDevice.h"

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

ConformanceTarget cpuTarget(unsigned threads) {
  ConformanceTarget t;
  t.name = "cpu_threads" + std::to_string(threads);
  t.create = [threads](uint64_t limit) -> StatusOr<std::unique_ptr<Device>> {
    CpuDeviceOptions options;
    options.threads = threads;
    options.memoryLimit = limit;
    auto d = CpuDevice::create(options);
    if (!d.isOk())
      return d.status();
    return std::unique_ptr<Device>(std::move(*d));
  };
  t.loadKernels = [](Device &device) -> StatusOr<ConformanceKernels> {
    auto m = loadTestKernels(device);
    if (!m.isOk())
      return m.status();
    ConformanceKernels k;
    k.module = *m;
    k.vadd = m->kernels[kVadd];
    k.wgid = m->kernels[kWgid];
    k.sleep = m->kernels[kSleep];
    return k;
  };
  return t;
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Cpu, DeviceConformance,
                         ::testing::Values(cpuTarget(1), cpuTarget(4)),
                         [](const auto &info) { return info.param.name; });
