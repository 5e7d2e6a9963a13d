//===- VulkanDeviceTest.cpp - What only the Vulkan device does ------------===//
//
// Device selection and its refusals, SPIR-V module checks, the pipeline
// cache on disk (read on the second load, a corrupt file ignored, off when
// disabled), batching of a queue's commands into few submits, the arena's
// blocks, timestamps on the host's steady clock and a queue outliving its
// device. Run on vulkan:0 (lavapipe in CI); skipped without a Vulkan
// device, failed under CI=true.
//
//===----------------------------------------------------------------------===//

#include "VulkanTestSupport.h"

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

VulkanDevice &asVulkan(Device &d) { return static_cast<VulkanDevice &>(d); }

std::unique_ptr<Device> mustOpen(const VulkanDeviceOptions &options) {
  auto d = openVulkanDevice(0, options);
  EXPECT_TRUE(d.isOk()) << d.status().message();
  return d.isOk() ? std::move(*d) : nullptr;
}

std::string makeTempDir() {
  std::string tmpl = std::string(FUEL_TEST_BINARY_DIR) + "/vkcache-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back(0);
  const char *d = mkdtemp(buf.data());
  return d ? std::string(d) : std::string();
}

std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

void removeDir(const std::string &dir) {
  for (const auto &n : listDir(dir))
    std::remove((dir + "/" + n).c_str());
  rmdir(dir.c_str());
}

std::vector<uint8_t> kernelWords() {
  return readFileBytes(FUEL_VULKAN_TEST_KERNELS_PATH);
}

} // namespace

TEST(VulkanDevice, MissingOrdinalIsUnavailable) {
  FUEL_REQUIRE_VULKAN();
  auto d = openVulkanDevice(4096);
  ASSERT_FALSE(d.isOk());
  EXPECT_EQ(d.status().code(), StatusCode::Unavailable);
  EXPECT_NE(d.status().message().find("vulkan:4096"), std::string::npos)
      << d.status().message();
}

TEST(VulkanDevice, InfoComesFromTheDevice) {
  FUEL_REQUIRE_VULKAN();
  auto dev = mustOpen({false, "", 0, false});
  ASSERT_TRUE(dev);
  const DeviceInfo &info = dev->info();
  EXPECT_EQ(info.id.kind, ::fuel::DeviceKind::Vulkan);
  EXPECT_EQ(info.id.ordinal, 0u);
  EXPECT_FALSE(info.name.empty());
  EXPECT_GT(info.memoryLimit, 0u);
  uint64_t a = info.bindingOffsetAlignment;
  EXPECT_TRUE(a >= 1 && (a & (a - 1)) == 0) << a;
  auto b = dev->allocate(64, 0);
  ASSERT_TRUE(b.isOk());
  auto p = dev->hostPointer(*b);
  EXPECT_EQ(p.isOk(), info.hostVisible);
  if (p.isOk()) {
    // A mapped buffer: what write() puts there is visible through it.
    uint32_t v = 0xfeedbeef;
    ASSERT_TRUE(dev->write(*b, 8, &v, 4).isOk());
    uint32_t seen;
    std::memcpy(&seen, static_cast<char *>(*p) + 8, 4);
    EXPECT_EQ(seen, v);
  }
  char host[16];
  auto imported = dev->importHost(host, sizeof host);
  EXPECT_EQ(imported.status().code(), StatusCode::Unimplemented);
  EXPECT_TRUE(dev->free(*b).isOk());
  auto limited = mustOpen({false, "", 12345, false});
  ASSERT_TRUE(limited);
  EXPECT_EQ(limited->info().memoryLimit, 12345u);
  EXPECT_EQ(limited->allocate(12346, 0).status().code(),
            StatusCode::ResourceExhausted);
}

