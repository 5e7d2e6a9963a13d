//===- CrossDeviceTest.cpp - Sessions across two and three devices --------===//
//
// Executables whose commands run on the cpu and on GPU devices, with the
// copies between them that the plan lists: host -> GPU, GPU -> host and
// GPU -> GPU (staged through the host), a value consumed on both devices,
// an input resident on a GPU and an output returned from one, the binding
// offset rule, and the launch layouts a SPIR-V module's device receives.
//
// The GPU here is an emulated one, opened through RuntimeOptions::openDevice:
// a device that reports itself as vulkan:N, is not host memory (so every
// byte crosses through write and read, as on a discrete GPU), requires
// 16-byte binding offsets, and runs the "SPIR-V" module's entry points by
// the test kernels of the same names (unittests/Runtime/Device). Results
// are checked against plain loops.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Runtime.h"

#include "../SpirVTestModule.h"
#include "TestPrograms.h"
#include "fuel/Runtime/Devices.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

/// A GPU-like device over the CPU device (see the file comment).
class EmulatedGpu final : public Device {
public:
  static StatusOr<std::unique_ptr<Device>>
  open(const ::fuel::Device &id, std::vector<KernelLayout> *seen) {
    CpuDeviceOptions o;
    o.threads = 2;
    StatusOr<std::unique_ptr<Device>> cpu = openCpuDevice(o);
    if (!cpu)
      return cpu.status();
    auto gpu = std::unique_ptr<EmulatedGpu>(new EmulatedGpu());
    gpu->inner_ = std::move(*cpu);
    gpu->info_ = gpu->inner_->info();
    gpu->info_.id = id;
    gpu->info_.name = "emulated " + id.str();
    gpu->info_.hostVisible = false;
    gpu->info_.bindingOffsetAlignment = 16;
    gpu->seen_ = seen;
    return std::unique_ptr<Device>(std::move(gpu));
  }

  const DeviceInfo &info() const override { return info_; }
  StatusOr<Buffer> allocate(uint64_t size, uint64_t alignment) override {
    return inner_->allocate(size, alignment);
  }
  StatusOr<Buffer> importHost(void *, uint64_t) override {
    return Status::error(StatusCode::FailedPrecondition,
                         "importHost: device memory is not host memory");
  }
  Status free(Buffer b) override { return inner_->free(b); }
  StatusOr<uint64_t> bufferSize(Buffer b) const override {
    return inner_->bufferSize(b);
  }
  StatusOr<void *> hostPointer(Buffer) const override {
    return Status::error(StatusCode::FailedPrecondition,
                         "hostPointer: device memory is not host memory");
  }
  uint64_t bytesAllocated() const override { return inner_->bytesAllocated(); }
  Status write(Buffer dst, uint64_t off, const void *src,
               uint64_t bytes) override {
    ++writes;
    return inner_->write(dst, off, src, bytes);
  }
  Status read(Buffer src, uint64_t off, void *dst, uint64_t bytes) override {
    ++reads;
    return inner_->read(src, off, dst, bytes);
  }
  Status copy(Buffer src, uint64_t so, Buffer dst, uint64_t d,
              uint64_t bytes) override {
    return inner_->copy(src, so, dst, d, bytes);
  }
  StatusOr<ModuleHandle> loadModule(const ModuleImage &image) override {
    // The SPIR-V bytes stand for the test kernels of the same names.
    if (image.layouts.size() != image.kernelNames.size())
      return Status::error(StatusCode::InvalidArgument,
                           "loadModule: a layout per kernel expected");
    if (seen_)
      seen_->insert(seen_->end(), image.layouts.begin(), image.layouts.end());
    ModuleImage elf;
    elf.data = testKernelModule().data();
    elf.size = testKernelModule().size();
    elf.kernelNames = image.kernelNames;
    return inner_->loadModule(elf);
  }
  Status unloadModule(const ModuleHandle &m) override {
    return inner_->unloadModule(m);
  }
  Status reserveWorkspace(uint64_t bytes) override {
    return inner_->reserveWorkspace(bytes);
  }
  StatusOr<std::unique_ptr<Queue>> createQueue() override {
    return inner_->createQueue();
  }

  int reads = 0, writes = 0;

private:
  EmulatedGpu() = default;
  std::unique_ptr<Device> inner_;
  DeviceInfo info_;
  std::vector<KernelLayout> *seen_ = nullptr;
};

