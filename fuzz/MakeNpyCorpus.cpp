//===- MakeNpyCorpus.cpp - Seed corpus of the .npy fuzz target ------------===//
//
// fuel-fuzz-make-npy-corpus DIR writes one small .npy file per dtype in each
// format version (1.0, 2.0, 3.0), with shapes from a scalar to rank 3 and an
// empty array, so that the fuzzer starts from files the reader accepts.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Npy.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace fuel::rt;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {3}, {2, 3}, {2, 1, 2}, {0, 4}};
  int written = 0;
  for (int version = 1; version <= 3; ++version) {
    for (DType dtype : kAllDTypes) {
      const std::vector<int64_t> &shape =
          shapes[(static_cast<size_t>(dtype) + version) % shapes.size()];
      StatusOr<HostArray> array = HostArray::allocate(dtype, shape);
      if (!array.isOk()) {
        std::fprintf(stderr, "%s\n", array.status().message().c_str());
        return 1;
      }
      auto *bytes = static_cast<uint8_t *>(array->mutableData());
      for (size_t i = 0; i < array->byteSize(); ++i)
        bytes[i] = dtype == DType::Bool ? uint8_t(i & 1) : uint8_t(7 * i + 1);
      std::string path = std::string(argv[1]) + "/v" + std::to_string(version) +
                         "-" + array->typeString() + ".npy";
      Status st = writeNpyFile(path, *array, version);
      if (!st.isOk()) {
        std::fprintf(stderr, "%s\n", st.message().c_str());
        return 1;
      }
      ++written;
    }
  }
  std::printf("wrote %d .npy files to %s\n", written, argv[1]);
  return 0;
}
