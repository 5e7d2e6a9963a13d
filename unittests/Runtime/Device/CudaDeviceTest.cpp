//===- CudaDeviceTest.cpp - The CUDA device without a GPU -----------------===//
//
// Tests of the CUDA device that need no GPU: the absent-driver paths (no
// library, the toolkit's stub, a library that is no driver), the pure parts
// (error mapping, kernel parameter packing, PTX image checks, the cuBLAS
// search path and the row-major operand swap computed by hand), and the
// device's memory, staging, copies, queues, fences, module loading and
// cuBLAS calls through the test doubles of the driver and of cuBLAS built
// here (cuda/FakeCudaDriver.c, cuda/FakeCublas.c), whose device memory is
// host memory and which refuse kernel launches.
//
//===----------------------------------------------------------------------===//

#include "CudaTestSupport.h"

#include "cuda/Cublas.h"
#include "cuda/CudaCommands.h"
#include "cuda/CudaDriver.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <numeric>

using namespace fuel::rt;
using namespace fuel::rt::test;
using namespace fuel::rt::cuda;

namespace {

bool contains(const std::string &s, const std::string &what) {
  return s.find(what) != std::string::npos;
}

std::unique_ptr<Device> fakeDevice(uint64_t limit = 0, uint64_t staging = 0) {
  auto d = openFakeCudaDevice(limit, staging);
  EXPECT_TRUE(d.isOk()) << d.status().message();
  return d.isOk() ? std::move(*d) : nullptr;
}

const char *kTinyPtx = ".version 7.8\n.target sm_75\n.address_size 64\n"
                       ".visible .entry k(.param .u64 a, .param .u32 n)\n"
                       "{\n  ret;\n}\n";

ModuleImage tinyImage(const char *text, const std::string &name = "k") {
  ModuleImage image;
  image.data = text;
  image.size = std::strlen(text);
  image.kernelNames = {name};
  image.layouts = {KernelLayout{}};
  return image;
}

//===----------------------------------------------------------------------===//
// Without a driver
//===----------------------------------------------------------------------===//

TEST(CudaDriver, MissingLibraryIsAbsentWithTheReason) {
  CudaDeviceOptions o;
  o.driverLibrary = "libfuel-no-such-cuda-driver.so.1";
  auto d = openCudaDevice(0, o);
  ASSERT_FALSE(d.isOk());
  EXPECT_EQ(d.status().code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(d.status().message(), "cuda:0: no CUDA driver ("))
      << d.status().message();
  EXPECT_TRUE(contains(d.status().message(), "libfuel-no-such-cuda-driver"))
      << d.status().message();
}

TEST(CudaDriver, ALibraryThatIsNoDriverIsNamed) {
  CudaDeviceOptions o;
  o.driverLibrary = "libc.so.6";
  auto d = openCudaDevice(0, o);
  ASSERT_FALSE(d.isOk());
  EXPECT_EQ(d.status().code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(d.status().message(),
                       "libc.so.6 is not a CUDA driver (cuInit missing)"))
      << d.status().message();
}

TEST(CudaDriver, TheToolkitStubSaysStubLibrary) {
  std::string stub = FUEL_CUDA_STUB_DRIVER;
  if (stub.empty())
    GTEST_SKIP() << "no CUDA toolkit stubs/libcuda.so was found at configure "
                    "time";
  CudaDeviceOptions o;
  o.driverLibrary = stub;
  auto d = openCudaDevice(0, o);
  ASSERT_FALSE(d.isOk());
  EXPECT_EQ(d.status().code(), StatusCode::Unavailable);
  EXPECT_TRUE(contains(d.status().message(), "cuInit(0) failed with 34"))
      << d.status().message();
  EXPECT_TRUE(contains(d.status().message(), "stub library, no driver"))
      << d.status().message();
}

TEST(CudaDriver, ErrorMapping) {
  EXPECT_EQ(errorText(nullptr, 34).rfind("34 (CUDA_ERROR_STUB_LIBRARY", 0), 0u);
  EXPECT_EQ(errorText(nullptr, 2), "2 (CUDA_ERROR_OUT_OF_MEMORY)");
  EXPECT_EQ(errorText(nullptr, 12345), "12345");
  EXPECT_EQ(statusCodeOf(0), StatusCode::Ok);
  EXPECT_EQ(statusCodeOf(2), StatusCode::ResourceExhausted);
  EXPECT_EQ(statusCodeOf(34), StatusCode::Unavailable);
  EXPECT_EQ(statusCodeOf(100), StatusCode::Unavailable);
  EXPECT_EQ(statusCodeOf(218), StatusCode::InvalidArgument);
  EXPECT_EQ(statusCodeOf(801), StatusCode::Unimplemented);
  EXPECT_EQ(statusCodeOf(700), StatusCode::Internal);
}

TEST(CudaDriver, KernelParametersAreAddressesThenWords) {
  CUdeviceptr addr[2] = {0x7000000010ull, 0x20};
  uint32_t push[3] = {7, 0xffffffffu, 0};
  uint64_t storage[5];
  void *args[5];
  packKernelParams(addr, 2, push, 3, storage, args);
  EXPECT_EQ(*static_cast<uint64_t *>(args[0]), 0x7000000010ull);
  EXPECT_EQ(*static_cast<uint64_t *>(args[1]), 0x20ull);
  EXPECT_EQ(*static_cast<uint32_t *>(args[2]), 7u);
  EXPECT_EQ(*static_cast<uint32_t *>(args[3]), 0xffffffffu);
  EXPECT_EQ(*static_cast<uint32_t *>(args[4]), 0u);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(args[i], &storage[i]);
}

TEST(CudaDriver, PtxImageChecks) {
  std::vector<std::string> k = {"k"};
  EXPECT_TRUE(checkPtxImage(kTinyPtx, std::strlen(kTinyPtx), k).isOk());
  // One terminating NUL is allowed.
  EXPECT_TRUE(checkPtxImage(kTinyPtx, std::strlen(kTinyPtx) + 1, k).isOk());
  EXPECT_EQ(checkPtxImage(nullptr, 0, k).code(), StatusCode::InvalidArgument);
  std::string withNul = std::string(kTinyPtx) + std::string(1, '\0') + "x";
  EXPECT_TRUE(contains(
      checkPtxImage(withNul.data(), withNul.size(), k).message(), "not text"));
  const char *noVersion = ".target sm_90\n.visible .entry k()\n{ ret; }\n";
  EXPECT_TRUE(
      contains(checkPtxImage(noVersion, std::strlen(noVersion), k).message(),
               "no .version"));
  const char *noTarget = ".version 8.0\n.visible .entry k()\n{ ret; }\n";
  EXPECT_TRUE(
      contains(checkPtxImage(noTarget, std::strlen(noTarget), k).message(),
               "no .target"));
  // "kk" is not "k", and a name must be an entry, not a mention.
  const char *other = ".version 8.0\n.target sm_90\n.visible .entry kk()\n"
                      "{ ret; } // k\n";
  EXPECT_TRUE(contains(checkPtxImage(other, std::strlen(other), k).message(),
                       "no .entry 'k'"));
  std::vector<uint8_t> conformance = readFileBytes(FUEL_CUDA_TEST_KERNELS_PATH);
  ASSERT_FALSE(conformance.empty());
  EXPECT_TRUE(checkPtxImage(conformance.data(), conformance.size(),
                            {"vadd", "wgid", "sleep"})
                  .isOk());
}

TEST(CudaDriver, CopiesSplitIntoPiecesThatDoNotOverlap) {
  // Emulate memmove on a host array with pieces that must not overlap.
  for (int64_t shift : {-5, -3, -1, 1, 2, 7, 40}) {
    std::vector<int> mem(128), want(128);
    std::iota(mem.begin(), mem.end(), 0);
    want = mem;
    uint64_t src = 10, dst = uint64_t(10 + shift), n = 20;
    std::memmove(&want[dst], &want[src], n * sizeof(int));
    Status s = forEachCopyPiece(
        dst, src, n, [&](uint64_t to, uint64_t from, uint64_t bytes) {
          EXPECT_TRUE(to + bytes <= from || from + bytes <= to)
              << "piece overlaps itself";
          std::memcpy(&mem[to], &mem[from], bytes * sizeof(int));
          return Status::ok();
        });
    ASSERT_TRUE(s.isOk());
    EXPECT_EQ(mem, want) << "shift " << shift;
  }
}

//===----------------------------------------------------------------------===//
// cuBLAS: params, the operand swap and the search path
//===----------------------------------------------------------------------===//

TEST(Cublas, RowMajorGemmBecomesTheSwappedColumnMajorCall) {
  // Row-major C (2x3) = A (2x4) B (4x3): cuBLAS computes C^T (3x2) =
  // B^T (3x4) A^T (4x2), so B goes first, m = N = 3, n = M = 2, k = 4.
  const uint32_t params[8] = {2, 3, 4, 4, 3, 3, 0, 0};
  const uint32_t grid[3] = {1, 1, 1};
  auto g = parseGemmParams(kCublasSgemmEntry, params, 8, grid);
  ASSERT_TRUE(g.isOk()) << g.status().message();
  ColumnMajorGemm c = toColumnMajor(*g);
  EXPECT_EQ(c.opFirst, 0);
  EXPECT_EQ(c.opSecond, 0);
  EXPECT_EQ(c.m, 3);
  EXPECT_EQ(c.n, 2);
  EXPECT_EQ(c.k, 4);
  EXPECT_EQ(c.ldFirst, 3);  // ldb
  EXPECT_EQ(c.ldSecond, 4); // lda
  EXPECT_EQ(c.ldc, 3);
  EXPECT_TRUE(c.firstIsB);
  EXPECT_EQ(gemmBytesA(*g), 4u * 8);
  EXPECT_EQ(gemmBytesB(*g), 4u * 12);
  EXPECT_EQ(gemmBytesC(*g), 4u * 6);

  // Transposed A (stored K x M, lda = M) and B (stored N x K, ldb = K).
  const uint32_t t[8] = {2, 3, 4, 2, 4, 3, 1, 1};
  g = parseGemmParams(kCublasSgemmEntry, t, 8, grid);
  ASSERT_TRUE(g.isOk()) << g.status().message();
  c = toColumnMajor(*g);
  EXPECT_EQ(c.opFirst, 1);
  EXPECT_EQ(c.opSecond, 1);
  EXPECT_EQ(c.ldFirst, 4);
  EXPECT_EQ(c.ldSecond, 2);

  // The CPU shims' row blocks: grid [ceil(M/rows)], computed as one call.
  const uint32_t blocks[9] = {64, 8, 8, 8, 8, 8, 0, 0, 16};
  const uint32_t four[3] = {4, 1, 1};
  EXPECT_TRUE(parseGemmParams(kCublasSgemmEntry, blocks, 9, four).isOk());
  auto wrong = parseGemmParams(kCublasSgemmEntry, blocks, 9, grid);
  EXPECT_TRUE(contains(wrong.status().message(), "expected [4, 1, 1]"))
      << wrong.status().message();
}

TEST(Cublas, StridedBatchedKeepsTheStridesWithTheirOperands) {
  // [batch, M, N, K, lda, ldb, ldc, M*K, K*N, M*N, transA, transB]
  const uint32_t p[12] = {5, 2, 3, 4, 4, 3, 3, 8, 12, 6, 0, 0};
  const uint32_t grid[3] = {5, 1, 1};
  auto g = parseGemmParams(kCublasSgemmBatchedEntry, p, 12, grid);
  ASSERT_TRUE(g.isOk()) << g.status().message();
  ColumnMajorGemm c = toColumnMajor(*g);
  EXPECT_EQ(c.batch, 5);
  EXPECT_EQ(c.strideFirst, 12); // B's
  EXPECT_EQ(c.strideSecond, 8); // A's
  EXPECT_EQ(c.strideC, 6);
  EXPECT_EQ(gemmBytesA(*g), 4u * (4 * 8 + 8));
  EXPECT_EQ(gemmBytesC(*g), 4u * (4 * 6 + 6));
}

TEST(Cublas, BadParamsAreRefusedByName) {
  const uint32_t grid[3] = {1, 1, 1};
  const uint32_t ldb[8] = {2, 3, 4, 4, 2, 3, 0, 0};
  EXPECT_TRUE(contains(
      parseGemmParams(kCublasSgemmEntry, ldb, 8, grid).status().message(),
      "ldb = 2 is less than N = 3"));
  const uint32_t flag[8] = {2, 3, 4, 4, 3, 3, 2, 0};
  EXPECT_TRUE(contains(
      parseGemmParams(kCublasSgemmEntry, flag, 8, grid).status().message(),
      "transA = 2"));
  EXPECT_TRUE(contains(
      parseGemmParams(kCublasSgemmEntry, flag, 5, grid).status().message(),
      "takes 8 params"));
  EXPECT_TRUE(contains(parseGemmParams("fuel_shim_cublas_nope", flag, 8, grid)
                           .status()
                           .message(),
                       "unknown"));
  const uint32_t p[12] = {5, 2, 3, 4, 4, 3, 3, 8, 12, 6, 0, 0};
  EXPECT_TRUE(contains(
      parseGemmParams(kCublasSgemmBatchedEntry, p, 12, grid).status().message(),
      "expected [batch, 1, 1] = [5, 1, 1]"));
}

TEST(Cublas, SearchPathResolution) {
  std::vector<std::string> c = cublasCandidates("/opt/a:/opt/b/::");
  const auto &names = cublasLibraryNames();
  ASSERT_EQ(c.size(), 3 * names.size());
  EXPECT_EQ(c[0], "/opt/a/" + names[0]);
  EXPECT_EQ(c[names.size()], "/opt/b/" + names[0]);
  EXPECT_EQ(c[2 * names.size()], names[0]); // then the loader's default
  EXPECT_EQ(cublasCandidates("").size(), names.size());
  EXPECT_EQ(std::string(defaultCublasSearchPath()),
            std::string(FUEL_EXPECTED_CUBLAS_SEARCH_PATH));
}

//===----------------------------------------------------------------------===//
// Through the test double of the driver
//===----------------------------------------------------------------------===//

TEST(CudaFakeDriver, OpensWithTheDriversFigures) {
  auto dev = fakeDevice();
  ASSERT_TRUE(dev);
  EXPECT_EQ(dev->info().id, ::fuel::Device::cuda(0));
  EXPECT_EQ(dev->info().name, "Fake CUDA Device 0 (test double)");
  EXPECT_EQ(dev->info().memoryLimit, 1ull << 30);
  EXPECT_FALSE(dev->info().hostVisible);
  EXPECT_EQ(dev->info().maxAlignment, 256u);
  auto *cuda = static_cast<CudaDevice *>(dev.get());
  EXPECT_EQ(cuda->computeCapability(), std::make_pair(8, 6));
  auto none = openFakeCudaDevice(0, 0, 3);
  ASSERT_FALSE(none.isOk());
  EXPECT_TRUE(contains(none.status().message(), "no device cuda:3"))
      << none.status().message();
}

TEST(CudaFakeDriver, MemoryStagingAndCopies) {
  auto dev = fakeDevice(1 << 20, 4096);
  ASSERT_TRUE(dev);
  EXPECT_EQ(dev->allocate(1, 512).status().code(), StatusCode::InvalidArgument);
  EXPECT_EQ(dev->allocate(1, 3).status().code(), StatusCode::InvalidArgument);
  EXPECT_EQ(dev->allocate((1 << 20) + 1, 0).status().code(),
            StatusCode::ResourceExhausted);
  auto zero = dev->allocate(0, 0);
  ASSERT_TRUE(zero.isOk());
  EXPECT_TRUE(dev->write(*zero, 0, nullptr, 0).isOk());
  EXPECT_EQ(dev->write(*zero, 1, nullptr, 0).code(), StatusCode::OutOfRange);
  const uint32_t n = 10000; // several staging chunks of 4096 bytes
  auto a = dev->allocate(4 * n, 0);
  ASSERT_TRUE(a.isOk());
  EXPECT_EQ(dev->bytesAllocated(), 4u * n);
  std::vector<uint32_t> in(n), out(n, 0);
  std::iota(in.begin(), in.end(), 1u);
  ASSERT_TRUE(dev->write(*a, 0, in.data(), 4 * n).isOk());
  ASSERT_TRUE(dev->read(*a, 0, out.data(), 4 * n).isOk());
  EXPECT_EQ(out, in);
  EXPECT_EQ(static_cast<CudaDevice *>(dev.get())->counters().stagedBytes,
            8u * n);
  // Overlapping copies within one buffer give memmove's result (the double
  // refuses an overlapping cuMemcpyDtoD, so the pieces must not overlap).
  ASSERT_TRUE(dev->copy(*a, 0, *a, 12, 4 * 100).isOk());
  ASSERT_TRUE(dev->read(*a, 12, out.data(), 4 * 100).isOk());
  for (uint32_t i = 0; i < 100; ++i)
    ASSERT_EQ(out[i], i + 1) << i;
  ASSERT_TRUE(dev->copy(*a, 12, *a, 4, 4 * 100).isOk());
  ASSERT_TRUE(dev->read(*a, 4, out.data(), 4 * 100).isOk());
  for (uint32_t i = 0; i < 100; ++i)
    ASSERT_EQ(out[i], i + 1) << i;
  EXPECT_EQ(dev->copy(*a, 4 * n - 3, *a, 0, 4).code(), StatusCode::OutOfRange);
  EXPECT_EQ(dev->read(*a, ~0ull, out.data(), 2).code(), StatusCode::OutOfRange);
  EXPECT_EQ(dev->hostPointer(*a).status().code(),
            StatusCode::FailedPrecondition);
  EXPECT_EQ(dev->importHost(in.data(), 4).status().code(),
            StatusCode::Unimplemented);
  ASSERT_TRUE(dev->free(*a).isOk());
  EXPECT_EQ(dev->free(*a).code(), StatusCode::InvalidArgument);
  EXPECT_EQ(dev->bytesAllocated(), 0u);
}

/// Sets an environment variable for the test's scope and restores it.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    had_ = std::getenv(name) != nullptr;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::string old_;
  bool had_ = false;
};

