//===- SessionTest.cpp - Tests of runtimes and sessions -------------------===//
//
// Runs executables written with the writer API around the test kernel
// module: results, arena reuse across runs, zero-copy and copied binding,
// inputs never written, per-command timings, dependency order, asynchronous
// runs, and a Status with a message for every misuse.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Runtime.h"

#include "TestPrograms.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace fuel::rt;
using namespace fuel::rt::test;

namespace {

/// 64-byte-aligned floats, with room to misalign by `shift` bytes.
struct AlignedFloats {
  explicit AlignedFloats(size_t n, size_t shift = 0) : n(n), shift(shift) {
    // aligned_alloc takes a multiple of the alignment.
    size_t size = (n * 4 + 127) / 64 * 64;
    raw = static_cast<uint8_t *>(std::aligned_alloc(64, size));
    std::memset(raw, 0, size);
  }
  ~AlignedFloats() { std::free(raw); }
  float *data() { return reinterpret_cast<float *>(raw + shift); }
  size_t bytes() const { return n * 4; }
  size_t n, shift;
  uint8_t *raw;
};

struct Fixture : ::testing::Test {
  void SetUp() override {
    RuntimeOptions o;
    o.threads = 2;
    StatusOr<std::unique_ptr<Runtime>> r = Runtime::create(o);
    ASSERT_TRUE(r) << r.status().toString();
    rt = std::move(*r);
  }
  std::shared_ptr<LoadedExecutable> load(const ExecutableWriter &w) {
    std::vector<uint8_t> bytes = finishBytes(w);
    EXPECT_FALSE(bytes.empty());
    auto exe = rt->loadExecutableBytes(bytes.data(), bytes.size());
    EXPECT_TRUE(exe) << exe.status().toString();
    return exe ? *exe : nullptr;
  }
  std::unique_ptr<Session> session(const ExecutableWriter &w) {
    auto exe = load(w);
    if (!exe)
      return nullptr;
    auto s = Session::create(exe);
    EXPECT_TRUE(s) << s.status().toString();
    return s ? std::move(*s) : nullptr;
  }
  std::unique_ptr<Runtime> rt;
};

void fill(float *x, size_t n, float scale, float offset) {
  for (size_t i = 0; i < n; ++i)
    x[i] = scale * float(i) + offset;
}

Status bind(Session &s, size_t i, float *data, size_t n) {
  return s.bindInput(i, ElementType::F32, {int64_t(n)}, data, n * 4);
}

TEST_F(Fixture, VectorAddRunsAndIsTimed) {
  ExecutableWriter w;
  buildVectorAdd(w, 1000, 256);
  auto s = session(w);
  ASSERT_TRUE(s);
  AlignedFloats a(1000), b(1000);
  fill(a.data(), 1000, 1.0f, 0.5f);
  fill(b.data(), 1000, -2.0f, 3.0f);
  ASSERT_TRUE(bind(*s, 0, a.data(), 1000));
  ASSERT_TRUE(bind(*s, 1, b.data(), 1000));
  EXPECT_TRUE(s->commandTimes().empty());
  uint64_t before = monotonicNs();
  Status st = s->run();
  ASSERT_TRUE(st) << st.toString();
  std::vector<float> c(1000);
  ASSERT_TRUE(s->readOutput(0, c.data(), c.size() * 4));
  for (size_t i = 0; i < 1000; ++i)
    ASSERT_EQ(c[i], a.data()[i] + b.data()[i]) << i;
  // Every command is timed, inside the run, in order.
  ASSERT_EQ(s->commandTimes().size(), 2u);
  for (const CommandTime &t : s->commandTimes()) {
    EXPECT_GE(t.startNs, before);
    EXPECT_GE(t.endNs, t.startNs);
    EXPECT_LE(t.endNs, monotonicNs());
  }
  EXPECT_GE(s->commandTimes()[1].startNs, s->commandTimes()[0].endNs);
  EXPECT_EQ(s->runCount(), 1u);
}

TEST_F(Fixture, ArenaIsAllocatedOnceAndReused) {
  ExecutableWriter w;
  buildVectorAdd(w, 4096, 512);
  Device *cpu = rt->device(::fuel::Device::cpu());
  ASSERT_NE(cpu, nullptr);
  uint64_t idle = cpu->bytesAllocated();
  auto s = session(w);
  ASSERT_TRUE(s);
  uint64_t withSession = cpu->bytesAllocated();
  // The arena (16 KiB) and the output (16 KiB) at least.
  EXPECT_GE(withSession - idle, 2u * 4096 * 4);
  AlignedFloats a(4096), b(4096);
  std::vector<float> c(4096);
  for (int run = 0; run < 5; ++run) {
    fill(a.data(), 4096, float(run), 1.0f);
    fill(b.data(), 4096, 0.25f, float(-run));
    ASSERT_TRUE(bind(*s, 0, a.data(), 4096));
    ASSERT_TRUE(bind(*s, 1, b.data(), 4096));
    ASSERT_TRUE(s->run());
    EXPECT_EQ(cpu->bytesAllocated(), withSession) << "run " << run;
    ASSERT_TRUE(s->readOutput(0, c.data(), c.size() * 4));
    for (size_t i = 0; i < 4096; i += 97)
      ASSERT_EQ(c[i], a.data()[i] + b.data()[i]);
  }
  EXPECT_EQ(s->runCount(), 5u);
  s.reset();
  EXPECT_EQ(cpu->bytesAllocated(), idle);
}

TEST_F(Fixture, AlignedInputsBindZeroCopyOthersAreCopied) {
  ExecutableWriter w;
  buildVectorAdd(w, 256, 64);
  auto s = session(w);
  ASSERT_TRUE(s);
  AlignedFloats a(256), b(256, /*shift=*/4);
  fill(a.data(), 256, 1.0f, 0.0f);
  fill(b.data(), 256, 0.0f, 1.0f);
  ASSERT_TRUE(bind(*s, 0, a.data(), 256));
  ASSERT_TRUE(bind(*s, 1, b.data(), 256));
  EXPECT_TRUE(s->isInputZeroCopy(0));
  EXPECT_FALSE(s->isInputZeroCopy(1));
  // Zero-copy: the run reads a's memory as it is at run time. Copied: b was
  // taken at bind time, so changing it afterwards changes nothing.
  a.data()[3] = 100.0f;
  b.data()[3] = 1000.0f;
  ASSERT_TRUE(s->run());
  std::vector<float> c(256);
  ASSERT_TRUE(s->readOutput(0, c.data(), c.size() * 4));
  EXPECT_EQ(c[3], 101.0f);
  EXPECT_EQ(c[4], 5.0f);
}

TEST_F(Fixture, InputsAreNeverWritten) {
  ExecutableWriter w;
  buildChain(w, 512, 64);
  auto s = session(w);
  ASSERT_TRUE(s);
  AlignedFloats a(512), b(512);
  fill(a.data(), 512, 0.5f, -3.0f);
  fill(b.data(), 512, 2.0f, 7.0f);
  std::vector<float> a0(a.data(), a.data() + 512), b0(b.data(), b.data() + 512);
  ASSERT_TRUE(bind(*s, 0, a.data(), 512));
  ASSERT_TRUE(bind(*s, 1, b.data(), 512));
  ASSERT_TRUE(s->isInputZeroCopy(0));
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(s->run());
  EXPECT_EQ(std::memcmp(a0.data(), a.data(), a.bytes()), 0);
  EXPECT_EQ(std::memcmp(b0.data(), b.data(), b.bytes()), 0);
}

TEST_F(Fixture, CopiesIntoAnInputAreRefused) {
  ExecutableWriter w;
  buildVectorAdd(w, 64, 64);
  // Redirect the copy into input a's buffer: the loader refuses it, so no
  // session ever writes into a caller's input.
  w.program().commands[1].copy.dst = w.program().inputs[0].buffer;
  WriteOptions unverified;
  unverified.verify = false;
  StatusOr<std::vector<uint8_t>> bytes = w.finish(unverified);
  ASSERT_TRUE(bytes);
  auto exe = rt->loadExecutableBytes(bytes->data(), bytes->size());
  ASSERT_FALSE(exe);
  EXPECT_NE(exe.status().message().find("read-only"), std::string::npos)
      << exe.status().message();
}

TEST_F(Fixture, DependenciesRunInOrder) {
  ExecutableWriter w;
  buildChain(w, 512, 64);
  auto s = session(w);
  ASSERT_TRUE(s);
  AlignedFloats a(512), b(512);
  std::vector<float> c(512);
  for (int run = 0; run < 3; ++run) {
    fill(a.data(), 512, float(run + 1), 0.0f);
    fill(b.data(), 512, 1.0f, float(run));
    ASSERT_TRUE(bind(*s, 0, a.data(), 512));
    ASSERT_TRUE(bind(*s, 1, b.data(), 512));
    ASSERT_TRUE(s->run());
    ASSERT_TRUE(s->readOutput(0, c.data(), c.size() * 4));
    for (size_t i = 0; i < 512; ++i)
      ASSERT_EQ(c[i], (a.data()[i] + b.data()[i]) + a.data()[i]) << i;
    const auto &t = s->commandTimes();
    ASSERT_EQ(t.size(), 2u);
    EXPECT_GE(t[1].startNs, t[0].endNs);
  }
}

TEST_F(Fixture, AsyncRunAndWait) {
  ExecutableWriter w;
  buildVectorAdd(w, 1000, 100);
  auto s = session(w);
  ASSERT_TRUE(s);
  AlignedFloats a(1000), b(1000);
  fill(a.data(), 1000, 3.0f, 0.0f);
  fill(b.data(), 1000, 1.0f, 1.0f);
  ASSERT_TRUE(bind(*s, 0, a.data(), 1000));
  ASSERT_TRUE(bind(*s, 1, b.data(), 1000));
  ASSERT_TRUE(s->runAsync());
  std::vector<float> c(1000);
  if (s->isRunning()) {
    // While in flight: no second run, no rebinding, no reading.
    EXPECT_EQ(s->runAsync().code(), StatusCode::FailedPrecondition);
    EXPECT_EQ(bind(*s, 0, a.data(), 1000).code(),
              StatusCode::FailedPrecondition);
    EXPECT_EQ(s->readOutput(0, c.data(), 4000).code(),
              StatusCode::FailedPrecondition);
  }
  ASSERT_TRUE(s->wait());
  EXPECT_FALSE(s->isRunning());
  EXPECT_TRUE(s->wait()); // nothing in flight: ok
  ASSERT_TRUE(s->readOutput(0, c.data(), 4000));
  EXPECT_EQ(c[999], 3.0f * 999 + 999 + 1);
}

TEST_F(Fixture, MisuseReturnsStatusesWithMessages) {
  ExecutableWriter w;
  buildVectorAdd(w, 16, 16);
  auto s = session(w);
  ASSERT_TRUE(s);
  AlignedFloats a(16);
  std::vector<float> out(16);
  auto expectError = [](const Status &st, StatusCode code, const char *text) {
    EXPECT_EQ(st.code(), code) << st.toString();
    EXPECT_NE(st.message().find(text), std::string::npos) << st.message();
  };
  // Running and reading before binding.
  expectError(s->run(), StatusCode::FailedPrecondition, "input 0 (a)");
  expectError(s->readOutput(0, out.data(), 64), StatusCode::FailedPrecondition,
              "no run has finished");
  // Wrong input index, dtype, shape, byte count, null data.
  expectError(bind(*s, 2, a.data(), 16), StatusCode::InvalidArgument,
              "input 2 does not exist; the executable has 2 inputs");
  expectError(s->bindInput(0, ElementType::I32, {16}, a.data(), 64),
              StatusCode::InvalidArgument, "is 16xi32, expected 16xf32");
  expectError(s->bindInput(0, ElementType::F32, {4, 4}, a.data(), 64),
              StatusCode::InvalidArgument, "is 4x4xf32, expected 16xf32");
  expectError(s->bindInput(0, ElementType::F32, {16}, a.data(), 60),
              StatusCode::InvalidArgument, "60 bytes given, expected 64");
  expectError(s->bindInput(0, ElementType::F32, {16}, nullptr, 64),
              StatusCode::InvalidArgument, "null data");
  EXPECT_FALSE(s->isInputBound(0));
  // One of two inputs bound is still not enough.
  ASSERT_TRUE(bind(*s, 0, a.data(), 16));
  expectError(s->run(), StatusCode::FailedPrecondition, "input 1 (b)");
  ASSERT_TRUE(bind(*s, 1, a.data(), 16));
  ASSERT_TRUE(s->run());
  // Reading: wrong index and size.
  expectError(s->readOutput(1, out.data(), 64), StatusCode::InvalidArgument,
              "output 1 does not exist");
  expectError(s->readOutput(0, out.data(), 32), StatusCode::InvalidArgument,
              "32 bytes given, expected 64");
  EXPECT_TRUE(s->readOutput(0, out.data(), 64));
  // A null executable.
  auto none = Session::create(nullptr);
  EXPECT_EQ(none.status().code(), StatusCode::InvalidArgument);
}

TEST_F(Fixture, MissingDeviceAndBadBytesAreRefused) {
  ExecutableWriter w;
  buildVectorAdd(w, 16, 16);
  w.addDevice(::fuel::Device::vulkan(31), 1024);
  std::vector<uint8_t> bytes = finishBytes(w);
  ASSERT_FALSE(bytes.empty());
  auto exe = rt->loadExecutableBytes(bytes.data(), bytes.size());
  ASSERT_FALSE(exe);
  EXPECT_NE(exe.status().message().find("executable needs device vulkan:31: "),
            std::string::npos)
      << exe.status().message();
  // Corrupt bytes: the loader's error comes through.
  ExecutableWriter ok;
  buildVectorAdd(ok, 16, 16);
  bytes = finishBytes(ok);
  bytes[bytes.size() / 2] ^= 0x40;
  exe = rt->loadExecutableBytes(bytes.data(), bytes.size());
  EXPECT_FALSE(exe);
  EXPECT_FALSE(exe.status().message().empty());
  auto nofile = rt->loadExecutableFile("does-not-exist.fuel");
  ASSERT_FALSE(nofile);
  EXPECT_NE(nofile.status().message().find("does-not-exist.fuel"),
            std::string::npos);
}

/// y = cos(x) through the test shim's library kernel, reading x from a
/// constant when `constantInput`, else from input 0.
void buildShimCos(ExecutableWriter &w, uint32_t n, uint32_t block,
                  const std::vector<float> *constant = nullptr) {
  w.setFunction("cos");
  uint64_t bytes = uint64_t(n) * 4;
  uint32_t cpu = w.addDevice(::fuel::Device::cpu(), 64);
  LibraryKernel lk;
  lk.device = cpu;
  lk.kernelId = "cpu.test.vcos_f32";
  lk.shim = FUEL_TEST_SHIM_FILE;
  lk.entry = "test_vcos";
  lk.params = {n, block};
  w.addLibraryKernel(lk);
  uint32_t in;
  if (constant) {
    uint32_t k = w.addConstant(
        "x", {reinterpret_cast<const uint8_t *>(constant->data()), bytes});
    BufferSpec b;
    b.kind = BufferKind::Constant;
    b.device = cpu;
    b.size = bytes;
    b.index = k;
    in = w.addBuffer(b);
  } else {
    in = w.program()
             .inputs[w.addInput("x", ElementType::F32, {int64_t(n)}, cpu)]
             .buffer;
  }
  uint32_t out =
      w.program()
          .outputs[w.addOutput("y", ElementType::F32, {int64_t(n)}, cpu)]
          .buffer;
  Dispatch d;
  d.source = KernelSource::Library;
  d.kernel = 0;
  d.grid = {(n + block - 1) / block, 1, 1};
  d.bindings = {{in, 0, bytes}, {out, 0, bytes}};
  w.addDispatch(d, {},
                testReport(1, "fuel.cos", "cpu.test.vcos_f32", "library", 500));
}

std::unique_ptr<Runtime> shimRuntime() {
  RuntimeOptions o;
  o.threads = 2;
  o.shimDirectory = FUEL_TEST_SHIM_DIR;
  auto r = Runtime::create(o);
  return r ? std::move(*r) : nullptr;
}

TEST_F(Fixture, LibraryKernelsRunThroughTheirShim) {
  rt = shimRuntime();
  ASSERT_TRUE(rt);
  ExecutableWriter w;
  buildShimCos(w, 300, 64);
  auto s = session(w);
  ASSERT_TRUE(s);
  AlignedFloats x(300);
  fill(x.data(), 300, 0.01f, -1.0f);
  ASSERT_TRUE(bind(*s, 0, x.data(), 300));
  Status st = s->run();
  ASSERT_TRUE(st) << st.toString();
  std::vector<float> y(300);
  ASSERT_TRUE(s->readOutput(0, y.data(), 1200));
  for (size_t i = 0; i < 300; ++i)
    ASSERT_EQ(y[i], std::cos(x.data()[i])) << i;
}

TEST_F(Fixture, AMissingShimIsRefusedByName) {
  ExecutableWriter w;
  buildShimCos(w, 64, 64);
  w.program().libraryKernels[0].shim = "libfuel-shim-absent.so";
  rt = shimRuntime();
  std::vector<uint8_t> bytes = finishBytes(w);
  auto exe = rt->loadExecutableBytes(bytes.data(), bytes.size());
  ASSERT_FALSE(exe);
  EXPECT_NE(exe.status().message().find("libfuel-shim-absent.so"),
            std::string::npos)
      << exe.status().message();
}

TEST_F(Fixture, ConstantsAreUploadedOncePerExecutable) {
  rt = shimRuntime();
  ASSERT_TRUE(rt);
  Device *cpu = rt->device(::fuel::Device::cpu());
  std::vector<float> x(2048);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i) * 0.001f;
  ExecutableWriter w;
  buildShimCos(w, 2048, 256, &x);
  uint64_t idle = cpu->bytesAllocated();
  auto exe = load(w);
  ASSERT_TRUE(exe);
  uint64_t loaded = cpu->bytesAllocated();
  EXPECT_GE(loaded - idle, 2048u * 4) << "the constant, at load";
  auto s1 = Session::create(exe);
  ASSERT_TRUE(s1);
  uint64_t perSession = cpu->bytesAllocated() - loaded;
  auto s2 = Session::create(exe);
  ASSERT_TRUE(s2);
  // A second session adds its own arena and output, not another constant.
  EXPECT_EQ(cpu->bytesAllocated() - loaded, 2 * perSession);
  EXPECT_LT(perSession, 2048u * 4 + 1024);
  std::vector<float> y(2048);
  for (auto *s : {s1->get(), s2->get()}) {
    for (int run = 0; run < 2; ++run) {
      ASSERT_TRUE(s->run());
      EXPECT_EQ(cpu->bytesAllocated() - loaded, 2 * perSession);
    }
    ASSERT_TRUE(s->readOutput(0, y.data(), y.size() * 4));
    for (size_t i = 0; i < y.size(); i += 101)
      ASSERT_EQ(y[i], std::cos(x[i])) << i;
  }
}

