//===- ExecutableTest.cpp - Tests of the executable writer and loader -----===//
//
// Writer -> loader round trips, writer determinism, and every class of bad
// file the loader must refuse with a message naming the section or field:
// truncation, byte flips in every part of the file, wrong magic, future
// versions, out-of-range indices, bindings past their buffers, forward
// dependencies, missing CPU features and devices, sizes beyond the file,
// and shape x dtype mismatches.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Executable.h"
#include "fuel/Runtime/Checksum.h"
#include "fuel/Runtime/ExecutableFormat.h"
#include "fuel/Runtime/ExecutableWriter.h"
#include "fuel/Runtime/Ptx.h"
#include "fuel/Runtime/SpirV.h"

#include "fuel-c/KernelABI.h"

#include "../SpirVTestModule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <unistd.h>

using namespace fuel;
using namespace fuel::rt;
namespace fmt = fuel::rt::format;

namespace {

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<uint8_t>(seed + i * 31 + (i >> 7));
  return v;
}

ByteSpan span(const std::vector<uint8_t> &v) { return {v.data(), v.size()}; }

CommandReport report(int64_t node, const char *op, const char *kernel,
                     const char *source, uint64_t ns) {
  CommandReport r;
  r.nodeId = node;
  r.opKind = op;
  r.kernelId = kernel;
  r.source = source;
  r.revision = 0x9c1e47a2d0b3f811ull + node;
  r.predictedNs = ns;
  return r;
}

/// A small but complete plan: a CPU matmul reading a constant, a copy to
/// vulkan:0, a SPIR-V dispatch there, a copy back and a library kernel.
/// Indices: devices cpu=0, vulkan=1; buffers 0 x, 1 y, 2 w, 3..5 arenas.
void buildExample(ExecutableWriter &w) {
  static const std::vector<uint8_t> elf = pattern(3000, 7);
  static const std::vector<uint8_t> spirv =
      test::spirvModule({"other", "main"});
  static const std::vector<uint8_t> weights = pattern(5000, 11);
  w.setFuelVersion("fuel 0.1.0");
  w.setHashes(0x1111222233334444ull, 0x5555666677778888ull);
  w.setFunction("layer");
  CpuTarget target;
  target.triple = "x86_64-unknown-linux-gnu";
  target.cpu = "skylake";
  target.features = {"avx2", "fma"};
  w.setCpuTarget(target);
  uint32_t cpu = w.addDevice(Device::cpu(), 1 << 16);
  uint32_t gpu = w.addDevice(Device::vulkan(0), 1 << 20, 256);
  w.addModule(cpu, ModuleFormat::ElfSharedObject,
              {{"matmul_f32_k0", 4096, {}, {}}, {"relu_f32_k1", 0, {}, {}}},
              span(elf));
  w.addModule(gpu, ModuleFormat::SpirV,
              {{"main", 0, {64, 1, 1}, {{0, 0}, {0, 1}}}}, span(spirv));
  LibraryKernel lib;
  lib.device = cpu;
  lib.kernelId = "cpu.openblas.matmul_f32";
  lib.shim = "libfuel-shim-openblas.so";
  lib.entry = "fuel_shim_sgemm";
  lib.params = {64, 256, 512, -1};
  lib.workspaceBytes = 128;
  w.addLibraryKernel(lib);
  uint32_t wc = w.addConstant("w", span(weights));

  w.addInput("x", ElementType::F32, {16, 20}, cpu);  // buffer 0, 1280 bytes
  w.addOutput("y", ElementType::F32, {16, 20}, cpu); // buffer 1
  BufferSpec wb;
  wb.kind = BufferKind::Constant;
  wb.device = cpu;
  wb.size = weights.size();
  wb.index = wc;
  uint32_t wbuf = w.addBuffer(wb);                      // 2
  uint32_t t0 = w.addArenaBuffer(cpu, 1280, 0);         // 3
  uint32_t t1 = w.addArenaBuffer(gpu, 1280, 0, 256);    // 4
  uint32_t t2 = w.addArenaBuffer(gpu, 1280, 1536, 256); // 5

  Dispatch mm;
  mm.module = 0;
  mm.kernel = 0;
  mm.grid = {4, 2, 1};
  mm.bindings = {{0, 0, 1280}, {wbuf, 0, 5000}, {t0, 0, 1280}};
  mm.pushConstants = {16, 20};
  uint32_t c0 = w.addDispatch(
      mm, {},
      report(3, "matmul", "cpu.generated.matmul_f32", "generated", 1200));
  uint32_t c1 = w.addCopy({t0, 0, t1, 0, 1280}, {c0},
                          report(-1, "copy", "", "copy", 300));
  Dispatch relu;
  relu.module = 1;
  relu.kernel = 0;
  relu.grid = {5, 1, 1};
  relu.bindings = {{t1, 0, 1280}, {t2, 0, 1280}};
  uint32_t c2 = w.addDispatch(
      relu, {c1},
      report(4, "relu", "vulkan.generated.relu_f32", "generated", 900));
  uint32_t c3 =
      w.addCopy({t2, 0, 1, 0, 1280}, {c2}, report(-1, "copy", "", "copy", 300));
  Dispatch blas;
  blas.source = KernelSource::Library;
  blas.kernel = 0;
  blas.grid = {2, 1, 1};
  blas.bindings = {{1, 0, 640}, {wbuf, 64, 640}};
  w.addDispatch(
      blas, {c3, c0},
      report(5, "matmul", "cpu.openblas.matmul_f32", "library", 5000));
}

std::vector<uint8_t> exampleBytes() {
  ExecutableWriter w;
  buildExample(w);
  auto bytes = w.finish();
  EXPECT_TRUE(bytes.isOk()) << bytes.status().toString();
  return bytes.isOk() ? *bytes : std::vector<uint8_t>();
}

LoadOptions hostWith(std::vector<std::string> features = {"avx2", "fma",
                                                          "sse2"}) {
  LoadOptions o;
  o.hostCpuFeatures = std::move(features);
  return o;
}

Status load(const std::vector<uint8_t> &bytes,
            const LoadOptions &options = hostWith()) {
  auto exe = Executable::loadBytes(bytes.data(), bytes.size(), options);
  return exe.status();
}

/// Expects a refusal whose message starts with or contains `field`.
void expectRefused(const std::vector<uint8_t> &bytes, const std::string &field,
                   const LoadOptions &options = hostWith()) {
  Status s = load(bytes, options);
  ASSERT_FALSE(s.isOk()) << "accepted; expected an error naming " << field;
  EXPECT_NE(s.message().find(field), std::string::npos)
      << "message: " << s.message() << "\nexpected it to name: " << field;
}