/// Two devices of the test double, with 4096-byte staging buffers.
std::pair<std::unique_ptr<Device>, std::unique_ptr<Device>> twoFakeDevices() {
  auto a = openFakeCudaDevice(0, 4096, 0);
  auto b = openFakeCudaDevice(0, 4096, 1);
  EXPECT_TRUE(a.isOk()) << a.status().message();
  EXPECT_TRUE(b.isOk()) << b.status().message();
  if (!a.isOk() || !b.isOk())
    return {};
  return {std::move(*a), std::move(*b)};
}

TEST(CudaFakeDriver, CopiesBetweenTwoDevicesPeerOrStaged) {
  ScopedEnv devices("FUEL_FAKE_CUDA_DEVICES", "2");
  ScopedEnv peer("FUEL_FAKE_CUDA_PEER", nullptr);
  auto [d0, d1] = twoFakeDevices();
  ASSERT_TRUE(d0 && d1);
  auto &c0 = *static_cast<CudaDevice *>(d0.get());
  auto &c1 = *static_cast<CudaDevice *>(d1.get());
  // 12000 bytes: three pieces of the 4096-byte staging buffer.
  const uint64_t bytes = 12000;
  auto src = d0->allocate(bytes, 0);
  auto dst = d1->allocate(bytes, 0);
  ASSERT_TRUE(src.isOk() && dst.isOk());
  std::vector<uint8_t> pattern(bytes), zeros(bytes, 0);
  for (uint64_t i = 0; i < bytes; ++i)
    pattern[i] = uint8_t(i * 7 + 3);
  ASSERT_TRUE(d0->write(*src, 0, pattern.data(), bytes).isOk());

  // The reference by plain loops: bytes [8, bytes) of the destination take
  // bytes [4, bytes - 4) of the source, the first 8 stay zero.
  std::vector<uint8_t> want(bytes, 0);
  for (uint64_t i = 8; i < bytes; ++i)
    want[i] = pattern[i - 4];
  std::vector<uint8_t> got(bytes);
  for (bool allowPeer : {true, false}) {
    SCOPED_TRACE(allowPeer ? "peer" : "staged");
    ASSERT_TRUE(d1->write(*dst, 0, zeros.data(), bytes).isOk());
    auto path =
        copyBetweenCudaDevices(c0, *src, 4, c1, *dst, 8, bytes - 8, allowPeer);
    ASSERT_TRUE(path.isOk()) << path.status().message();
    EXPECT_EQ(*path, allowPeer ? CudaCopyPath::Peer : CudaCopyPath::Staged);
    ASSERT_TRUE(d1->read(*dst, 0, got.data(), bytes).isOk());
    EXPECT_EQ(got, want);
  }
  EXPECT_EQ(c1.counters().peerCopyBytes, bytes - 8);
  EXPECT_EQ(c1.counters().stagedCopyBytes, bytes - 8);
  EXPECT_EQ(c0.counters().peerCopyBytes, 0u);
  EXPECT_EQ(c0.counters().stagedCopyBytes, 0u);

  // The other way, peer access enabled for that pair too.
  ASSERT_TRUE(d0->write(*src, 0, zeros.data(), bytes).isOk());
  auto back = copyBetweenCudaDevices(c1, *dst, 8, c0, *src, 0, bytes - 8);
  ASSERT_TRUE(back.isOk()) << back.status().message();
  EXPECT_EQ(*back, CudaCopyPath::Peer);
  ASSERT_TRUE(d0->read(*src, 0, got.data(), bytes).isOk());
  for (uint64_t i = 0; i < bytes - 8; ++i)
    ASSERT_EQ(got[i], want[i + 8]) << i;

  // One device: copy().
  auto same = copyBetweenCudaDevices(c0, *src, 0, c0, *src, 100, 16);
  ASSERT_TRUE(same.isOk()) << same.status().message();
  EXPECT_EQ(*same, CudaCopyPath::SameDevice);

  // Errors name both devices and the side.
  auto unknown = copyBetweenCudaDevices(c0, *dst, 0, c1, *dst, 0, 4);
  ASSERT_FALSE(unknown.isOk());
  EXPECT_EQ(unknown.status().code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(contains(unknown.status().message(),
                       "copy cuda:0 -> cuda:1: source: buffer"))
      << unknown.status().message();
  auto outside = copyBetweenCudaDevices(c0, *src, 0, c1, *dst, 8, bytes);
  ASSERT_FALSE(outside.isOk());
  EXPECT_EQ(outside.status().code(), StatusCode::OutOfRange);
  EXPECT_TRUE(contains(outside.status().message(),
                       "copy cuda:0 -> cuda:1: destination: bytes [8, 8 + "
                       "12000) are outside a buffer of 12000 bytes"))
      << outside.status().message();
  EXPECT_TRUE(d0->free(*src).isOk());
  EXPECT_TRUE(d1->free(*dst).isOk());
}

TEST(CudaFakeDriver, CopiesBetweenDevicesWithoutPeerAccessAreStaged) {
  ScopedEnv devices("FUEL_FAKE_CUDA_DEVICES", "2");
  ScopedEnv peer("FUEL_FAKE_CUDA_PEER", "0");
  auto [d0, d1] = twoFakeDevices();
  ASSERT_TRUE(d0 && d1);
  auto &c0 = *static_cast<CudaDevice *>(d0.get());
  auto &c1 = *static_cast<CudaDevice *>(d1.get());
  const uint64_t bytes = 5000;
  auto src = d1->allocate(bytes, 0);
  auto dst = d0->allocate(bytes, 0);
  ASSERT_TRUE(src.isOk() && dst.isOk());
  std::vector<uint8_t> pattern(bytes), got(bytes);
  for (uint64_t i = 0; i < bytes; ++i)
    pattern[i] = uint8_t(255 - i % 251);
  ASSERT_TRUE(d1->write(*src, 0, pattern.data(), bytes).isOk());
  auto path = copyBetweenCudaDevices(c1, *src, 0, c0, *dst, 0, bytes);
  ASSERT_TRUE(path.isOk()) << path.status().message();
  EXPECT_EQ(*path, CudaCopyPath::Staged);
  ASSERT_TRUE(d0->read(*dst, 0, got.data(), bytes).isOk());
  EXPECT_EQ(got, pattern);
  EXPECT_EQ(c0.counters().peerCopyBytes, 0u);
  EXPECT_EQ(c0.counters().stagedCopyBytes, bytes);
}

TEST(CudaFakeDriver, QueueCopiesRunInOrderWithFencesAndTimes) {
  auto dev = fakeDevice();
  ASSERT_TRUE(dev);
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk()) << q.status().message();
  Buffer b = *dev->allocate(64, 0);
  uint32_t words[16];
  std::iota(words, words + 16, 100u);
  ASSERT_TRUE(dev->write(b, 0, words, 64).isOk());
  // A chain through one buffer: only in submission order is the end right.
  CommandTiming t[3];
  Command c0 = Command::copy(b, 0, b, 4, 8); // [100 100 101 ...]
  Command c1 = Command::copy(b, 4, b, 0, 4); // [100 ...]
  Command c2 = Command::copy(b, 0, b, 32, 12);
  c0.timing = &t[0];
  c1.timing = &t[1];
  c2.timing = &t[2];
  auto f0 = (*q)->submit(c0);
  auto f1 = (*q)->submit(c1);
  auto f2 = (*q)->submit(c2);
  ASSERT_TRUE(f0.isOk() && f1.isOk() && f2.isOk());
  EXPECT_EQ(f2->value, 3u);
  EXPECT_TRUE((*q)->isSignalled(*f1));
  ASSERT_TRUE((*q)->wait(*f2).isOk());
  uint32_t got[16];
  ASSERT_TRUE(dev->read(b, 0, got, 64).isOk());
  EXPECT_EQ(got[0], 100u);
  EXPECT_EQ(got[1], 100u);
  EXPECT_EQ(got[2], 101u);
  EXPECT_EQ(got[8], 100u);
  EXPECT_EQ(got[9], 100u);
  EXPECT_EQ(got[10], 101u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_GT(t[i].startNs, 0u);
    EXPECT_LE(t[i].startNs, t[i].endNs);
  }
  EXPECT_LE(t[0].startNs, t[2].startNs);
  // Another queue's fence is waited for; a foreign fence is refused.
  auto q2 = dev->createQueue();
  ASSERT_TRUE(q2.isOk());
  Fence waits[1] = {*f2};
  auto after = (*q2)->submit(Command::copy(b, 32, b, 48, 4), waits, 1);
  ASSERT_TRUE(after.isOk()) << after.status().message();
  ASSERT_TRUE((*q2)->wait(*after).isOk());
  EXPECT_EQ((*q2)->wait(*f2).code(), StatusCode::InvalidArgument);
  EXPECT_EQ((*q)->wait(Fence{q->get(), 99}).code(),
            StatusCode::InvalidArgument);
  EXPECT_EQ((*q)->submit(Command::copy(b, 60, b, 0, 8)).status().code(),
            StatusCode::OutOfRange);
}

