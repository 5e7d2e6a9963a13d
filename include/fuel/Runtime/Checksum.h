//===- Checksum.h - The 64-bit checksum of executable files -----*- C++ -*-===//
//
// XXH64 (xxHash, 64-bit), written from its specification: the checksum of
// the header, the metadata and every segment of a fuel executable. It
// catches corruption, not malice.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_CHECKSUM_H
#define FUEL_RUNTIME_CHECKSUM_H

#include <cstddef>
#include <cstdint>

namespace fuel::rt {

/// XXH64 of `size` bytes at `data` with `seed`.
uint64_t xxh64(const void *data, size_t size, uint64_t seed = 0);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_CHECKSUM_H