/// The example, edited by `edit` and written without the writer's checks.
std::vector<uint8_t> editedBytes(void (*edit)(Program &)) {
  ExecutableWriter w;
  buildExample(w);
  edit(w.program());
  WriteOptions o;
  o.verify = false;
  auto bytes = w.finish(o);
  EXPECT_TRUE(bytes.isOk());
  return *bytes;
}

uint64_t metadataEnd(const std::vector<uint8_t> &f) {
  return fmt::readU64(f.data() + fmt::kMetadataOffsetOffset) +
         fmt::readU64(f.data() + fmt::kMetadataSizeOffset);
}

size_t segmentCount(const std::vector<uint8_t> &f) {
  return fmt::readU32(f.data() + fmt::kSegmentCountOffset);
}

uint8_t *segmentEntry(std::vector<uint8_t> &f, size_t i) {
  return f.data() + fmt::kFixedHeaderSize + fmt::kSegmentEntrySize * i;
}

/// The file offset of segment table entry i.
size_t segmentAt(size_t i) {
  return fmt::kFixedHeaderSize + fmt::kSegmentEntrySize * i;
}

/// Little-endian stores into a file, bounds-checked.
void put32(std::vector<uint8_t> &f, size_t at, uint32_t v) {
  ASSERT_LE(at + 4, f.size());
  fmt::writeU32(&f.at(at), v);
}
void put64(std::vector<uint8_t> &f, size_t at, uint64_t v) {
  ASSERT_LE(at + 8, f.size());
  fmt::writeU64(&f.at(at), v);
}

//===----------------------------------------------------------------------===//
// The checksum
//===----------------------------------------------------------------------===//

TEST(ChecksumTest, Xxh64Vectors) {
  // Reference values of the xxHash implementation.
  EXPECT_EQ(xxh64("", 0), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(xxh64("a", 1), 0xD24EC4F1A98C6E5Bull);
  EXPECT_EQ(xxh64("abc", 3), 0x44BC2CF5AD770999ull);
  EXPECT_EQ(xxh64("xxhash", 6), 0x32DD38952C4BC720ull);
  EXPECT_EQ(xxh64("xxhash", 6, 20141025), 0xB559B98D844E0635ull);
  const char *longer = "Nobody inspects the spammish repetition"; // > 32 bytes
  EXPECT_EQ(xxh64(longer, std::strlen(longer)), 0xFBCEA83C8A378BF1ull);
}

TEST(ChecksumTest, EveryBitMatters) {
  std::vector<uint8_t> data = pattern(100, 3);
  uint64_t base = xxh64(data.data(), data.size());
  for (size_t i = 0; i < data.size(); ++i)
    for (int b = 0; b < 8; ++b) {
      data[i] ^= uint8_t(1u << b);
      EXPECT_NE(xxh64(data.data(), data.size()), base) << i << ":" << b;
      data[i] ^= uint8_t(1u << b);
    }
}

//===----------------------------------------------------------------------===//
// Round trips and layout
//===----------------------------------------------------------------------===//

TEST(ExecutableTest, RoundTripFromBytes) {
  ExecutableWriter w;
  buildExample(w);
  auto bytes = w.finish();
  ASSERT_TRUE(bytes.isOk()) << bytes.status().toString();
  auto exe = Executable::loadBytes(bytes->data(), bytes->size(), hostWith());
  ASSERT_TRUE(exe.isOk()) << exe.status().toString();
  const Program &p = (*exe)->program();
  EXPECT_EQ(p, w.program());
  EXPECT_EQ(p.kernelAbiVersion, FUEL_KERNEL_ABI_VERSION);
  EXPECT_EQ(p.formatVersion, kExecutableFormatVersion);
  EXPECT_EQ(p.function, "layer");
  EXPECT_EQ(p.devices[1].device, Device::vulkan(0));
  EXPECT_EQ(p.modules[1].kernels[0].workgroupSize,
            (std::vector<uint32_t>{64, 1, 1}));
  EXPECT_EQ(p.libraryKernels[0].params,
            (std::vector<int64_t>{64, 256, 512, -1}));
  EXPECT_EQ(p.commands[4].report.kernelId, "cpu.openblas.matmul_f32");
  EXPECT_EQ(p.commands[4].dependencies, (std::vector<uint32_t>{3, 0}));
  EXPECT_EQ(dispatchDevice(p, p.commands[0].dispatch), 0u);
  EXPECT_EQ(dispatchDevice(p, p.commands[2].dispatch), 1u);
  EXPECT_EQ(dispatchDevice(p, p.commands[4].dispatch), 0u);
}

TEST(ExecutableTest, SegmentsAreAlignedViewsIntoTheFile) {
  std::vector<uint8_t> bytes = exampleBytes();
  auto exe = Executable::loadBytes(bytes.data(), bytes.size(), hostWith());
  ASSERT_TRUE(exe.isOk()) << exe.status().toString();
  ByteSpan file = (*exe)->bytes();
  const Program &p = (*exe)->program();
  auto inside = [&](ByteSpan s) {
    return s.data >= file.data && s.data + s.size <= file.data + file.size;
  };
  for (const KernelModule &m : p.modules) {
    EXPECT_TRUE(inside(m.image));
    EXPECT_EQ((m.image.data - file.data) % fmt::kModuleAlignment, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(m.image.data) % 64, 0u);
  }
  ASSERT_EQ(p.constants.size(), 1u);
  EXPECT_TRUE(inside(p.constants[0].data));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p.constants[0].data.data) % 4096, 0u);
  EXPECT_EQ(p.constants[0].data, span(pattern(5000, 11)));
}

TEST(ExecutableTest, LoadFileMapsTheFile) {
  std::vector<uint8_t> bytes = exampleBytes();
  std::string path = ::testing::TempDir() + "fuel-exe-test-XXXXXX";
  int fd = ::mkstemp(path.data());
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, bytes.data(), bytes.size()),
            static_cast<ssize_t>(bytes.size()));
  ::close(fd);
  auto exe = Executable::loadFile(path, hostWith());
  ASSERT_TRUE(exe.isOk()) << exe.status().toString();
  ExecutableWriter w;
  buildExample(w);
  EXPECT_EQ((*exe)->program(), w.program());
  EXPECT_EQ((*exe)->bytes(), span(bytes));

  // A damaged file on disk: the message names the path and the section.
  bytes[bytes.size() - 1] ^= 0x40;
  fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, bytes.data(), bytes.size()),
            static_cast<ssize_t>(bytes.size()));
  ::close(fd);
  auto bad = Executable::loadFile(path, hostWith());
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find(path), std::string::npos);
  EXPECT_NE(bad.status().message().find("segments[2]: checksum mismatch"),
            std::string::npos)
      << bad.status().message();
  ::unlink(path.c_str());
}