TEST(CudaFakeDriver, FreedBufferFailsItsCommandAndLaterFences) {
  auto dev = fakeDevice();
  ASSERT_TRUE(dev);
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  Buffer keep = *dev->allocate(8, 0), doomed = *dev->allocate(8, 0);
  auto ok = (*q)->submit(Command::copy(keep, 0, keep, 4, 4));
  auto bad = (*q)->submit(Command::copy(doomed, 0, keep, 0, 4));
  auto later = (*q)->submit(Command::copy(keep, 0, keep, 4, 4));
  ASSERT_TRUE(ok.isOk() && bad.isOk() && later.isOk());
  ASSERT_TRUE(dev->free(doomed).isOk());
  EXPECT_TRUE((*q)->wait(*ok).isOk());
  Status s = (*q)->wait(*bad);
  EXPECT_EQ(s.code(), StatusCode::FailedPrecondition);
  EXPECT_TRUE(contains(s.message(), "freed")) << s.message();
  EXPECT_EQ((*q)->wait(*later).code(), StatusCode::FailedPrecondition);
  EXPECT_TRUE((*q)->isSignalled(*later));
  EXPECT_EQ((*q)->finish().code(), StatusCode::FailedPrecondition);
}

TEST(CudaFakeDriver, ModulesFromPtx) {
  auto dev = fakeDevice();
  ASSERT_TRUE(dev);
  auto m = dev->loadModule(tinyImage(kTinyPtx));
  ASSERT_TRUE(m.isOk()) << m.status().message();
  ASSERT_EQ(m->kernels.size(), 1u);
  // The entry's parameters are checked: k takes (u64, u32).
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  Buffer b = *dev->allocate(16, 0);
  Binding binding{b, 0, 16};
  uint32_t push[2] = {1, 2};
  auto tooMany = (*q)->submit(
      Command::dispatch(m->kernels[0], 1, 1, 1, &binding, 1, push, 2));
  EXPECT_TRUE(contains(tooMany.status().message(), "takes 2 parameters"))
      << tooMany.status().message();
  auto twoBindings = (*q)->submit(
      Command::dispatch(m->kernels[0], 1, 1, 1,
                        std::vector<Binding>{binding, binding}.data(), 2));
  EXPECT_TRUE(contains(twoBindings.status().message(), "not a 64-bit address"))
      << twoBindings.status().message();
  EXPECT_EQ((*q)->submit(Command::dispatch(m->kernels[0], 0, 1, 1, &binding, 1,
                                           push, 1))
                .status()
                .code(),
            StatusCode::InvalidArgument);
  // The double refuses launches: the failure reaches the fence.
  auto f = (*q)->submit(
      Command::dispatch(m->kernels[0], 2, 1, 1, &binding, 1, push, 1));
  ASSERT_TRUE(f.isOk()) << f.status().message();
  Status s = (*q)->wait(*f);
  EXPECT_EQ(s.code(), StatusCode::Unimplemented);
  EXPECT_TRUE(contains(s.message(), "cuLaunchKernel failed with 801"))
      << s.message();
  EXPECT_TRUE(dev->unloadModule(*m).isOk());
  EXPECT_EQ(dev->unloadModule(*m).code(), StatusCode::InvalidArgument);

  // The JIT's error log is in the message.
  std::string jit = std::string(kTinyPtx) + "// fake-jit-error\n";
  auto bad = dev->loadModule(tinyImage(jit.c_str()));
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(contains(bad.status().message(), "218 (CUDA_ERROR_INVALID_PTX)"))
      << bad.status().message();
  EXPECT_TRUE(contains(bad.status().message(),
                       "JIT error log:\nptxas application ptx input, line 3"))
      << bad.status().message();
  // Checked before the driver sees it.
  EXPECT_TRUE(contains(
      dev->loadModule(tinyImage(kTinyPtx, "missing")).status().message(),
      "no .entry 'missing'"));
  ModuleImage big = tinyImage(kTinyPtx);
  big.layouts[0].workgroupSize[0] = 2048;
  EXPECT_TRUE(contains(dev->loadModule(big).status().message(),
                       "outside the device's limits"));
  ModuleImage noLayout = tinyImage(kTinyPtx);
  noLayout.layouts.clear();
  EXPECT_EQ(dev->loadModule(noLayout).status().code(),
            StatusCode::InvalidArgument);
  // The conformance kernels load.
  auto k = loadCudaKernels(*dev);
  EXPECT_TRUE(k.isOk()) << k.status().message();
}