TEST_F(Fixture, SessionsOfOneExecutableRunConcurrently) {
  ExecutableWriter w;
  buildChain(w, 4096, 256);
  auto exe = load(w);
  ASSERT_TRUE(exe);
  // Each thread its own session and inputs; the arenas are per session, so
  // the runs must not disturb each other.
  auto work = [&](float scale, bool &ok) {
    ok = false;
    auto s = Session::create(exe);
    if (!s)
      return;
    AlignedFloats a(4096), b(4096);
    fill(a.data(), 4096, scale, 1.0f);
    fill(b.data(), 4096, 1.0f, scale);
    std::vector<float> c(4096);
    if (!bind(**s, 0, a.data(), 4096) || !bind(**s, 1, b.data(), 4096))
      return;
    for (int run = 0; run < 50; ++run) {
      if (!(*s)->run() || !(*s)->readOutput(0, c.data(), c.size() * 4))
        return;
      for (size_t i = 0; i < 4096; i += 7)
        if (c[i] != (a.data()[i] + b.data()[i]) + a.data()[i])
          return;
    }
    ok = true;
  };
  bool ok1 = false, ok2 = false;
  std::thread t1(work, 1.0f, std::ref(ok1)), t2(work, -3.0f, std::ref(ok2));
  t1.join();
  t2.join();
  EXPECT_TRUE(ok1);
  EXPECT_TRUE(ok2);
}

TEST_F(Fixture, SessionsOutliveTheirHandles) {
  ExecutableWriter w;
  buildVectorAdd(w, 64, 64);
  auto s = session(w);
  ASSERT_TRUE(s);
  rt.reset(); // the session keeps the devices alive
  AlignedFloats a(64);
  fill(a.data(), 64, 1.0f, 0.0f);
  ASSERT_TRUE(bind(*s, 0, a.data(), 64));
  ASSERT_TRUE(bind(*s, 1, a.data(), 64));
  ASSERT_TRUE(s->run());
  std::vector<float> c(64);
  ASSERT_TRUE(s->readOutput(0, c.data(), 256));
  EXPECT_EQ(c[63], 126.0f);
}

} // namespace