TEST(ExecutableTest, LoadFileErrors) {
  auto missing = Executable::loadFile("no-such-dir/model.fuelx");
  ASSERT_FALSE(missing.isOk());
  EXPECT_NE(missing.status().message().find("no-such-dir/model.fuelx"),
            std::string::npos);
  std::string path = ::testing::TempDir() + "fuel-exe-empty-XXXXXX";
  int fd = ::mkstemp(path.data());
  ASSERT_GE(fd, 0);
  ::close(fd);
  auto empty = Executable::loadFile(path);
  ASSERT_FALSE(empty.isOk());
  EXPECT_EQ(empty.status().code(), StatusCode::DataLoss);
  EXPECT_NE(empty.status().message().find("header"), std::string::npos);
  ::unlink(path.c_str());
}

TEST(ExecutableTest, LoadUnownedBorrowsAlignedBytes) {
  std::vector<uint8_t> bytes = exampleBytes();
  void *aligned = std::aligned_alloc(4096, (bytes.size() + 4095) / 4096 * 4096);
  std::memcpy(aligned, bytes.data(), bytes.size());
  {
    auto exe = Executable::loadUnowned(aligned, bytes.size(), hostWith());
    ASSERT_TRUE(exe.isOk()) << exe.status().toString();
    EXPECT_EQ((*exe)->bytes().data, aligned);
    auto off = Executable::loadUnowned(static_cast<uint8_t *>(aligned) + 8,
                                       bytes.size() - 8, hostWith());
    ASSERT_FALSE(off.isOk());
    EXPECT_NE(off.status().message().find("aligned"), std::string::npos);
  }
  std::free(aligned);
}

TEST(ExecutableTest, EmptyProgramRoundTrips) {
  ExecutableWriter w;
  auto bytes = w.finish();
  ASSERT_TRUE(bytes.isOk()) << bytes.status().toString();
  auto exe = Executable::loadBytes(bytes->data(), bytes->size(), hostWith({}));
  ASSERT_TRUE(exe.isOk()) << exe.status().toString();
  EXPECT_EQ((*exe)->program(), w.program());
}

TEST(ExecutableTest, RankZeroTensorsRoundTrip) {
  // A rank-0 tensor's shape is an empty vector of 8-byte elements, which the
  // FlatBuffers builder aligns only for its 4-byte length; with one to four
  // of them every placement of such a vector occurs and each must load.
  for (int n = 1; n <= 4; ++n) {
    ExecutableWriter w;
    uint32_t cpu = w.addDevice(Device::cpu(), 1 << 12);
    for (int i = 0; i < n; ++i)
      w.addInput("x" + std::to_string(i), ElementType::F32, {}, cpu);
    w.addOutput("y", ElementType::F32, {}, cpu);
    w.addOutput("z", ElementType::I64, {1}, cpu);
    w.addCopy({0, 0, static_cast<uint32_t>(n), 0, 4}, {},
              report(-1, "copy", "", "copy", 10));
    auto bytes = w.finish();
    ASSERT_TRUE(bytes.isOk()) << bytes.status().toString();
    auto exe =
        Executable::loadBytes(bytes->data(), bytes->size(), hostWith({}));
    ASSERT_TRUE(exe.isOk()) << n << ": " << exe.status().toString();
    const Program &p = (*exe)->program();
    EXPECT_EQ(p, w.program());
    ASSERT_EQ(p.inputs.size(), static_cast<size_t>(n));
    for (const TensorSpec &t : p.inputs) {
      EXPECT_TRUE(t.shape.empty());
      EXPECT_EQ(p.buffers[t.buffer].size, 4u);
    }
    EXPECT_TRUE(p.outputs[0].shape.empty());
    EXPECT_EQ(p.outputs[1].shape, (std::vector<int64_t>{1}));
  }
}

TEST(ExecutableWriterTest, Deterministic) {
  std::vector<uint8_t> a = exampleBytes();
  std::vector<uint8_t> b = exampleBytes();
  EXPECT_EQ(a, b);
  ExecutableWriter w;
  buildExample(w);
  auto first = w.finish();
  auto second = w.finish();
  ASSERT_TRUE(first.isOk() && second.isOk());
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(*first, a);
  // A different plan hash changes the bytes.
  w.setHashes(1, 2);
  auto third = w.finish();
  ASSERT_TRUE(third.isOk());
  EXPECT_NE(*third, a);
}

TEST(ExecutableWriterTest, BytesAreStable) {
  // The example's bytes, the same with clang and g++. A change here changes
  // what every compiler writes: make it on purpose, with the format version
  // bumped if old readers would misread the new bytes
  // (docs/EXECUTABLE-FORMAT.md, "Versioning"). Last changed when the
  // example's SPIR-V module became one the loader reads.
  std::vector<uint8_t> b = exampleBytes();
  EXPECT_EQ(b.size(), 13192u);
  EXPECT_EQ(xxh64(b.data(), b.size()), 0xd53ac12a5fcbf6e6ull);
}

TEST(ExecutableWriterTest, RefusesInvalidPrograms) {
  ExecutableWriter w;
  buildExample(w);
  w.program().commands[0].dependencies = {2};
  auto bytes = w.finish();
  ASSERT_FALSE(bytes.isOk());
  EXPECT_NE(bytes.status().message().find("commands[0].dependencies[0]"),
            std::string::npos)
      << bytes.status().message();
}

//===----------------------------------------------------------------------===//
// The container: truncation, flips, magic, versions, sizes
//===----------------------------------------------------------------------===//

TEST(ExecutableLoaderTest, RefusesEveryTruncation) {
  std::vector<uint8_t> bytes = exampleBytes();
  uint64_t end = metadataEnd(bytes);
  ASSERT_GT(bytes.size(), end);
  auto check = [&](size_t length) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + length);
    Status s = load(cut);
    ASSERT_FALSE(s.isOk()) << "accepted a file cut to " << length;
    EXPECT_EQ(s.code(), StatusCode::DataLoss) << length << ": " << s.message();
    EXPECT_TRUE(s.message().rfind("header", 0) == 0) << s.message();
  };
  for (size_t length = 0; length <= end; ++length)
    check(length);
  for (size_t length = end + 1; length < bytes.size(); length += 61)
    check(length);
  check(bytes.size() - 1);
  // And a file with bytes appended.
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  expectRefused(longer, "header.file_size");
}

TEST(ExecutableLoaderTest, RefusesEveryByteFlip) {
  // Every byte of the file is covered: the header by its checksum, the
  // metadata and segments by theirs, the padding by being zero.
  std::vector<uint8_t> bytes = exampleBytes();
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] ^= 0x01;
    Status s = load(bytes);
    EXPECT_FALSE(s.isOk()) << "accepted a flip at byte " << i;
    bytes[i] ^= 0x01;
  }
  EXPECT_TRUE(load(bytes).isOk());
}