/// Row-major reference C = op(A) op(B) by plain loops.
std::vector<float> referenceGemm(const std::vector<float> &a,
                                 const std::vector<float> &b, int m, int n,
                                 int k, bool ta, bool tb) {
  std::vector<float> c(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p)
        s += double(ta ? a[size_t(p) * m + i] : a[size_t(i) * k + p]) *
             (tb ? b[size_t(j) * k + p] : b[size_t(p) * n + j]);
      c[size_t(i) * n + j] = float(s);
    }
  return c;
}

std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(int(i * 7 % 13) - 6) * scale;
  return v;
}

TEST(CudaFakeDriver, CublasGemmsMatchARowMajorReference) {
  auto dev = fakeDevice();
  ASSERT_TRUE(dev);
  auto *cuda = static_cast<CudaDevice *>(dev.get());
  auto lib = cuda->loadLibrary("cublas",
                               {kCublasSgemmEntry, kCublasSgemmBatchedEntry});
  ASSERT_TRUE(lib.isOk()) << lib.status().message();
  ASSERT_TRUE(dev->reserveWorkspace(1 << 20).isOk());
  auto q = dev->createQueue();
  ASSERT_TRUE(q.isOk());
  const int m = 5, n = 3, k = 4, batch = 3;
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      auto av = ramp(size_t(m) * k, 0.5f), bv = ramp(size_t(k) * n, 0.25f);
      Buffer a = *dev->allocate(4 * av.size(), 0);
      Buffer b = *dev->allocate(4 * bv.size(), 0);
      Buffer c = *dev->allocate(4 * m * n, 0);
      ASSERT_TRUE(dev->write(a, 0, av.data(), 4 * av.size()).isOk());
      ASSERT_TRUE(dev->write(b, 0, bv.data(), 4 * bv.size()).isOk());
      Binding bind[3] = {
          {a, 0, 4 * av.size()}, {b, 0, 4 * bv.size()}, {c, 0, 4u * m * n}};
      uint32_t params[8] = {m,
                            n,
                            k,
                            uint32_t(ta ? m : k),
                            uint32_t(tb ? k : n),
                            n,
                            uint32_t(ta),
                            uint32_t(tb)};
      Command cmd =
          Command::dispatch(lib->kernels[0], 1, 1, 1, bind, 3, params, 8);
      cmd.workspaceBytes = 1 << 20;
      auto f = (*q)->submit(cmd);
      ASSERT_TRUE(f.isOk()) << f.status().message();
      ASSERT_TRUE((*q)->wait(*f).isOk());
      std::vector<float> got(size_t(m) * n);
      ASSERT_TRUE(dev->read(c, 0, got.data(), 4 * got.size()).isOk());
      EXPECT_EQ(got, referenceGemm(av, bv, m, n, k, ta, tb))
          << "transA " << ta << " transB " << tb;
      for (Buffer x : {a, b, c})
        ASSERT_TRUE(dev->free(x).isOk());
    }
  // Strided batched, every entry its own product.
  auto av = ramp(size_t(batch) * m * k, 1.0f),
       bv = ramp(size_t(batch) * k * n, 2.0f);
  Buffer a = *dev->allocate(4 * av.size(), 0);
  Buffer b = *dev->allocate(4 * bv.size(), 0);
  Buffer c = *dev->allocate(4 * batch * m * n, 0);
  ASSERT_TRUE(dev->write(a, 0, av.data(), 4 * av.size()).isOk());
  ASSERT_TRUE(dev->write(b, 0, bv.data(), 4 * bv.size()).isOk());
  Binding bind[3] = {
      {a, 0, 4 * av.size()}, {b, 0, 4 * bv.size()}, {c, 0, 4u * batch * m * n}};
  uint32_t params[12] = {batch, m, n, k, k, n, n, m * k, k * n, m * n, 0, 0};
  auto f = (*q)->submit(
      Command::dispatch(lib->kernels[1], batch, 1, 1, bind, 3, params, 12));
  ASSERT_TRUE(f.isOk()) << f.status().message();
  ASSERT_TRUE((*q)->wait(*f).isOk());
  std::vector<float> got(size_t(batch) * m * n);
  ASSERT_TRUE(dev->read(c, 0, got.data(), 4 * got.size()).isOk());
  for (int i = 0; i < batch; ++i) {
    std::vector<float> ai(av.begin() + i * m * k, av.begin() + (i + 1) * m * k);
    std::vector<float> bi(bv.begin() + i * k * n, bv.begin() + (i + 1) * k * n);
    std::vector<float> want = referenceGemm(ai, bi, m, n, k, false, false);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin() + i * m * n))
        << "batch entry " << i;
  }
  EXPECT_EQ(cuda->counters().libraryCalls, 5u);
  // The workspace reserved reached cublasSetWorkspace.
  void *h =
      dlopen(FUEL_FAKE_CUBLAS_DIR "/libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_TRUE(h);
  auto *ws = static_cast<size_t *>(dlsym(h, "fuelFakeCublasWorkspaceBytes"));
  ASSERT_TRUE(ws);
  EXPECT_EQ(*ws, size_t(1) << 20);
  dlclose(h);
  // A binding too small for the gemm is refused at submit.
  Binding small[3] = {{a, 0, 4}, {b, 0, 4 * bv.size()}, {c, 0, 4}};
  EXPECT_EQ((*q)->submit(Command::dispatch(lib->kernels[1], batch, 1, 1, small,
                                           3, params, 12))
                .status()
                .code(),
            StatusCode::OutOfRange);
}