TEST(VulkanDevice, LoadModuleRefusesBadSpirv) {
  FUEL_REQUIRE_VULKAN();
  auto dev = mustOpen({false, "", 0, false});
  ASSERT_TRUE(dev);
  std::vector<uint8_t> words = kernelWords();
  ASSERT_GT(words.size(), 20u);

  ModuleImage image = vulkanKernelImage(words);
  image.size = words.size() - 2;
  auto r = dev->loadModule(image);
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("32-bit words"), std::string::npos)
      << r.status().message();

  std::vector<uint8_t> bad = words;
  bad[0] ^= 0xff;
  image = vulkanKernelImage(bad);
  r = dev->loadModule(image);
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("magic"), std::string::npos);

  // An instruction whose word count runs past the end.
  bad = words;
  uint32_t huge = (0xffffu << 16) | 17u;
  std::memcpy(bad.data() + 20, &huge, 4);
  image = vulkanKernelImage(bad);
  r = dev->loadModule(image);
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("word count"), std::string::npos);

  image = vulkanKernelImage(words);
  image.kernelNames[1] = "no_such_kernel";
  r = dev->loadModule(image);
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("no_such_kernel"), std::string::npos);

  image = vulkanKernelImage(words);
  image.layouts.pop_back();
  EXPECT_EQ(dev->loadModule(image).status().code(),
            StatusCode::InvalidArgument);

  image = vulkanKernelImage(words);
  image.layouts[0].workgroupSize[0] = 32; // The module says 64.
  r = dev->loadModule(image);
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("LocalSize"), std::string::npos);

  image = vulkanKernelImage(words);
  image.layouts[0].bindingSlots[1] = image.layouts[0].bindingSlots[0];
  r = dev->loadModule(image);
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("slot"), std::string::npos);

  // The good module still loads and unloads; its kernels then go away.
  auto m = dev->loadModule(vulkanKernelImage(words));
  ASSERT_TRUE(m.isOk()) << m.status().message();
  EXPECT_EQ(m->kernels.size(), 4u);
  EXPECT_TRUE(dev->unloadModule(*m).isOk());
  EXPECT_EQ(dev->unloadModule(*m).code(), StatusCode::InvalidArgument);
}

