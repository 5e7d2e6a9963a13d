//===- ExecutableFormat.h - The byte layout of fuel executables -*- C++ -*-===//
//
// The fixed little-endian header and segment table of a fuel executable, as
// docs/EXECUTABLE-FORMAT.md describes them. The writer and loader use these
// definitions; tools and tests use them to inspect or deliberately damage a
// file.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_EXECUTABLEFORMAT_H
#define FUEL_RUNTIME_EXECUTABLEFORMAT_H

#include <cstddef>
#include <cstdint>

namespace fuel::rt::format {

/// The first eight bytes of every fuel executable.
inline constexpr char kMagic[8] = {'F', 'U', 'E', 'L', 'E', 'X', 'E', 'C'};

/// Byte offsets of the header's fields. All integers are little-endian.
enum HeaderField : size_t {
  kMagicOffset = 0,             ///< char[8], kMagic.
  kHeaderChecksumOffset = 8,    ///< u64, XXH64 of bytes [16, header size).
  kFormatVersionOffset = 16,    ///< u32.
  kHeaderSizeOffset = 20,       ///< u32, 64 + 32 x segment count.
  kFileSizeOffset = 24,         ///< u64, the file's exact length.
  kMetadataOffsetOffset = 32,   ///< u64, 16-aligned, right after the header.
  kMetadataSizeOffset = 40,     ///< u64.
  kMetadataChecksumOffset = 48, ///< u64, XXH64 of the metadata bytes.
  kSegmentCountOffset = 56,     ///< u32.
  kFlagsOffset = 60,            ///< u32, zero in version 1.
  kFixedHeaderSize = 64,        ///< The segment table starts here.
};

/// One segment table entry: 32 bytes at 64 + 32 x i.
enum SegmentField : size_t {
  kSegmentOffsetOffset = 0,    ///< u64, from the start of the file.
  kSegmentSizeOffset = 8,      ///< u64.
  kSegmentChecksumOffset = 16, ///< u64, XXH64 of the segment's bytes.
  kSegmentKindOffset = 24,     ///< u32, SegmentKind.
  kSegmentReservedOffset = 28, ///< u32, zero.
  kSegmentEntrySize = 32,
};

/// What a segment holds; its alignment follows from it.
enum class SegmentKind : uint32_t {
  KernelModule = 1, ///< 64-byte aligned.
  Constant = 2,     ///< Page (4096-byte) aligned.
};

inline constexpr uint64_t kMetadataAlignment = 16;
inline constexpr uint64_t kModuleAlignment = 64;
inline constexpr uint64_t kConstantAlignment = 4096;

/// The alignment of a segment of `kind` (0 for an unknown kind).
inline uint64_t segmentAlignment(SegmentKind kind) {
  switch (kind) {
  case SegmentKind::KernelModule:
    return kModuleAlignment;
  case SegmentKind::Constant:
    return kConstantAlignment;
  }
  return 0;
}

inline uint32_t readU32(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
         uint32_t(p[3]) << 24;
}
inline uint64_t readU64(const uint8_t *p) {
  return uint64_t(readU32(p)) | uint64_t(readU32(p + 4)) << 32;
}
inline void writeU32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    p[i] = uint8_t(v >> (8 * i));
}
inline void writeU64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    p[i] = uint8_t(v >> (8 * i));
}

/// Recomputes the header checksum of the file at `bytes` (whose header size
/// field must lie within `size`), after a deliberate edit of the header.
/// Returns false when the header is too short to hold one.
bool resealHeader(uint8_t *bytes, size_t size);

} // namespace fuel::rt::format

#endif // FUEL_RUNTIME_EXECUTABLEFORMAT_H