TEST(ExecutableLoaderTest, RandomFlipsNameTheirSection) {
  std::vector<uint8_t> bytes = exampleBytes();
  std::mt19937_64 rng(20261201);
  struct Region {
    uint64_t begin, end;
    std::string section;
  };
  std::vector<Region> regions;
  uint64_t headerSize = fmt::readU32(bytes.data() + fmt::kHeaderSizeOffset);
  regions.push_back({fmt::kFormatVersionOffset + 4, headerSize, "header"});
  regions.push_back({fmt::readU64(bytes.data() + fmt::kMetadataOffsetOffset),
                     metadataEnd(bytes), "metadata: checksum mismatch"});
  for (size_t i = 0; i < segmentCount(bytes); ++i) {
    uint64_t off = fmt::readU64(segmentEntry(bytes, i));
    uint64_t size = fmt::readU64(segmentEntry(bytes, i) + 8);
    regions.push_back(
        {off, off + size,
         "segments[" + std::to_string(i) + "]: checksum mismatch"});
  }
  ASSERT_EQ(regions.size(), 5u);
  for (const Region &r : regions)
    for (int trial = 0; trial < 200; ++trial) {
      uint64_t at = r.begin + rng() % (r.end - r.begin);
      uint8_t bit = uint8_t(1u << (rng() % 8));
      bytes[at] ^= bit;
      Status s = load(bytes);
      ASSERT_FALSE(s.isOk()) << r.section << " byte " << at;
      EXPECT_NE(s.message().find(r.section), std::string::npos)
          << "byte " << at << ": " << s.message();
      bytes[at] ^= bit;
    }
}

TEST(ExecutableLoaderTest, RefusesForeignFiles) {
  std::vector<uint8_t> bytes = exampleBytes();
  std::memcpy(bytes.data(),
              "\x7f"
              "ELF\x02\x01\x01\x00",
              8);
  Status s = load(bytes);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::InvalidArgument);
  EXPECT_NE(s.message().find("header.magic"), std::string::npos);
  std::vector<uint8_t> text(200, 'x');
  expectRefused(text, "header.magic");
}

TEST(ExecutableLoaderTest, RefusesFutureVersions) {
  std::vector<uint8_t> bytes = exampleBytes();
  put32(bytes, fmt::kFormatVersionOffset, kExecutableFormatVersion + 1);
  ASSERT_TRUE(fmt::resealHeader(bytes.data(), bytes.size()));
  Status s = load(bytes);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::Unimplemented);
  EXPECT_NE(s.message().find("header.format_version"), std::string::npos);
  EXPECT_NE(s.message().find("newer"), std::string::npos);
  // Even when the rest of a future header is not understood.
  put32(bytes, fmt::kHeaderSizeOffset, 0xFFFFFFFFu);
  expectRefused(bytes, "header.format_version");
  put32(bytes, fmt::kFormatVersionOffset, 0);
  expectRefused(bytes, "header.format_version");
}

TEST(ExecutableLoaderTest, RefusesVersionDisagreement) {
  std::vector<uint8_t> bytes =
      editedBytes([](Program &p) { p.formatVersion = 0; });
  expectRefused(bytes, "metadata.format_version");
}

TEST(ExecutableLoaderTest, RefusesSizesLargerThanTheFile) {
  std::vector<uint8_t> good = exampleBytes();
  {
    std::vector<uint8_t> b = good;
    put64(b, segmentAt(2) + fmt::kSegmentSizeOffset, 1ull << 40);
    fmt::resealHeader(b.data(), b.size());
    expectRefused(b, "segments[2].size");
  }
  {
    std::vector<uint8_t> b = good;
    put64(b, segmentAt(0) + fmt::kSegmentSizeOffset, UINT64_MAX);
    fmt::resealHeader(b.data(), b.size());
    expectRefused(b, "segments[0].size");
  }
  {
    std::vector<uint8_t> b = good;
    put64(b, segmentAt(1) + fmt::kSegmentOffsetOffset, UINT64_MAX - 63);
    fmt::resealHeader(b.data(), b.size());
    expectRefused(b, "segments[1].offset");
  }
  {
    std::vector<uint8_t> b = good;
    put64(b, fmt::kMetadataSizeOffset, UINT64_MAX - 8);
    fmt::resealHeader(b.data(), b.size());
    expectRefused(b, "header.metadata_size");
  }
  {
    std::vector<uint8_t> b = good;
    put64(b, fmt::kFileSizeOffset, b.size() * 2);
    fmt::resealHeader(b.data(), b.size());
    expectRefused(b, "header.file_size");
  }
  {
    // A segment count far beyond the file.
    std::vector<uint8_t> b = good;
    put32(b, fmt::kSegmentCountOffset, 0x7FFFFFFF);
    expectRefused(b, "header.header_size");
  }
  {
    std::vector<uint8_t> b = good;
    put32(b, segmentAt(0) + fmt::kSegmentKindOffset, 9);
    fmt::resealHeader(b.data(), b.size());
    expectRefused(b, "segments[0].kind");
  }
}

/// Recomputes the metadata checksum and the header's after an edit.
void resealMetadata(std::vector<uint8_t> &b) {
  uint64_t begin = fmt::readU64(b.data() + fmt::kMetadataOffsetOffset);
  put64(b, fmt::kMetadataChecksumOffset,
        xxh64(b.data() + begin, metadataEnd(b) - begin));
  fmt::resealHeader(b.data(), b.size());
}

TEST(ExecutableLoaderTest, RefusesForeignMetadataBehindValidChecksums) {
  std::vector<uint8_t> b = exampleBytes();
  uint64_t begin = fmt::readU64(b.data() + fmt::kMetadataOffsetOffset);
  std::memcpy(b.data() + begin + 4, "TFL3", 4); // another schema's identifier
  resealMetadata(b);
  expectRefused(b, "metadata: file identifier is not \"FUEL\"");

  // The identifier right but the tables broken: the root offset points
  // past the end of the metadata.
  b = exampleBytes();
  put32(b, begin, 0x7FFFFFF0u);
  resealMetadata(b);
  expectRefused(b, "metadata: the FlatBuffers verifier rejects it");
}