struct CrossDevice : ::testing::Test {
  void SetUp() override {
    RuntimeOptions o;
    o.threads = 2;
    o.openDevice = [this](const ::fuel::Device &id) {
      ++opened;
      return EmulatedGpu::open(id, &layouts);
    };
    StatusOr<std::unique_ptr<Runtime>> r = Runtime::create(o);
    ASSERT_TRUE(r) << r.status().toString();
    rt = std::move(*r);
  }
  std::unique_ptr<Session> session(const ExecutableWriter &w,
                                   unsigned lanes = 0) {
    std::vector<uint8_t> bytes = finishBytes(w);
    EXPECT_FALSE(bytes.empty());
    auto exe = rt->loadExecutableBytes(bytes.data(), bytes.size());
    EXPECT_TRUE(exe) << exe.status().toString();
    if (!exe)
      return nullptr;
    SessionOptions so;
    so.lanes = lanes;
    auto s = Session::create(*exe, so);
    EXPECT_TRUE(s) << s.status().toString();
    return s ? std::move(*s) : nullptr;
  }
  EmulatedGpu *gpu(uint32_t ordinal) {
    return static_cast<EmulatedGpu *>(
        rt->device(::fuel::Device::vulkan(ordinal)));
  }

  std::unique_ptr<Runtime> rt;
  std::vector<KernelLayout> layouts;
  int opened = 0;
};

std::vector<float> ramp(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(i % 97) * scale + offset;
  return v;
}

/// The GPU module of the test kernels' vadd, as a SPIR-V kernel with
/// bindings (0, 0), (0, 1), (0, 2) and a workgroup of 64.
void addGpuVadd(ExecutableWriter &w, uint32_t device) {
  static const std::vector<uint8_t> spirv =
      spirvModule({"fuel_test_wgid", "fuel_test_vadd"});
  w.addModule(device, ModuleFormat::SpirV,
              {{"fuel_test_vadd", 0, {64, 1, 1}, {{0, 0}, {0, 1}, {0, 2}}}},
              {spirv.data(), spirv.size()});
}

Dispatch vadd(uint32_t module, uint32_t n, uint32_t block, uint32_t a,
              uint32_t b, uint32_t c, uint64_t offset = 0) {
  Dispatch d;
  d.module = module;
  d.grid = {(n + block - 1) / block, 1, 1};
  uint64_t bytes = uint64_t(n) * 4;
  d.bindings = {{a, offset, bytes}, {b, offset, bytes}, {c, 0, bytes}};
  d.pushConstants = {n, block};
  return d;
}

