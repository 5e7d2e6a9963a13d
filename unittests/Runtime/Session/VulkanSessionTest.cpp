//===- VulkanSessionTest.cpp - Sessions across the cpu and vulkan:0 -------===//
//
// Executables holding a real SPIR-V kernel (Kernels/vadd_offsets.spvasm,
// assembled at build time) run on the first Vulkan device (lavapipe in CI)
// beside the cpu: copies in both directions, a value read on both devices,
// an input resident on vulkan:0 and an output returned from it, and an odd
// element offset inside a binding (the binding's byte offset rounded down
// to the device's binding offset alignment, the remainder passed to the
// kernel as an element offset in a push constant). Results are checked
// against plain loops.
//
// Without a Vulkan device (or without spirv-as) every test says why and
// skips; under CI=true it fails instead.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Runtime.h"

#include "TestPrograms.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

bool underCi() {
  const char *ci = std::getenv("CI");
  return ci && std::strcmp(ci, "true") == 0;
}

/// Skips the test with `why`, or fails it under CI=true.
#define FUEL_VULKAN_UNAVAILABLE(why)                                           \
  do {                                                                         \
    if (underCi())                                                             \
      FAIL() << "CI=true: the Vulkan tests must run: " << (why);               \
    GTEST_SKIP() << "no Vulkan: " << (why);                                    \
  } while (0)

std::vector<uint8_t> readFile(const char *path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

struct VulkanSession : ::testing::Test {
  void SetUp() override {
    spirv = readFile(FUEL_TEST_SPIRV_VADD);
    if (spirv.empty())
      FUEL_VULKAN_UNAVAILABLE(std::string("cannot read the SPIR-V kernel '") +
                              FUEL_TEST_SPIRV_VADD +
                              "' (spirv-as missing at build time?)");
    RuntimeOptions o;
    o.threads = 2;
    o.pipelineCache = false; // nothing written outside the build tree
    StatusOr<std::unique_ptr<Runtime>> r = Runtime::create(o);
    ASSERT_TRUE(r) << r.status().toString();
    rt = std::move(*r);
    StatusOr<Device *> dev = rt->openDevice(::fuel::Device::vulkan(0));
    if (!dev)
      FUEL_VULKAN_UNAVAILABLE(dev.status().message());
    gpu = *dev;
  }

  std::unique_ptr<Runtime> rt;
  Device *gpu = nullptr;
  std::vector<uint8_t> spirv;
};

/// A vadd dispatch of the SPIR-V kernel over `n` elements.
Dispatch vkVadd(uint32_t n, BindingRange a, BindingRange b, BindingRange c,
                uint32_t offA, uint32_t offB, uint32_t offC,
                uint32_t module = 1) {
  Dispatch d;
  d.module = module;
  d.grid = {(n + 63) / 64, 1, 1};
  d.bindings = {a, b, c};
  d.pushConstants = {n, offA, offB, offC};
  return d;
}

TEST_F(VulkanSession, CopiesBothWaysResidentInputOddOffsetOutputFromVulkan) {
  // n prime, so the last workgroup is partial; b has 5 leading elements the
  // kernel must skip: byte offset 20, bound at 20 rounded down to the
  // device's alignment, the remainder passed as an element offset.
  const uint32_t n = 1009, lead = 5;
  uint64_t bytes = uint64_t(n) * 4;
  uint64_t align = gpu->info().bindingOffsetAlignment;
  ASSERT_GE(align, 1u);

  ExecutableWriter w;
  buildVulkanMixed(w, spirv, n, lead, align);
  std::vector<uint8_t> file = finishBytes(w);
  ASSERT_FALSE(file.empty());

  auto exe = rt->loadExecutableBytes(file.data(), file.size());
  ASSERT_TRUE(exe) << exe.status().toString();
  for (unsigned lanes : {1u, 2u}) {
    SessionOptions so;
    so.lanes = lanes;
    auto s = Session::create(*exe, so);
    ASSERT_TRUE(s) << s.status().toString();
    std::vector<float> av(n), bv(n + lead);
    for (uint32_t i = 0; i < n; ++i)
      av[i] = float(i % 89) * 0.75f - 3.0f;
    for (uint32_t i = 0; i < n + lead; ++i)
      bv[i] = i < lead ? 1e6f : float(i % 61) * -0.5f + 10.0f;
    ASSERT_TRUE((*s)->bindInput(0, ElementType::F32, {n}, av.data(), bytes));
    ASSERT_TRUE((*s)->bindInput(1, ElementType::F32, {n + lead}, bv.data(),
                                (n + lead) * 4));
    for (int run = 0; run < 2; ++run) {
      Status st = (*s)->run();
      ASSERT_TRUE(st) << st.toString();
      std::vector<float> cv(n), dv(n);
      ASSERT_TRUE((*s)->readOutput(0, cv.data(), bytes));
      ASSERT_TRUE((*s)->readOutput(1, dv.data(), bytes));
      for (uint32_t i = 0; i < n; ++i) {
        float ref = av[i] + bv[i + lead];
        ASSERT_EQ(dv[i], ref) << "d[" << i << "]";
        ASSERT_EQ(cv[i], ref + av[i]) << "c[" << i << "]";
      }
      const std::vector<CommandTime> &times = (*s)->commandTimes();
      ASSERT_EQ(times.size(), 4u);
      EXPECT_GE(times[2].startNs, times[1].endNs) << "copy after producer";
      EXPECT_GE(times[3].startNs, times[2].endNs) << "consumer after copy";
    }
  }
}

TEST_F(VulkanSession, AnUnalignedBindingOffsetIsRefusedAtSessionCreation) {
  uint64_t align = gpu->info().bindingOffsetAlignment;
  if (align < 2)
    GTEST_SKIP() << gpu->info().name << " binds at any offset";
  const uint32_t n = 16;
  ExecutableWriter w;
  w.setFuelVersion("fuel test");
  w.setFunction("unaligned");
  uint32_t cpu = w.addDevice(::fuel::Device::cpu(), 64);
  (void)cpu;
  uint32_t vk = w.addDevice(::fuel::Device::vulkan(0), 4096, 256);
  w.addModule(vk, ModuleFormat::SpirV,
              {{"fuel_vk_vadd", 0, {64, 1, 1}, {{0, 0}, {0, 1}, {0, 2}}}},
              {spirv.data(), spirv.size()});
  uint32_t x = w.addInput("x", ElementType::F32, {n + 1}, vk);
  uint32_t y = w.addOutput("y", ElementType::F32, {n}, vk);
  const Program &p = w.program();
  uint32_t xb = p.inputs[x].buffer, yb = p.outputs[y].buffer;
  w.addDispatch(
      vkVadd(n, {xb, 4, n * 4}, {xb, 4, n * 4}, {yb, 0, n * 4}, 0, 0, 0, 0), {},
      testReport(1, "fuel.add", "k", "generated", 1));
  StatusOr<std::vector<uint8_t>> file = w.finish();
  ASSERT_TRUE(file) << file.status().toString();
  auto exe = rt->loadExecutableBytes(file->data(), file->size());
  ASSERT_TRUE(exe) << exe.status().toString();
  auto s = Session::create(*exe);
  ASSERT_FALSE(s);
  EXPECT_NE(s.status().message().find("offset 4 is not a multiple of "
                                      "vulkan:0's binding offset alignment"),
            std::string::npos)
      << s.status().message();
}

} // namespace