TEST(ExecutableLoaderTest, MetadataDamageBehindAValidChecksumNeverCrashes) {
  // Flip metadata bytes and fix the checksums, so that the FlatBuffers
  // verifier and the meaning checks see the damage. A flip may land in a
  // harmless place (a name); whatever loads must still verify.
  std::vector<uint8_t> bytes = exampleBytes();
  uint64_t begin = fmt::readU64(bytes.data() + fmt::kMetadataOffsetOffset);
  uint64_t end = metadataEnd(bytes);
  size_t refused = 0;
  for (uint64_t i = begin; i < end; ++i) {
    for (uint8_t bit : {uint8_t(0x01), uint8_t(0x80)}) {
      std::vector<uint8_t> b = bytes;
      b[i] ^= bit;
      put64(b, fmt::kMetadataChecksumOffset,
            xxh64(b.data() + begin, end - begin));
      fmt::resealHeader(b.data(), b.size());
      auto exe = Executable::loadBytes(b.data(), b.size(), hostWith());
      if (!exe.isOk()) {
        ++refused;
        EXPECT_FALSE(exe.status().message().empty());
      } else {
        EXPECT_TRUE(verifyProgram((*exe)->program(), hostWith()).isOk());
      }
    }
  }
  EXPECT_GT(refused, (end - begin) / 4);
}

TEST(ExecutableLoaderTest, RefusesMisalignedShapeVectors) {
  // Move the reference to inputs[0].shape four bytes on, past its length:
  // the FlatBuffers verifier accepts the vector there (a length of 2 and 16
  // bytes in bounds) but its 8-byte elements are misaligned.
  std::vector<uint8_t> b =
      editedBytes([](Program &p) { p.inputs[0].shape = {2, 160}; });
  uint64_t begin = fmt::readU64(b.data() + fmt::kMetadataOffsetOffset);
  uint64_t end = metadataEnd(b);
  const uint8_t needle[20] = {2, 0, 0,   0, 2, 0, 0, 0, 0, 0,
                              0, 0, 160, 0, 0, 0, 0, 0, 0, 0};
  auto at = std::search(b.begin() + begin, b.begin() + end, needle,
                        needle + sizeof(needle));
  ASSERT_NE(at, b.begin() + end);
  uint64_t length = static_cast<uint64_t>(at - b.begin());
  ASSERT_EQ((length - begin) % 8, 4u);
  size_t references = 0;
  for (uint64_t q = begin; q + 4 <= length; q += 4) {
    if (q + fmt::readU32(b.data() + q) != length)
      continue;
    put32(b, q, fmt::readU32(b.data() + q) + 4);
    ++references;
  }
  ASSERT_EQ(references, 1u);
  resealMetadata(b);
  expectRefused(b, "inputs[0].shape: misaligned vector");
}

//===----------------------------------------------------------------------===//
// Meaning
//===----------------------------------------------------------------------===//

TEST(ExecutableLoaderTest, RefusesOutOfRangeIndices) {
  expectRefused(
      editedBytes([](Program &p) { p.commands[0].dispatch.module = 9; }),
      "commands[0].module: 9 is not an index into modules");
  expectRefused(
      editedBytes([](Program &p) { p.commands[0].dispatch.kernel = 2; }),
      "commands[0].kernel: 2 is not an index into modules[0].kernels");
  expectRefused(
      editedBytes([](Program &p) { p.commands[4].dispatch.kernel = 1; }),
      "commands[4].kernel: 1 is not an index into library_kernels");
  expectRefused(
      editedBytes(
          [](Program &p) { p.commands[0].dispatch.bindings[1].buffer = 6; }),
      "commands[0].bindings[1].buffer: 6 is not an index into buffers");
  expectRefused(editedBytes([](Program &p) { p.commands[1].copy.dst = 99; }),
                "commands[1].dst: 99");
  expectRefused(editedBytes([](Program &p) { p.buffers[3].device = 2; }),
                "buffers[3].device: 2 is not an index into devices");
  expectRefused(editedBytes([](Program &p) { p.inputs[0].buffer = 40; }),
                "inputs[0].buffer: 40");
  expectRefused(editedBytes([](Program &p) { p.outputs[0].residency = 5; }),
                "outputs[0].residency");
  expectRefused(editedBytes([](Program &p) { p.buffers[2].index = 1; }),
                "buffers[2].index: 1 is not an index into constants");
  expectRefused(editedBytes([](Program &p) { p.modules[1].device = 7; }),
                "modules[1].device");
  expectRefused(
      editedBytes([](Program &p) { p.libraryKernels[0].device = 1; }),
      "library_kernels[0].device: library kernels run on the cpu or a "
      "cuda device");
}

TEST(ExecutableLoaderTest, RefusesBindingsPastTheirBuffers) {
  expectRefused(
      editedBytes(
          [](Program &p) { p.commands[0].dispatch.bindings[0].length = 1281; }),
      "commands[0].bindings[0]: bytes [0, 0 + 1281) lie outside buffer 0");
  expectRefused(editedBytes([](Program &p) {
                  p.commands[0].dispatch.bindings[2].offset = UINT64_MAX;
                }),
                "commands[0].bindings[2]");
  expectRefused(
      editedBytes([](Program &p) { p.commands[1].copy.srcOffset = 8; }),
      "commands[1].src");
  expectRefused(editedBytes([](Program &p) { p.buffers[5].offset = 1 << 20; }),
                "buffers[5]: slot");
  expectRefused(editedBytes([](Program &p) { p.buffers[5].offset = 100; }),
                "buffers[5].offset");
  // A binding to a buffer on another device.
  expectRefused(
      editedBytes(
          [](Program &p) { p.commands[0].dispatch.bindings[2].buffer = 4; }),
      "commands[0].bindings[2].buffer: buffer 4 is not on the kernel's device");
}

TEST(ExecutableLoaderTest, RefusesForwardDependencies) {
  expectRefused(
      editedBytes([](Program &p) { p.commands[1].dependencies = {0, 3}; }),
      "commands[1].dependencies[1]: command 3 is not an earlier command");
  expectRefused(
      editedBytes([](Program &p) { p.commands[2].dependencies = {2}; }),
      "commands[2].dependencies[0]: command 2");
}

TEST(ExecutableLoaderTest, RefusesShapeDtypeMismatch) {
  expectRefused(
      editedBytes([](Program &p) { p.inputs[0].shape = {16, 21}; }),
      "inputs[0]: shape x dtype is 1344 bytes but buffer 0 holds 1280");
  expectRefused(
      editedBytes([](Program &p) { p.outputs[0].dtype = ElementType::F16; }),
      "outputs[0]: shape x dtype is 640 bytes");
  expectRefused(editedBytes([](Program &p) { p.inputs[0].shape = {-16, -20}; }),
                "inputs[0].shape[0]: negative dimension");
  expectRefused(editedBytes([](Program &p) {
                  p.inputs[0].shape = {1ll << 40, 1ll << 40};
                }),
                "inputs[0].shape: byte size overflows");
  expectRefused(editedBytes([](Program &p) { p.buffers[2].size = 4999; }),
                "buffers[2].size: 4999 bytes but constant 0 has 5000");
}