/// cpu + vulkan:0 over `n` floats:
///   0 copy a (cpu input) -> g (vulkan:0 arena)          cpu -> vulkan
///   1 d = g + b on vulkan:0 (b an input resident there, d an output there)
///   2 copy d -> t (cpu arena), after 1                    vulkan -> cpu
///   3 c = t + a on the cpu, after 2   (a read on both devices)
void buildMixed(ExecutableWriter &w, uint32_t n, uint32_t block) {
  uint64_t bytes = uint64_t(n) * 4;
  uint32_t cpu = startTestProgram(w, "mixed", bytes, {"fuel_test_vadd"});
  uint32_t gpuDev =
      w.addDevice(::fuel::Device::vulkan(0), (bytes + 255) / 256 * 256, 256);
  addGpuVadd(w, gpuDev);
  uint32_t a = w.addInput("a", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t b = w.addInput("b", ElementType::F32, {int64_t(n)}, gpuDev);
  uint32_t c = w.addOutput("c", ElementType::F32, {int64_t(n)}, cpu);
  uint32_t d = w.addOutput("d", ElementType::F32, {int64_t(n)}, gpuDev);
  uint32_t t = w.addArenaBuffer(cpu, bytes, 0);
  uint32_t g = w.addArenaBuffer(gpuDev, bytes, 0, 256);
  const Program &p = w.program();
  uint32_t ab = p.inputs[a].buffer, bb = p.inputs[b].buffer,
           cb = p.outputs[c].buffer, db = p.outputs[d].buffer;
  w.addCopy({ab, 0, g, 0, bytes}, {},
            testReport(1, "fuel.copy", "", "copy", 500));
  w.addDispatch(
      vadd(1, n, block, g, bb, db), {0},
      testReport(2, "fuel.add", "vulkan.generated.add_f32", "generated", 3000));
  w.addCopy({db, 0, t, 0, bytes}, {1},
            testReport(3, "fuel.copy", "", "copy", 500));
  w.addDispatch(
      vadd(0, n, block, t, ab, cb), {2},
      testReport(4, "fuel.add", "cpu.generated.add_f32", "generated", 2000));
}

TEST_F(CrossDevice, CopiesInBothDirectionsAndValuesOnBothDevices) {
  const uint32_t n = 1009, block = 64; // a prime count: a partial block
  ExecutableWriter w;
  buildMixed(w, n, block);
  for (unsigned lanes : {1u, 2u}) {
    std::unique_ptr<Session> s = session(w, lanes);
    ASSERT_TRUE(s);
    EXPECT_EQ(opened, 1) << "vulkan:0 is opened once per runtime";
    std::vector<float> a = ramp(n, 0.5f, 1.0f), b = ramp(n, -0.25f, 3.0f);
    ASSERT_TRUE(s->bindInput(0, ElementType::F32, {n}, a.data(), n * 4));
    ASSERT_TRUE(s->bindInput(1, ElementType::F32, {n}, b.data(), n * 4));
    EXPECT_FALSE(s->isInputZeroCopy(1)) << "device memory is not host memory";
    for (int run = 0; run < 3; ++run) {
      ASSERT_TRUE(s->run()) << s->run().toString();
      std::vector<float> c(n), d(n);
      ASSERT_TRUE(s->readOutput(0, c.data(), n * 4));
      ASSERT_TRUE(s->readOutput(1, d.data(), n * 4));
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(d[i], a[i] + b[i]) << i;
        ASSERT_EQ(c[i], (a[i] + b[i]) + a[i]) << i;
      }
    }
    // Timed, in dependency order: each copy starts after its producer ends
    // and ends before its consumer starts.
    const std::vector<CommandTime> &t = s->commandTimes();
    ASSERT_EQ(t.size(), 4u);
    for (size_t i = 0; i < 4; ++i)
      EXPECT_GE(t[i].endNs, t[i].startNs) << i;
    EXPECT_GT(t[0].startNs, 0u);
    EXPECT_GE(t[1].startNs, t[0].endNs);
    EXPECT_GE(t[2].startNs, t[1].endNs);
    EXPECT_GE(t[3].startNs, t[2].endNs);
  }
  // The layout reached the device with the module.
  ASSERT_FALSE(layouts.empty());
  EXPECT_EQ(layouts[0].workgroupSize[0], 64u);
  EXPECT_EQ(layouts[0].workgroupSize[1], 1u);
  ASSERT_EQ(layouts[0].bindingSlots.size(), 3u);
  EXPECT_EQ(layouts[0].bindingSlots[2], (std::pair<uint32_t, uint32_t>(0, 2)));
  // Every byte crossed through the device's write and read.
  EXPECT_GT(gpu(0)->writes, 0);
  EXPECT_GT(gpu(0)->reads, 0);
}

TEST_F(CrossDevice, GpuToGpuCopiesAreStagedThroughTheHost) {
  // a on vulkan:0 -> copy to vulkan:1 -> y = g + g there -> copy back to an
  // output on vulkan:0; the output is read from vulkan:0.
  const uint32_t n = 263, block = 32;
  uint64_t bytes = n * 4;
  ExecutableWriter w;
  w.setFuelVersion("fuel test");
  w.setFunction("two_gpus");
  uint32_t g0 = w.addDevice(::fuel::Device::vulkan(0), 4096, 256);
  uint32_t g1 = w.addDevice(::fuel::Device::vulkan(1), 4096, 256);
  addGpuVadd(w, g1);
  uint32_t a = w.addInput("a", ElementType::F32, {n}, g0);
  uint32_t y = w.addOutput("y", ElementType::F32, {n}, g0);
  uint32_t in1 = w.addArenaBuffer(g1, bytes, 0, 256);
  uint32_t out1 = w.addArenaBuffer(g1, bytes, 1280, 256);
  const Program &p = w.program();
  uint32_t ab = p.inputs[a].buffer, yb = p.outputs[y].buffer;
  w.addCopy({ab, 0, in1, 0, bytes}, {},
            testReport(1, "fuel.copy", "", "copy", 1));
  w.addDispatch(
      vadd(0, n, block, in1, in1, out1), {0},
      testReport(2, "fuel.add", "vulkan.generated.add_f32", "generated", 10));
  w.addCopy({out1, 0, yb, 0, bytes}, {1},
            testReport(3, "fuel.copy", "", "copy", 1));
  std::unique_ptr<Session> s = session(w);
  ASSERT_TRUE(s);
  EXPECT_EQ(opened, 2);
  std::vector<float> av = ramp(n, 1.5f, -7.0f), out(n);
  ASSERT_TRUE(s->bindInput(0, ElementType::F32, {n}, av.data(), bytes));
  ASSERT_TRUE(s->run());
  ASSERT_TRUE(s->readOutput(0, out.data(), bytes));
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], av[i] + av[i]) << i;
  EXPECT_GT(gpu(1)->reads, 0);
  EXPECT_GT(gpu(0)->writes, 1) << "bound, then written by the copy back";
}

