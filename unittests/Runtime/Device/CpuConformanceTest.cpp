//===- CpuConformanceTest.cpp - The conformance suite on the CPU ----------===//
//
// Instantiates the device conformance suite for the CPU device with one
// thread and with four, and its kernels from TestKernels.c's module; and
// the same over caller queues (Device::createCallerQueue: commands run by
// the thread that waits), through a device whose createQueue() gives them.
//
//===----------------------------------------------------------------------===//

#include "DeviceConformance.h"
#include "TestSupport.h"

#include "cpu/CpuDevice.h"

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

/// The CPU device with caller queues for queues.
class CallerQueueDevice final : public Device {
public:
  explicit CallerQueueDevice(std::unique_ptr<CpuDevice> inner)
      : inner_(std::move(inner)) {}
  const DeviceInfo &info() const override { return inner_->info(); }
  StatusOr<Buffer> allocate(uint64_t size, uint64_t alignment) override {
    return inner_->allocate(size, alignment);
  }
  StatusOr<Buffer> importHost(void *data, uint64_t size) override {
    return inner_->importHost(data, size);
  }
  Status free(Buffer buffer) override { return inner_->free(buffer); }
  StatusOr<uint64_t> bufferSize(Buffer buffer) const override {
    return inner_->bufferSize(buffer);
  }
  StatusOr<void *> hostPointer(Buffer buffer) const override {
    return inner_->hostPointer(buffer);
  }
  uint64_t bytesAllocated() const override { return inner_->bytesAllocated(); }
  Status write(Buffer dst, uint64_t dstOffset, const void *src,
               uint64_t bytes) override {
    return inner_->write(dst, dstOffset, src, bytes);
  }
  Status read(Buffer src, uint64_t srcOffset, void *dst,
              uint64_t bytes) override {
    return inner_->read(src, srcOffset, dst, bytes);
  }
  Status copy(Buffer src, uint64_t srcOffset, Buffer dst, uint64_t dstOffset,
              uint64_t bytes) override {
    return inner_->copy(src, srcOffset, dst, dstOffset, bytes);
  }
  StatusOr<ModuleHandle> loadModule(const ModuleImage &image) override {
    return inner_->loadModule(image);
  }
  Status unloadModule(const ModuleHandle &module) override {
    return inner_->unloadModule(module);
  }
  Status reserveWorkspace(uint64_t bytes) override {
    return inner_->reserveWorkspace(bytes);
  }
  StatusOr<std::unique_ptr<Queue>> createQueue() override {
    return inner_->createCallerQueue();
  }

private:
  std::unique_ptr<CpuDevice> inner_;
};

ConformanceTarget cpuTarget(unsigned threads, bool callerQueues = false) {
  ConformanceTarget t;
  t.name = std::string(callerQueues ? "cpu_caller_threads" : "cpu_threads") +
           std::to_string(threads);
  t.create = [threads, callerQueues](
                 uint64_t limit) -> StatusOr<std::unique_ptr<Device>> {
    CpuDeviceOptions options;
    options.threads = threads;
    options.memoryLimit = limit;
    auto d = CpuDevice::create(options);
    if (!d.isOk())
      return d.status();
    if (callerQueues)
      return std::unique_ptr<Device>(new CallerQueueDevice(std::move(*d)));
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
                         ::testing::Values(cpuTarget(1), cpuTarget(4),
                                           cpuTarget(1, true),
                                           cpuTarget(4, true)),
                         [](const auto &info) { return info.param.name; });
