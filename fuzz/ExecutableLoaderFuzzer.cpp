//===- ExecutableLoaderFuzzer.cpp - libFuzzer target for the loader -------===//
//
// Feeds arbitrary bytes to Executable::loadUnowned. The loader must refuse
// or accept every input without a crash, a sanitizer report or a leak, and
// whatever it accepts must pass verifyProgram again. Checksums make random
// bytes fail early, so the fuzzer also reseals what it is given: with the
// first input byte odd, the header and metadata checksums are recomputed,
// which lets mutations reach the FlatBuffers verifier and the meaning
// checks.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "fuel/Runtime/Checksum.h"
#include "fuel/Runtime/Executable.h"
#include "fuel/Runtime/ExecutableFormat.h"

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace fuel::rt;
namespace fmt = fuel::rt::format;

namespace {

/// Recomputes the metadata and segment checksums and the header's, where
/// the numbers that locate them lie within the file.
void reseal(uint8_t *f, size_t size) {
  if (size < fmt::kFixedHeaderSize)
    return;
  uint64_t off = fmt::readU64(f + fmt::kMetadataOffsetOffset);
  uint64_t len = fmt::readU64(f + fmt::kMetadataSizeOffset);
  if (off <= size && len <= size - off)
    fmt::writeU64(f + fmt::kMetadataChecksumOffset, xxh64(f + off, len));
  uint64_t count = fmt::readU32(f + fmt::kSegmentCountOffset);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t entry = fmt::kFixedHeaderSize + fmt::kSegmentEntrySize * i;
    if (entry + fmt::kSegmentEntrySize > size)
      break;
    uint64_t so = fmt::readU64(f + entry + fmt::kSegmentOffsetOffset);
    uint64_t ss = fmt::readU64(f + entry + fmt::kSegmentSizeOffset);
    if (so <= size && ss <= size - so)
      fmt::writeU64(f + entry + fmt::kSegmentChecksumOffset, xxh64(f + so, ss));
  }
  fmt::resealHeader(f, size);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The loader needs 64-byte aligned bytes; the mutation flag is the last
  // byte so that the file itself keeps its first bytes (the magic).
  bool doReseal = size > 0 && (data[size - 1] & 1);
  size_t fileSize = doReseal ? size - 1 : size;
  void *copy = std::aligned_alloc(64, (fileSize + 63) / 64 * 64 + 64);
  if (!copy)
    return 0;
  if (fileSize)
    std::memcpy(copy, data, fileSize);
  if (doReseal)
    reseal(static_cast<uint8_t *>(copy), fileSize);

  LoadOptions options;
  options.hostCpuFeatures = std::vector<std::string>{"avx2", "fma", "sse2"};
  auto exe = Executable::loadUnowned(copy, fileSize, options);
  if (exe.isOk()) {
    Status again = verifyProgram((*exe)->program(), options);
    if (!again.isOk())
      fuel::fuzz::fuzzFail("executable-loader",
                           "an accepted executable fails verifyProgram: " +
                               again.message());
  } else if (exe.status().message().empty()) {
    fuel::fuzz::fuzzFail("executable-loader", "a refusal without a message");
  } else {
    fuel::fuzz::fuzzNoteRefusal("executable-loader", exe.status().message());
  }
  exe = Status::error(StatusCode::Internal, "released");
  std::free(copy);
  return 0;
}