TEST(ExecutableLoaderTest, RefusesMissingCpuFeatures) {
  std::vector<uint8_t> bytes = exampleBytes();
  Status s = load(bytes, hostWith({"sse2", "fma"}));
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::FailedPrecondition);
  EXPECT_EQ(s.message(),
            "cpu_target.features: this CPU lacks avx2 (compiled for skylake)");
  // Not checked when asked not to.
  LoadOptions o = hostWith({});
  o.checkCpuFeatures = false;
  EXPECT_TRUE(load(bytes, o).isOk());
}

TEST(ExecutableLoaderTest, HostCpuFeaturesAreRead) {
  std::vector<std::string> features = hostCpuFeatures();
#if defined(__x86_64__)
  EXPECT_NE(std::find(features.begin(), features.end(), "sse2"),
            features.end());
#endif
  EXPECT_TRUE(std::is_sorted(features.begin(), features.end()));
}

TEST(ExecutableLoaderTest, RefusesMissingDevicesAndTooLittleMemory) {
  std::vector<uint8_t> bytes = exampleBytes();
  LoadOptions o = hostWith();
  o.availableDevices = std::vector<AvailableDevice>{{Device::cpu(), 0}};
  Status s = load(bytes, o);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::FailedPrecondition);
  EXPECT_EQ(s.message(),
            "devices[1]: vulkan:0 is not available on this machine");

  o.availableDevices = std::vector<AvailableDevice>{{Device::cpu(), 70000},
                                                    {Device::vulkan(0), 0}};
  s = load(bytes, o);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::ResourceExhausted);
  // The 65536-byte arena, the 5000-byte constant and the largest workspace
  // (4096 bytes) once per worker.
  EXPECT_EQ(s.message(), "devices[0]: needs 74632 bytes, cpu has 70000");
  o.workerThreads = 4;
  s = load(bytes, o);
  EXPECT_EQ(s.message(), "devices[0]: needs 86920 bytes, cpu has 70000");

  o.availableDevices = std::vector<AvailableDevice>{
      {Device::vulkan(0), 1 << 20}, {Device::cpu(), 86920}};
  EXPECT_TRUE(load(bytes, o).isOk());
  o.workerThreads = 5;
  EXPECT_FALSE(load(bytes, o).isOk());
}

TEST(ExecutableLoaderTest, RefusesOtherKernelAbiVersions) {
  std::vector<uint8_t> bytes = editedBytes(
      [](Program &p) { p.kernelAbiVersion = FUEL_KERNEL_ABI_VERSION + 1; });
  Status s = load(bytes);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.code(), StatusCode::FailedPrecondition);
  EXPECT_NE(s.message().find("metadata.kernel_abi_version"), std::string::npos);
}

TEST(ExecutableLoaderTest, RefusesMeaninglessStructure) {
  expectRefused(
      editedBytes([](Program &p) { p.commands[0].dispatch.grid[1] = 0; }),
      "commands[0].grid[1]: a grid dimension of 0");
  expectRefused(
      editedBytes([](Program &p) { p.modules[1].format = ModuleFormat::Ptx; }),
      "modules[1].format: not the module format of a vulkan device");
  expectRefused(editedBytes([](Program &p) { p.modules[1].device = 0; }),
                "modules[1].device: device 0 already has module 0");
  expectRefused(
      editedBytes([](Program &p) { p.devices[1].device = Device::cpu(); }),
      "devices[1]: cpu is listed twice");
  expectRefused(
      editedBytes([](Program &p) { p.devices[0].arenaAlignment = 48; }),
      "devices[0].arena_alignment");
  expectRefused(editedBytes([](Program &p) { p.commands[1].copy.dst = 0; }),
                "commands[1].dst: buffer 0 is read-only");
  expectRefused(editedBytes([](Program &p) {
                  p.modules[0].kernels[0].workgroupSize = {1, 1, 1};
                }),
                "modules[0].kernels[0].workgroup_size");
  expectRefused(editedBytes([](Program &p) {
                  p.buffers[0].index = 0;
                  p.inputs[0].buffer = 1;
                }),
                "inputs[0].buffer: buffer 1 is not bound to inputs[0]");
}

//===----------------------------------------------------------------------===//
// The Vulkan segment: SPIR-V words, entry points, layouts
//===----------------------------------------------------------------------===//

/// The example with its SPIR-V module's image replaced by `image`.
std::vector<uint8_t> withSpirV(const std::vector<uint8_t> &image) {
  static std::vector<uint8_t> kept;
  kept = image;
  return editedBytes([](Program &p) { p.modules[1].image = span(kept); });
}

TEST(SpirVReaderTest, ReadsEntryPoints) {
  std::vector<uint8_t> m = test::spirvModule({"a", "abcd", "vadd_f32"});
  auto eps = readSpirVEntryPoints(m.data(), m.size());
  ASSERT_TRUE(eps.isOk()) << eps.status().toString();
  ASSERT_EQ(eps->size(), 3u);
  EXPECT_EQ((*eps)[0].name, "a");
  EXPECT_EQ((*eps)[1].name, "abcd"); // a 4-character name takes 2 words
  EXPECT_EQ((*eps)[2].name, "vadd_f32");
  EXPECT_EQ((*eps)[2].executionModel, kSpirVGLCompute);
}

TEST(SpirVReaderTest, EveryTruncationIsRefusedOrReadsFewerEntryPoints) {
  std::vector<uint8_t> m = test::spirvModule({"main", "second"});
  for (size_t n = 0; n < m.size(); ++n) {
    auto eps = readSpirVEntryPoints(m.data(), n);
    if (eps.isOk()) {
      EXPECT_LT(eps->size(), 2u) << n;
    }
  }
}

TEST(SpirVReaderTest, GarbageNeverCrashes) {
  std::mt19937 rng(15);
  for (int t = 0; t < 2000; ++t) {
    std::vector<uint8_t> m = test::spirvModule({"main"});
    size_t flips = 1 + rng() % 4;
    for (size_t f = 0; f < flips; ++f)
      m[kSpirVHeaderWords * 4 + rng() % (m.size() - kSpirVHeaderWords * 4)] =
          uint8_t(rng());
    (void)readSpirVEntryPoints(m.data(), m.size());
  }
}

TEST(ExecutableLoaderTest, RefusesBadSpirVSizes) {
  std::vector<uint8_t> m = test::spirvModule({"main"});
  std::vector<uint8_t> odd(m.begin(), m.end() - 1);
  expectRefused(withSpirV(odd), "modules[1].image: the SPIR-V module is " +
                                    std::to_string(odd.size()) +
                                    " bytes, not a multiple of 4");
  expectRefused(withSpirV(std::vector<uint8_t>(m.begin(), m.begin() + 12)),
                "modules[1].image: the SPIR-V module is 12 bytes, shorter "
                "than the 20-byte header");
  // The entry point's instruction cut off: it runs past the end.
  expectRefused(withSpirV(std::vector<uint8_t>(m.begin(), m.end() - 4)),
                "modules[1].image: word 10: instruction (opcode 15) of 5 words "
                "runs past the end");
}

