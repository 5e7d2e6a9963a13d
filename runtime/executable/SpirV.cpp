//===- SpirV.cpp - A bounded reader of SPIR-V module headers --------------===//
//
// Reads the OpEntryPoint instructions of a SPIR-V module word by word. Every
// word count is checked against the words left before it is used, so the
// walk is linear in the module's size and never reads past its end.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/SpirV.h"

#include <cstdio>
#include <cstring>

namespace fuel::rt {

namespace {

constexpr uint32_t kOpEntryPoint = 15;

uint32_t wordAt(const uint8_t *bytes, size_t i) {
  uint32_t w;
  std::memcpy(&w, bytes + 4 * i, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap32(w);
#endif
  return w;
}

std::string hex32(uint32_t v) {
  char buf[11];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

Status bad(const std::string &what) {
  return Status::error(StatusCode::InvalidArgument, what);
}

} // namespace

StatusOr<std::vector<SpirVEntryPoint>> readSpirVEntryPoints(const void *data,
                                                            size_t size) {
  if (size == 0)
    return bad("the SPIR-V module is empty");
  if (size % 4 != 0)
    return bad("the SPIR-V module is " + std::to_string(size) +
               " bytes, not a multiple of 4 (truncated?)");
  const auto *bytes = static_cast<const uint8_t *>(data);
  size_t words = size / 4;
  if (words < kSpirVHeaderWords)
    return bad("the SPIR-V module is " + std::to_string(size) +
               " bytes, shorter than the 20-byte header");
  uint32_t magic = wordAt(bytes, 0);
  if (magic != kSpirVMagic)
    return bad("word 0 is " + hex32(magic) + ", not the SPIR-V magic number " +
               hex32(kSpirVMagic) +
               (magic == __builtin_bswap32(kSpirVMagic)
                    ? " (a big-endian module; fuel reads little-endian ones)"
                    : ""));
  std::vector<SpirVEntryPoint> entries;
  size_t i = kSpirVHeaderWords;
  while (i < words) {
    uint32_t first = wordAt(bytes, i);
    uint32_t count = first >> 16, opcode = first & 0xffff;
    if (count == 0)
      return bad("word " + std::to_string(i) +
                 ": an instruction with a word count of 0");
    if (count > words - i)
      return bad("word " + std::to_string(i) + ": instruction (opcode " +
                 std::to_string(opcode) + ") of " + std::to_string(count) +
                 " words runs past the end of the " + std::to_string(words) +
                 "-word module");
    if (opcode == kOpEntryPoint) {
      // OpEntryPoint ExecutionModel %function "name" %interface...
      if (count < 4)
        return bad("word " + std::to_string(i) + ": OpEntryPoint of " +
                   std::to_string(count) + " words, fewer than 4");
      SpirVEntryPoint e;
      e.executionModel = wordAt(bytes, i + 1);
      const char *name = reinterpret_cast<const char *>(bytes + 4 * (i + 3));
      size_t maxLen = 4 * (count - 3);
      size_t len = strnlen(name, maxLen);
      if (len == maxLen)
        return bad("word " + std::to_string(i) +
                   ": OpEntryPoint name is not NUL-terminated within the "
                   "instruction");
      e.name.assign(name, len);
      entries.push_back(std::move(e));
    }
    i += count;
  }
  return entries;
}

} // namespace fuel::rt
