//===- Checksum.cpp - XXH64 from its specification ------------------------===//
//
// XXH64 as the xxHash specification (doc/xxhash_spec.md, "XXH64 Algorithm
// Description") defines it: four accumulators over 32-byte stripes, a merge,
// the tail in 8-, 4- and 1-byte steps, and the avalanche. Input is read as
// little-endian whatever the host, so a checksum means the same everywhere.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Checksum.h"

namespace fuel::rt {
namespace {

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ull;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ull;

uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t read64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

uint32_t read32(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
         uint32_t(p[3]) << 24;
}

uint64_t round(uint64_t acc, uint64_t lane) {
  acc += lane * kPrime2;
  acc = rotl(acc, 31);
  return acc * kPrime1;
}

uint64_t mergeAccumulator(uint64_t acc, uint64_t accN) {
  acc ^= round(0, accN);
  return acc * kPrime1 + kPrime4;
}

} // namespace

uint64_t xxh64(const void *data, size_t size, uint64_t seed) {
  const uint8_t *p = static_cast<const uint8_t *>(data);
  const uint8_t *end = p + size;
  uint64_t acc;

  if (size >= 32) {
    uint64_t acc1 = seed + kPrime1 + kPrime2;
    uint64_t acc2 = seed + kPrime2;
    uint64_t acc3 = seed;
    uint64_t acc4 = seed - kPrime1;
    const uint8_t *limit = end - 32;
    do {
      acc1 = round(acc1, read64(p));
      acc2 = round(acc2, read64(p + 8));
      acc3 = round(acc3, read64(p + 16));
      acc4 = round(acc4, read64(p + 24));
      p += 32;
    } while (p <= limit);
    acc = rotl(acc1, 1) + rotl(acc2, 7) + rotl(acc3, 12) + rotl(acc4, 18);
    acc = mergeAccumulator(acc, acc1);
    acc = mergeAccumulator(acc, acc2);
    acc = mergeAccumulator(acc, acc3);
    acc = mergeAccumulator(acc, acc4);
  } else {
    acc = seed + kPrime5;
  }

  acc += static_cast<uint64_t>(size);

  while (end - p >= 8) {
    acc ^= round(0, read64(p));
    acc = rotl(acc, 27) * kPrime1 + kPrime4;
    p += 8;
  }
  if (end - p >= 4) {
    acc ^= static_cast<uint64_t>(read32(p)) * kPrime1;
    acc = rotl(acc, 23) * kPrime2 + kPrime3;
    p += 4;
  }
  while (p < end) {
    acc ^= static_cast<uint64_t>(*p) * kPrime5;
    acc = rotl(acc, 11) * kPrime1;
    ++p;
  }

  acc ^= acc >> 33;
  acc *= kPrime2;
  acc ^= acc >> 29;
  acc *= kPrime3;
  acc ^= acc >> 32;
  return acc;
}

} // namespace fuel::rt