TEST(ExecutableLoaderTest, RefusesBadSpirVMagic) {
  std::vector<uint8_t> m = test::spirvModule({"main"});
  m[0] ^= 0xff;
  expectRefused(withSpirV(m), "modules[1].image: word 0 is 0x072302fc, not "
                              "the SPIR-V magic number 0x07230203");
  std::vector<uint8_t> big = test::spirvModule({"main"});
  std::reverse(big.begin(), big.begin() + 4);
  expectRefused(withSpirV(big), "(a big-endian module");
  std::vector<uint8_t> zeroCount = test::spirvModule({"main"});
  std::memset(&zeroCount[20], 0, 4);
  expectRefused(withSpirV(zeroCount),
                "word 5: an instruction with a word count of 0");
  std::vector<uint8_t> unterminated = test::spirvModule({"mai"});
  unterminated.back() = 'n';
  expectRefused(withSpirV(unterminated), "name is not NUL-terminated");
}

TEST(ExecutableLoaderTest, RefusesUnknownEntryPoints) {
  expectRefused(withSpirV(test::spirvModule({"vadd", "scale"})),
                "modules[1].kernels[0].symbol: 'main' is not an OpEntryPoint "
                "GLCompute of the SPIR-V module (it has 'vadd', 'scale')");
  // An entry point of another execution model (Vertex) does not count.
  expectRefused(withSpirV(test::spirvModule({"main"}, 0)),
                "'main' is not an OpEntryPoint GLCompute of the SPIR-V module "
                "(it has none)");
  expectRefused(editedBytes([](Program &p) {
                  p.modules[1].kernels.push_back(p.modules[1].kernels[0]);
                }),
                "modules[1].kernels[1].symbol: 'main' is already kernels[0]");
}