TEST(VulkanDevice, PipelineCacheIsReadBackAndCorruptFilesIgnored) {
  FUEL_REQUIRE_VULKAN();
  std::string dir = makeTempDir();
  ASSERT_FALSE(dir.empty());
  std::string cacheDir = dir + "/nested/cache";
  std::vector<uint8_t> words = kernelWords();
  {
    auto dev = mustOpen({true, cacheDir, 0, false});
    ASSERT_TRUE(dev);
    EXPECT_EQ(asVulkan(*dev).pipelineCacheDir(), cacheDir);
    ASSERT_TRUE(dev->loadModule(vulkanKernelImage(words)).isOk());
    EXPECT_EQ(asVulkan(*dev).counters().pipelineCacheHits, 0u);
    EXPECT_EQ(asVulkan(*dev).counters().pipelineCacheWrites, 1u);
  }
  auto files = listDir(cacheDir);
  ASSERT_EQ(files.size(), 1u) << "one file, no temporary left";
  EXPECT_EQ(files[0].find("vulkan-pipelines-"), 0u) << files[0];
  {
    auto dev = mustOpen({true, cacheDir, 0, false});
    ASSERT_TRUE(dev);
    ASSERT_TRUE(dev->loadModule(vulkanKernelImage(words)).isOk());
    EXPECT_EQ(asVulkan(*dev).counters().pipelineCacheHits, 1u);
    EXPECT_EQ(asVulkan(*dev).counters().pipelineCacheWrites, 0u);
  }
  // Corrupt the file: it is ignored, the kernels still work, and it is
  // written again.
  std::string path = cacheDir + "/" + files[0];
  {
    std::vector<uint8_t> bytes = readFileBytes(path);
    ASSERT_GT(bytes.size(), 40u);
    bytes[bytes.size() / 2] ^= 0x5a;
    FILE *f = std::fopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  {
    auto dev = mustOpen({true, cacheDir, 0, false});
    ASSERT_TRUE(dev);
    auto k = loadVulkanKernels(*dev);
    ASSERT_TRUE(k.isOk()) << k.status().message();
    auto m = dev->loadModule(vulkanKernelImage(words));
    ASSERT_TRUE(m.isOk());
    // The corrupt file was not used; a valid one replaced it, and the
    // module loaded after that read it.
    EXPECT_GE(asVulkan(*dev).counters().pipelineCacheWrites, 1u);
    Buffer b = *dev->allocate(64, 0);
    auto q = dev->createQueue();
    ASSERT_TRUE(q.isOk());
    std::vector<float> x(16, 1.5f), y(16, 2.0f), z(16);
    ASSERT_TRUE(dev->write(b, 0, x.data(), 64).isOk());
    Buffer c = *dev->allocate(64, 0);
    Binding vb[3] = {{b, 0, 64}, {b, 0, 64}, {c, 0, 64}};
    uint32_t push[2] = {16, 16};
    auto f = (*q)->submit(Command::dispatch(k->vadd, 1, 1, 1, vb, 3, push, 2));
    ASSERT_TRUE(f.isOk());
    ASSERT_TRUE((*q)->wait(*f).isOk());
    ASSERT_TRUE(dev->read(c, 0, z.data(), 64).isOk());
    for (float v : z)
      EXPECT_EQ(v, 3.0f);
  }
  {
    // A file of the right name but a foreign header is ignored too.
    FILE *f = std::fopen(path.c_str(), "wb");
    ASSERT_TRUE(f);
    std::fputs("not a pipeline cache at all, just text of some length....", f);
    std::fclose(f);
    auto dev = mustOpen({true, cacheDir, 0, false});
    ASSERT_TRUE(dev);
    ASSERT_TRUE(dev->loadModule(vulkanKernelImage(words)).isOk());
    EXPECT_EQ(asVulkan(*dev).counters().pipelineCacheHits, 0u);
    EXPECT_EQ(asVulkan(*dev).counters().pipelineCacheWrites, 1u);
  }
  {
    // Off: nothing read or written.
    std::string off = dir + "/off";
    auto dev = mustOpen({false, off, 0, false});
    ASSERT_TRUE(dev);
    EXPECT_EQ(asVulkan(*dev).pipelineCacheDir(), "");
    ASSERT_TRUE(dev->loadModule(vulkanKernelImage(words)).isOk());
    EXPECT_EQ(asVulkan(*dev).counters().pipelineCacheWrites, 0u);
    EXPECT_TRUE(listDir(off).empty());
  }
  removeDir(cacheDir);
  rmdir((dir + "/nested").c_str());
  removeDir(dir);
}

TEST(VulkanDevice, CacheDirectoryFollowsTheEnvironment) {
  VulkanDeviceOptions o;
  o.cacheDir = "/explicit";
  EXPECT_EQ(vulkanCacheDirectory(o), "/explicit");
  o.cacheDir.clear();
  std::string saved[3];
  const char *names[3] = {"FUEL_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};
  bool had[3];
  for (int i = 0; i < 3; ++i) {
    const char *v = std::getenv(names[i]);
    had[i] = v;
    saved[i] = v ? v : "";
  }
  setenv("FUEL_CACHE_DIR", "/f", 1);
  setenv("XDG_CACHE_HOME", "/x", 1);
  setenv("HOME", "/h", 1);
  EXPECT_EQ(vulkanCacheDirectory(o), "/f");
  unsetenv("FUEL_CACHE_DIR");
  EXPECT_EQ(vulkanCacheDirectory(o), "/x/fuel");
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(vulkanCacheDirectory(o), "/h/.cache/fuel");
  unsetenv("HOME");
  EXPECT_EQ(vulkanCacheDirectory(o), "");
  for (int i = 0; i < 3; ++i)
    if (had[i])
      setenv(names[i], saved[i].c_str(), 1);
}

// A run's commands go in as one submit of one command buffer until a fence
// is waited on; a batch is bounded by VulkanDevice::kMaxBatch.
TEST(VulkanDevice, CommandsAreBatchedIntoFewSubmits) {
  FUEL_REQUIRE_VULKAN();
  auto dev = mustOpen({false, "", 0, false});
  ASSERT_TRUE(dev);
  auto k = loadVulkanKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  VulkanDevice &vk = asVulkan(*dev);
  const uint32_t n = 256;
  Buffer a = *dev->allocate(4 * n, 0), b = *dev->allocate(4 * n, 0),
         c = *dev->allocate(4 * n, 0);
  std::vector<float> av(n), bv(n);
  for (uint32_t i = 0; i < n; ++i) {
    av[i] = float(i) * 0.25f;
    bv[i] = 1.0f + float(i % 7);
  }
  ASSERT_TRUE(dev->write(a, 0, av.data(), 4 * n).isOk());
  ASSERT_TRUE(dev->write(b, 0, bv.data(), 4 * n).isOk());
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  Binding bindings[3] = {{a, 0, 4 * n}, {b, 0, 4 * n}, {c, 0, 4 * n}};
  uint32_t push[2] = {n, 64};
  VulkanDeviceCounters before = vk.counters();
  const int rounds = 50; // 100 commands: under one batch.
  Fence last;
  for (int r = 0; r < rounds; ++r) {
    auto f1 = (*q)->submit(
        Command::dispatch(k->vadd, n / 64, 1, 1, bindings, 3, push, 2));
    auto f2 = (*q)->submit(Command::copy(c, 0, a, 0, 4 * n));
    ASSERT_TRUE(f1.isOk() && f2.isOk());
    last = *f2;
  }
  EXPECT_EQ(vk.counters().submits, before.submits) << "nothing submitted yet";
  ASSERT_TRUE((*q)->wait(last).isOk());
  VulkanDeviceCounters after = vk.counters();
  EXPECT_EQ(after.submits - before.submits, 1u);
  EXPECT_EQ(after.commandBuffers - before.commandBuffers, 1u);
  EXPECT_EQ(after.commands - before.commands, uint64_t(2 * rounds));
  std::vector<float> got(n);
  ASSERT_TRUE(dev->read(a, 0, got.data(), 4 * n).isOk());
  for (uint32_t i = 0; i < n; ++i) {
    float want = av[i];
    for (int r = 0; r < rounds; ++r)
      want = want + bv[i];
    ASSERT_EQ(got[i], want) << i;
  }
  // More commands than one batch holds: split at the bound.
  before = vk.counters();
  const size_t many = VulkanDevice::kMaxBatch + 10;
  for (size_t i = 0; i < many; ++i)
    ASSERT_TRUE((*q)->submit(Command::copy(a, 0, c, 0, 4 * n)).isOk());
  EXPECT_EQ(vk.counters().submits - before.submits, 1u)
      << "the full batch went in at the bound";
  ASSERT_TRUE((*q)->finish().isOk());
  EXPECT_EQ(vk.counters().submits - before.submits, 2u);
  EXPECT_EQ(vk.counters().commands - before.commands, uint64_t(many));
}

// Small buffers share one block; a large one gets its own, which is
// returned when it is freed.
TEST(VulkanDevice, BuffersShareArenaBlocks) {
  FUEL_REQUIRE_VULKAN();
  auto dev = mustOpen({false, "", 0, false});
  ASSERT_TRUE(dev);
  VulkanDevice &vk = asVulkan(*dev);
  std::vector<Buffer> small;
  for (int i = 0; i < 100; ++i)
    small.push_back(*dev->allocate(1000 + i, 256));
  EXPECT_EQ(vk.counters().memoryBlocks, 1u);
  // Distinct buffers hold distinct bytes.
  for (int i = 0; i < 100; ++i) {
    uint32_t v = 1000u + i;
    ASSERT_TRUE(dev->write(small[i], 0, &v, 4).isOk());
  }
  for (int i = 0; i < 100; ++i) {
    uint32_t v = 0;
    ASSERT_TRUE(dev->read(small[i], 0, &v, 4).isOk());
    EXPECT_EQ(v, 1000u + i);
  }
  auto big = dev->allocate(80u << 20, 0);
  ASSERT_TRUE(big.isOk()) << big.status().message();
  EXPECT_EQ(vk.counters().memoryBlocks, 2u);
  EXPECT_TRUE(dev->free(*big).isOk());
  EXPECT_EQ(vk.counters().memoryBlocks, 1u);
  for (Buffer b : small)
    EXPECT_TRUE(dev->free(b).isOk());
  EXPECT_EQ(dev->bytesAllocated(), 0u);
}

// Command times are on the host's steady clock, between the submit and the
// end of the wait.
TEST(VulkanDevice, TimestampsAreOnTheHostClock) {
  FUEL_REQUIRE_VULKAN();
  auto dev = mustOpen({false, "", 0, false});
  ASSERT_TRUE(dev);
  auto k = loadVulkanKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  Buffer out = *dev->allocate(64, 0);
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  Binding b{out, 0, 4};
  uint32_t us = 5000;
  // Warm up (the first dispatch may compile the shader).
  ASSERT_TRUE((*q)->wait(*(*q)->submit(Command::dispatch(k->sleep, 1, 1, 1, &b,
                                                         1, &us, 1)))
                  .isOk());
  CommandTiming t;
  Command c = Command::dispatch(k->sleep, 1, 1, 1, &b, 1, &us, 1);
  c.timing = &t;
  uint64_t before = monotonicNs();
  auto f = (*q)->submit(c);
  ASSERT_TRUE(f.isOk());
  ASSERT_TRUE((*q)->wait(*f).isOk());
  uint64_t after = monotonicNs();
  const uint64_t slack = 2000000; // The calibration's error bound.
  EXPECT_GE(t.startNs + slack, before);
  EXPECT_LE(t.endNs, after + slack);
  EXPECT_GE(t.endNs - t.startNs, uint64_t(us) * 1000);
}

// A queue keeps what it needs: it may finish and be destroyed after its
// device.
TEST(VulkanDevice, QueueOutlivesItsDevice) {
  FUEL_REQUIRE_VULKAN();
  auto dev = mustOpen({false, "", 0, false});
  ASSERT_TRUE(dev);
  Buffer a = *dev->allocate(64, 0), b = *dev->allocate(64, 0);
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  auto f = (*q)->submit(Command::copy(a, 0, b, 0, 64));
  ASSERT_TRUE(f.isOk());
  dev.reset();
  EXPECT_TRUE((*q)->wait(*f).isOk());
  q->reset();
}

// A queue's copy whose ranges overlap within one buffer behaves like
// memmove, in both directions (recorded in chunks with barriers).
TEST(VulkanDevice, OverlappingQueueCopiesAreMemmoves) {
  FUEL_REQUIRE_VULKAN();
  for (bool staged : {false, true}) {
    auto dev = openTestVulkanDevice(0, staged);
    ASSERT_TRUE(dev.isOk()) << dev.status().message();
    Device &d = **dev;
    std::vector<uint8_t> init(1000);
    for (size_t i = 0; i < init.size(); ++i)
      init[i] = uint8_t(i * 7 + 3);
    Buffer b = *d.allocate(init.size(), 0);
    auto q = d.createQueue();
    ASSERT_TRUE(q.isOk());
    struct Case {
      uint64_t src, dst, bytes;
    } cases[] = {{0, 3, 900}, {50, 1, 700}, {10, 400, 500}, {600, 0, 400}};
    for (const Case &c : cases) {
      ASSERT_TRUE(d.write(b, 0, init.data(), init.size()).isOk());
      std::vector<uint8_t> want = init;
      std::memmove(want.data() + c.dst, want.data() + c.src, c.bytes);
      auto f = (*q)->submit(Command::copy(b, c.src, b, c.dst, c.bytes));
      ASSERT_TRUE(f.isOk());
      ASSERT_TRUE((*q)->wait(*f).isOk());
      std::vector<uint8_t> got(init.size());
      ASSERT_TRUE(d.read(b, 0, got.data(), got.size()).isOk());
      EXPECT_EQ(got, want) << "src " << c.src << " dst " << c.dst
                           << (staged ? " staged" : "");
    }
  }
}

// A dispatch must pass exactly its kernel's bindings, no more push constants
// than the device's range holds and a grid within the device's limits.
TEST(VulkanDevice, SubmitChecksTheKernelsLayout) {
  FUEL_REQUIRE_VULKAN();
  auto dev = mustOpen({false, "", 0, false});
  ASSERT_TRUE(dev);
  auto k = loadVulkanKernels(*dev);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  Buffer buf = *dev->allocate(256, 0);
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  Binding two[2] = {{buf, 0, 64}, {buf, 64, 64}};
  uint32_t push[kMaxPushConstants] = {16, 16};
  auto r = (*q)->submit(Command::dispatch(k->vadd, 1, 1, 1, two, 2, push, 2));
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("takes 3 bindings"), std::string::npos)
      << r.status().message();
  Binding three[3] = {{buf, 0, 64}, {buf, 64, 64}, {buf, 128, 64}};
  r = (*q)->submit(
      Command::dispatch(k->vadd, 1, 1, 1, three, 3, push, kMaxPushConstants));
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("push constants"), std::string::npos)
      << r.status().message();
  r = (*q)->submit(
      Command::dispatch(k->vadd, 1u << 31, 1, 1, three, 3, push, 2));
  EXPECT_EQ(r.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(r.status().message().find("maxComputeWorkGroupCount"),
            std::string::npos);
  // A zero-length binding at the end of its buffer and an empty grid are
  // valid and do nothing.
  Binding atEnd[3] = {{buf, 0, 64}, {buf, 64, 64}, {buf, 256, 0}};
  uint32_t none[2] = {0, 16};
  auto f = (*q)->submit(Command::dispatch(k->vadd, 1, 1, 1, atEnd, 3, none, 2));
  ASSERT_TRUE(f.isOk()) << f.status().message();
  f = (*q)->submit(Command::dispatch(k->vadd, 0, 1, 1, three, 3, push, 2));
  ASSERT_TRUE(f.isOk()) << f.status().message();
  EXPECT_TRUE((*q)->wait(*f).isOk());
}
