//===- Npy.h - Reading and writing .npy array files -------------*- C++ -*-===//
//
// numpy's .npy format (versions 1.0, 2.0 and 3.0), the files fuel-run takes
// as `--input=@x.npy` and writes for `--output=@y.npy`. A .npy file is
// untrusted input: the header dictionary is parsed by a strict parser of the
// Python literal numpy writes, and every refusal names the file and what is
// wrong. Supported: little-endian, C order, the dtypes of DType. Refused:
// big-endian, Fortran order, object, structured, string and other dtypes,
// negative or overflowing dimensions, a data section of the wrong length.
// docs/RUNTIME-IO.md specifies what is read and written.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_NPY_H
#define FUEL_RUNTIME_NPY_H

#include "fuel/Runtime/HostArray.h"
#include "fuel/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fuel::rt {

/// What the header of a .npy file says.
struct NpyHeader {
  /// Format version: major 1, 2 or 3; minor 0.
  uint8_t major = 1;
  uint8_t minor = 0;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// Offset of the data section from the start of the file.
  size_t dataOffset = 0;
  /// Bytes of the data section: elements × itemsize.
  size_t dataSize = 0;
};

/// Parses the magic, version and header of a .npy file from its first
/// `size` bytes (the whole header must be there; the data need not be).
/// `name` (the file name) begins every error message. Errors:
/// InvalidArgument for a malformed file, Unimplemented for a valid one
/// using what fuel does not support, DataLoss for a header past `size`.
StatusOr<NpyHeader> parseNpyHeader(const void *bytes, size_t size,
                                   std::string_view name);

/// Parses a whole .npy file held in memory (e.g. mapped) and returns a view
/// of its data section, which must be exactly elements × itemsize bytes.
/// The view points into `bytes`; its alignment is that of the data offset
/// (64 for files numpy ≥ 1.14 writes, 16 for older ones).
StatusOr<HostArray> parseNpy(const void *bytes, size_t size,
                             std::string_view name);

/// Reads the .npy file at `path` into an owned, 64-byte-aligned array. The
/// data goes straight from the file into that buffer. Unavailable when the
/// file cannot be opened or read; otherwise the errors of parseNpy.
StatusOr<HostArray> readNpyFile(const std::string &path);

/// The bytes of a .npy file holding `array`, laid out exactly as numpy
/// ≥ 1.24 writes it: the header dictionary with keys in sorted order,
/// 21 - len(repr(shape[0])) spaces of growth room (none for a scalar),
/// padding so that the data starts on a 64-byte boundary, a newline.
/// `version` 0 picks 1.0, or 2.0 when the header needs more than 65535
/// bytes; 1, 2 or 3 forces that version.
StatusOr<std::vector<uint8_t>> encodeNpy(const HostArray &array,
                                         int version = 0);

/// Writes encodeNpy(array, version) to `path`, replacing the file.
Status writeNpyFile(const std::string &path, const HostArray &array,
                    int version = 0);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_NPY_H