TEST(ExecutableLoaderTest, RefusesBadLaunchLayouts) {
  expectRefused(editedBytes([](Program &p) {
                  p.modules[1].kernels[0].workgroupSize = {64, 1};
                }),
                "modules[1].kernels[0].workgroup_size: must have 3 entries");
  expectRefused(editedBytes([](Program &p) {
                  p.modules[1].kernels[0].workgroupSize = {64, 0, 1};
                }),
                "modules[1].kernels[0].workgroup_size[1]: a workgroup "
                "dimension of 0");
  expectRefused(editedBytes([](Program &p) {
                  p.modules[1].kernels[0].bindingLayout = {{0, 1}, {0, 1}};
                }),
                "modules[1].kernels[0].binding_layout[1]: (set 0, binding 1) "
                "is already binding_layout[0]");
  expectRefused(editedBytes([](Program &p) {
                  p.modules[1].kernels[0].bindingLayout.push_back({1, 0});
                }),
                "commands[2].bindings: 2 bindings, but kernel 'main' has a "
                "binding_layout of 3");
  expectRefused(editedBytes([](Program &p) {
                  p.commands[2].dispatch.bindings.pop_back();
                }),
                "commands[2].bindings: 1 bindings, but kernel 'main' has a "
                "binding_layout of 2");
  expectRefused(editedBytes([](Program &p) {
                  p.modules[0].kernels[0].bindingLayout = {{0, 0}};
                }),
                "modules[0].kernels[0].binding_layout: only SPIR-V kernels");
}

} // namespace
namespace {

//===----------------------------------------------------------------------===//
// The text form
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// The CUDA segment: PTX text, entries, block sizes
//===----------------------------------------------------------------------===//

/// PTX text as convert-fuel-to-nvvm writes it, with `entries` as kernels,
/// and the NUL byte the segment ends in.
std::vector<uint8_t> ptxModule(const std::vector<std::string> &entries,
                               const std::string &target = "sm_90") {
  std::string text = "//\n// Generated by LLVM NVPTX Back-End\n//\n\n"
                     ".version 8.0\n.target " +
                     target + "\n.address_size 64\n\n";
  for (const std::string &e : entries)
    text += "\t// .globl\t" + e + "\n.visible .entry " + e +
            "(\n\t.param .u64 " + e + "_param_0\n)\n{\n\tret;\n\n}\n";
  std::vector<uint8_t> bytes(text.begin(), text.end());
  bytes.push_back(0);
  return bytes;
}

/// The example with vulkan:0 made cuda:0 and its module PTX `image`.
std::vector<uint8_t> withPtx(const std::vector<uint8_t> &image) {
  static std::vector<uint8_t> kept;
  kept = image;
  return editedBytes([](Program &p) {
    p.devices[1].device = Device::cuda(0);
    p.modules[1].format = ModuleFormat::Ptx;
    p.modules[1].image = span(kept);
    p.modules[1].kernels[0].bindingLayout.clear();
  });
}

TEST(PtxReaderTest, ReadsVersionTargetAndEntries) {
  std::vector<uint8_t> m = ptxModule({"matmul_0", "softmax_1"}, "sm_80");
  StatusOr<PtxModuleInfo> info = readPtxModule(m.data(), m.size());
  ASSERT_TRUE(info.isOk()) << info.status().toString();
  EXPECT_EQ(info->version, "8.0");
  EXPECT_EQ(info->target, "sm_80");
  ASSERT_EQ(info->entries.size(), 2u);
  EXPECT_EQ(info->entries[0], "matmul_0");
  EXPECT_EQ(info->entries[1], "softmax_1");
  // Comments and strings do not declare entries.
  std::string commented = ".version 8.0\n.target sm_90\n// .entry ghost(\n"
                          "/* .entry ghost2( */\n";
  std::vector<uint8_t> c(commented.begin(), commented.end());
  c.push_back(0);
  info = readPtxModule(c.data(), c.size());
  ASSERT_TRUE(info.isOk()) << info.status().toString();
  EXPECT_TRUE(info->entries.empty());
}

TEST(PtxReaderTest, GarbageNeverCrashes) {
  std::mt19937 rng(16);
  for (int t = 0; t < 2000; ++t) {
    std::vector<uint8_t> m = ptxModule({"main"});
    size_t flips = 1 + rng() % 4;
    for (size_t f = 0; f < flips; ++f)
      m[rng() % m.size()] = uint8_t(rng());
    (void)readPtxModule(m.data(), m.size());
    (void)readPtxModule(m.data(), rng() % (m.size() + 1));
  }
}

TEST(ExecutableLoaderTest, AcceptsACudaSegment) {
  Status s = load(withPtx(ptxModule({"other", "main"})));
  EXPECT_TRUE(s.isOk()) << s.toString();
}

TEST(ExecutableLoaderTest, RefusesBadPtx) {
  std::vector<uint8_t> m = ptxModule({"main"});
  std::vector<uint8_t> unterminated(m.begin(), m.end() - 1);
  expectRefused(withPtx(unterminated), "modules[1].image: the PTX text of " +
                                           std::to_string(unterminated.size()) +
                                           " bytes does not end in a NUL byte");
  std::vector<uint8_t> inner = m;
  inner[3] = 0;
  expectRefused(withPtx(inner),
                "modules[1].image: a NUL byte at offset 3 inside the PTX text");
  std::vector<uint8_t> binary = m;
  binary[4] = 0xc3;
  expectRefused(withPtx(binary),
                "modules[1].image: byte 195 at offset 4 is not PTX text");
  std::string noTarget = ".version 8.0\n.entry main()\n{\n}\n";
  std::vector<uint8_t> nt(noTarget.begin(), noTarget.end());
  nt.push_back(0);
  expectRefused(withPtx(nt),
                "modules[1].image: the PTX text has no .target directive");
}

TEST(ExecutableLoaderTest, RefusesUnknownPtxEntriesAndHugeBlocks) {
  expectRefused(withPtx(ptxModule({"vadd", "scale"})),
                "modules[1].kernels[0].symbol: 'main' is not an .entry of the "
                "PTX module (it has 'vadd', 'scale')");
  static std::vector<uint8_t> kept;
  kept = ptxModule({"main"});
  expectRefused(editedBytes([](Program &p) {
                  p.devices[1].device = Device::cuda(0);
                  p.modules[1].format = ModuleFormat::Ptx;
                  p.modules[1].image = span(kept);
                  p.modules[1].kernels[0].bindingLayout.clear();
                  p.modules[1].kernels[0].workgroupSize = {64, 32, 1};
                }),
                "modules[1].kernels[0].workgroup_size: a block of 2048 threads "
                "(CUDA allows at most 1024)");
  expectRefused(editedBytes([](Program &p) {
                  p.devices[1].device = Device::cuda(0);
                  p.modules[1].format = ModuleFormat::Ptx;
                  p.modules[1].image = span(kept);
                }),
                "modules[1].kernels[0].binding_layout: only SPIR-V kernels "
                "have one");
}

TEST(DescribeTest, ExampleAsText) {
  std::vector<uint8_t> bytes = exampleBytes();
  auto exe = Executable::loadBytes(bytes.data(), bytes.size(), hostWith());
  ASSERT_TRUE(exe.isOk()) << exe.status().toString();
  const char *expected = R"(executable format 1 fuel "fuel 0.1.0" kernel_abi 1
function "layer" topology_hash 0x1111222233334444 plan_hash 0x5555666677778888
cpu_target "x86_64-unknown-linux-gnu" "skylake" +avx2 +fma
devices 2
  [0] cpu arena 65536 align 64
  [1] vulkan:0 arena 1048576 align 256
modules 2
  [0] cpu elf 3000 bytes, 2 kernels
    kernel [0] "matmul_f32_k0" workspace 4096
    kernel [1] "relu_f32_k1" workspace 0
  [1] vulkan:0 spirv 80 bytes, 1 kernels
    entry points "other" "main"
    kernel [0] "main" workspace 0 workgroup [64, 1, 1] (set 0, binding 0) (set 0, binding 1)
library_kernels 1
  [0] cpu "cpu.openblas.matmul_f32" shim "libfuel-shim-openblas.so" entry "fuel_shim_sgemm" params [64, 256, 512, -1] workspace 128
constants 1
  [0] "w" 5000 bytes
buffers 6
  [0] cpu input 0 size 1280 align 64
  [1] cpu output 0 size 1280 align 64
  [2] cpu constant 0 size 5000 align 64
  [3] cpu arena offset 0 size 1280 align 64
  [4] vulkan:0 arena offset 0 size 1280 align 256
  [5] vulkan:0 arena offset 1536 size 1280 align 256
inputs 1
  [0] "x" 16x20xf32 on cpu buffer 0
outputs 1
  [0] "y" 16x20xf32 on cpu buffer 1
commands 5
  [0] dispatch module 0 kernel 0 on cpu grid 4x2x1 b0[0+1280] b2[0+5000] b3[0+1280] push [16, 20] | node 3 "matmul" "cpu.generated.matmul_f32" "generated" revision 0x9c1e47a2d0b3f814 predicted 1200 ns
  [1] copy b3[0+1280] -> b4[0+1280] 1280 bytes after [0] | node -1 "copy" "" "copy" revision 0x9c1e47a2d0b3f810 predicted 300 ns
  [2] dispatch module 1 kernel 0 on vulkan:0 grid 5x1x1 b4[0+1280] b5[0+1280] after [1] | node 4 "relu" "vulkan.generated.relu_f32" "generated" revision 0x9c1e47a2d0b3f815 predicted 900 ns
  [3] copy b5[0+1280] -> b1[0+1280] 1280 bytes after [2] | node -1 "copy" "" "copy" revision 0x9c1e47a2d0b3f810 predicted 300 ns
  [4] dispatch library 0 on cpu grid 2x1x1 b1[0+640] b2[64+640] after [3, 0] | node 5 "matmul" "cpu.openblas.matmul_f32" "library" revision 0x9c1e47a2d0b3f816 predicted 5000 ns
)";
  EXPECT_EQ(describeProgram((*exe)->program()), expected);
}

TEST(DescribeTest, UnverifiedIndicesPrint) {
  Program p;
  p.buffers.push_back({BufferKind::Arena, 3, 16, 64, 0, 0});
  CommandSpec c;
  c.dispatch.module = 7;
  p.commands.push_back(c);
  std::string text = describeProgram(p);
  EXPECT_NE(text.find("  [0] device#3 arena offset 0 size 16 align 64\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  [0] dispatch module 7 kernel 0 grid 1x1x1 | node -1"),
            std::string::npos)
      << text;
}

TEST(DescribeTest, NamesAreEscapedOnOneLine) {
  // An input's name comes from the file (an ONNX model's input names are
  // any string): quotes and backslashes are escaped, control and non-ASCII
  // bytes printed as \xNN, so an entry stays one line that parses back.
  Program p;
  p.function = "f";
  TensorSpec t;
  t.name = "a\"b\\c\nd\xc3\xa9";
  p.inputs.push_back(t);
  std::string text = describeProgram(p);
  EXPECT_NE(text.find("\"a\\\"b\\\\c\\x0ad\\xc3\\xa9\""), std::string::npos)
      << text;
  EXPECT_EQ(text.find("c\nd"), std::string::npos) << text;
}

} // namespace