TEST(CudaFakeDriver, LibraryRefusals) {
  auto dev = fakeDevice();
  ASSERT_TRUE(dev);
  auto *cuda = static_cast<CudaDevice *>(dev.get());
  EXPECT_TRUE(contains(cuda->loadLibrary("openblas", {}).status().message(),
                       "no library 'openblas'"));
  EXPECT_TRUE(contains(cuda->loadLibrary("cublas", {"fuel_shim_cublas_dgemm"})
                           .status()
                           .message(),
                       "no entry 'fuel_shim_cublas_dgemm'"));
  CudaDeviceOptions o;
  o.driverLibrary = FUEL_FAKE_CUDA_DRIVER_PATH;
  o.cublasSearchPath = FUEL_TEST_BINARY_DIR "/no-such-cublas-dir";
  // Not found anywhere only when the loader's default has no cuBLAS either.
  auto other = openCudaDevice(0, o);
  ASSERT_TRUE(other.isOk());
  auto r = static_cast<CudaDevice *>(other->get())
               ->loadLibrary("cublas", {kCublasSgemmEntry});
  if (!r.isOk()) {
    EXPECT_EQ(r.status().code(), StatusCode::Unavailable);
    EXPECT_TRUE(contains(r.status().message(), "no-such-cublas-dir"))
        << r.status().message();
  }
}

} // namespace