TEST_F(CrossDevice, BindingOffsetsFollowTheDeviceAlignment) {
  const uint32_t n = 20, block = 8;
  uint64_t bytes = n * 4;
  auto build = [&](ExecutableWriter &w, uint64_t offset) {
    w.setFuelVersion("fuel test");
    w.setFunction("offsets");
    uint32_t g = w.addDevice(::fuel::Device::vulkan(0), 1024, 256);
    addGpuVadd(w, g);
    uint32_t a = w.addInput("a", ElementType::F32, {n + 8}, g);
    uint32_t y = w.addOutput("y", ElementType::F32, {n}, g);
    const Program &p = w.program();
    w.addDispatch(vadd(0, n, block, p.inputs[a].buffer, p.inputs[a].buffer,
                       p.outputs[y].buffer, offset),
                  {}, testReport(1, "fuel.add", "k", "generated", 1));
  };
  // 4 bytes into the input: not a multiple of 16, refused when the session
  // is created, naming the command, the binding and the rule.
  ExecutableWriter odd;
  build(odd, 4);
  std::vector<uint8_t> bytesOdd = finishBytes(odd);
  auto exe = rt->loadExecutableBytes(bytesOdd.data(), bytesOdd.size());
  ASSERT_TRUE(exe) << exe.status().toString();
  auto s = Session::create(*exe);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(s.status().message().find(
                "session: commands[0].bindings[0]: offset 4 is not a multiple "
                "of vulkan:0's binding offset alignment 16"),
            std::string::npos)
      << s.status().message();
  // 32 bytes (8 floats) in: accepted, and the kernel sees a[8..].
  ExecutableWriter even;
  build(even, 32);
  std::unique_ptr<Session> ok = session(even);
  ASSERT_TRUE(ok);
  std::vector<float> a = ramp(n + 8, 2.0f, 0.5f), y(n);
  ASSERT_TRUE(
      ok->bindInput(0, ElementType::F32, {n + 8}, a.data(), (n + 8) * 4));
  ASSERT_TRUE(ok->run());
  ASSERT_TRUE(ok->readOutput(0, y.data(), bytes));
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], a[i + 8] + a[i + 8]) << i;
}

TEST(CrossDeviceOpen, AMissingDeviceIsUnavailableAndNamed) {
  RuntimeOptions o;
  o.threads = 1;
  o.openDevice =
      [](const ::fuel::Device &) -> StatusOr<std::unique_ptr<Device>> {
    return Status::error(StatusCode::Unavailable,
                         "no Vulkan loader (libvulkan.so.1)");
  };
  auto rt = Runtime::create(o);
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildMixed(w, 16, 16);
  std::vector<uint8_t> bytes = finishBytes(w);
  auto exe = (*rt)->loadExecutableBytes(bytes.data(), bytes.size());
  ASSERT_FALSE(exe);
  EXPECT_EQ(exe.status().code(), StatusCode::Unavailable);
  EXPECT_EQ(exe.status().message(), "executable needs device vulkan:0: no "
                                    "Vulkan loader (libvulkan.so.1)");
  EXPECT_EQ((*rt)->device(::fuel::Device::vulkan(0)), nullptr);
  EXPECT_EQ((*rt)->availableDevices().size(), 1u);
}

TEST(CrossDeviceOpen, TheBuiltInOpenerNamesTheDevice) {
  // No machine has 32 Vulkan devices: whatever this libfuelrt has, the
  // error names the device.
  auto rt = Runtime::create();
  ASSERT_TRUE(rt);
  StatusOr<Device *> dev = (*rt)->openDevice(::fuel::Device::vulkan(31));
  ASSERT_FALSE(dev);
  EXPECT_EQ(dev.status().code(), StatusCode::Unavailable);
  EXPECT_EQ(
      dev.status().message().rfind("executable needs device vulkan:31: ", 0),
      0u)
      << dev.status().message();
}

} // namespace
