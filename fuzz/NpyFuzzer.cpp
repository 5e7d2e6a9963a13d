//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//
//
// Feeds arbitrary bytes to parseNpy. A refusal must carry a message; an
// accepted file must encode again (encodeNpy), and the encoded bytes must
// parse back to the same dtype, shape and data and encode to the same bytes.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "fuel/Runtime/Npy.h"

#include <cstring>
#include <string>

using namespace fuel::rt;
using fuel::fuzz::fuzzFail;
using fuel::fuzz::fuzzNoteRefusal;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StatusOr<NpyHeader> header = parseNpyHeader(data, size, "input.npy");
  StatusOr<HostArray> array = parseNpy(data, size, "input.npy");
  if (!array.isOk()) {
    if (array.status().message().empty())
      fuzzFail("npy", "a refusal without a message");
    fuzzNoteRefusal("npy", array.status().message());
    return 0;
  }
  if (!header.isOk())
    fuzzFail("npy", "parseNpy accepts a file whose header parseNpyHeader "
                    "refuses: " +
                        header.status().message());
  if (array->dtype() != header->dtype || array->shape() != header->shape ||
      array->byteSize() != header->dataSize)
    fuzzFail("npy", "the array differs from its header");

  StatusOr<std::vector<uint8_t>> encoded = encodeNpy(*array);
  if (!encoded.isOk())
    fuzzFail("npy", "an accepted array does not encode: " +
                        encoded.status().message());
  StatusOr<HostArray> again =
      parseNpy(encoded->data(), encoded->size(), "encoded.npy");
  if (!again.isOk())
    fuzzFail("npy",
             "the encoded file does not parse: " + again.status().message());
  if (again->dtype() != array->dtype() || again->shape() != array->shape())
    fuzzFail("npy", "the encoded file reads back another dtype or shape",
             array->typeString(), again->typeString());
  if (again->byteSize() != array->byteSize() ||
      (array->byteSize() &&
       std::memcmp(again->data(), array->data(), array->byteSize()) != 0))
    fuzzFail("npy", "the encoded file reads back other data");
  StatusOr<std::vector<uint8_t>> twice = encodeNpy(*again);
  if (!twice.isOk() || *twice != *encoded)
    fuzzFail("npy", "encoding the read-back array gives other bytes");
  return 0;
}
