//===- Random.cpp - fuel-run's reproducible input generator ---------------===//
//
// SplitMix64 and xoshiro256** as their authors' reference C code (public
// domain, prng.di.unimi.it), and the integer-only mappings of a 64-bit draw
// to each dtype. Nothing here uses floating-point arithmetic that could round
// differently on another platform: every float is an exact integer scaled by
// a power of two.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Random.h"

#include <cstring>

namespace fuel::rt {

uint64_t splitMix64Next(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

namespace {
inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
} // namespace

Xoshiro256StarStar::Xoshiro256StarStar(uint64_t seed) {
  uint64_t sm = seed;
  for (uint64_t &w : s_)
    w = splitMix64Next(sm);
}

uint64_t Xoshiro256StarStar::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

void Xoshiro256StarStar::jump() {
  static constexpr uint64_t kJump[] = {
      0x180ec6d33cfd0abaULL, 0xd5a61266f0c9392cULL, 0xa9582618e03fc9aaULL,
      0x39abdc4529b1661cULL};
  std::array<uint64_t, 4> acc = {0, 0, 0, 0};
  for (uint64_t word : kJump) {
    for (int b = 0; b < 64; ++b) {
      if (word & (uint64_t{1} << b))
        for (int i = 0; i < 4; ++i)
          acc[i] ^= s_[i];
      next();
    }
  }
  s_ = acc;
}

Xoshiro256StarStar randomInputStream(uint64_t seed, uint64_t index) {
  Xoshiro256StarStar rng(seed);
  for (uint64_t i = 0; i < index; ++i)
    rng.jump();
  return rng;
}

float randomToF32(uint64_t r) {
  // |k| <= 2^23 fits a float's 24-bit significand, and the scale is a power
  // of two, so both steps are exact.
  int32_t k = static_cast<int32_t>(r >> 40) - (int32_t{1} << 23);
  return static_cast<float>(k) * 0x1p-23f;
}

double randomToF64(uint64_t r) {
  int64_t k = static_cast<int64_t>(r >> 11) - (int64_t{1} << 52);
  return static_cast<double>(k) * 0x1p-52;
}

uint16_t randomToF16(uint64_t r) {
  int32_t k = static_cast<int32_t>(r >> 53) - 1024;
  // k × 2^-10 with |k| <= 1024 is exact in binary16 (the smallest non-zero
  // magnitude, 2^-10, is a normal number), so the conversion does not round.
  return floatToHalf(static_cast<float>(k) * 0x1p-10f);
}

int64_t randomToSigned(uint64_t r) {
  return static_cast<int64_t>(r >> 57) - 64;
}

uint64_t randomToUnsigned(uint64_t r) { return r >> 57; }

bool randomToBool(uint64_t r) { return (r >> 63) != 0; }

namespace {
template <typename T, typename F>
void fillWith(void *data, int64_t n, Xoshiro256StarStar &rng, F map) {
  uint8_t *p = static_cast<uint8_t *>(data);
  for (int64_t i = 0; i < n; ++i) {
    T v = static_cast<T>(map(rng.next()));
    std::memcpy(p + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
  }
}

void fillTyped(DType dtype, void *d, int64_t n, Xoshiro256StarStar &rng) {
  switch (dtype) {
  case DType::F16:
    return fillWith<uint16_t>(d, n, rng, randomToF16);
  case DType::F32:
    return fillWith<float>(d, n, rng, randomToF32);
  case DType::F64:
    return fillWith<double>(d, n, rng, randomToF64);
  case DType::I8:
    return fillWith<int8_t>(d, n, rng, randomToSigned);
  case DType::I16:
    return fillWith<int16_t>(d, n, rng, randomToSigned);
  case DType::I32:
    return fillWith<int32_t>(d, n, rng, randomToSigned);
  case DType::I64:
    return fillWith<int64_t>(d, n, rng, randomToSigned);
  case DType::U8:
    return fillWith<uint8_t>(d, n, rng, randomToUnsigned);
  case DType::U16:
    return fillWith<uint16_t>(d, n, rng, randomToUnsigned);
  case DType::U32:
    return fillWith<uint32_t>(d, n, rng, randomToUnsigned);
  case DType::U64:
    return fillWith<uint64_t>(d, n, rng, randomToUnsigned);
  case DType::Bool:
    return fillWith<uint8_t>(d, n, rng, randomToBool);
  }
}

} // namespace

Status fillRandom(HostArray &array, Xoshiro256StarStar &rng) {
  void *d = array.mutableData();
  int64_t n = array.elementCount();
  if (!d)
    return Status::error(StatusCode::FailedPrecondition,
                         "cannot fill a view of " + array.typeString() +
                             " with random values: views are read-only");
  fillTyped(array.dtype(), d, n, rng);
  return Status::ok();
}

Status fillRandomInputs(std::vector<HostArray> &inputs, uint64_t seed) {
  Xoshiro256StarStar stream(seed);
  for (size_t i = 0; i < inputs.size(); ++i) {
    Xoshiro256StarStar rng = stream;
    if (Status s = fillRandom(inputs[i], rng); !s)
      return s.withContext("input " + std::to_string(i));
    stream.jump();
  }
  return Status::ok();
}

StatusOr<uint64_t> parseRandomInputSpec(std::string_view spec) {
  constexpr std::string_view kPrefix = "random:";
  auto bad = [&](const char *why) {
    return Status::error(StatusCode::InvalidArgument,
                         "input '" + std::string(spec) + "': " + why);
  };
  if (spec.substr(0, kPrefix.size()) != kPrefix)
    return bad("expected random:SEED");
  std::string_view digits = spec.substr(kPrefix.size());
  if (digits.empty())
    return bad("the seed is missing (random:SEED)");
  uint64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9')
      return bad("the seed must be a decimal integer");
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10)
      return bad("the seed does not fit 64 bits");
    v = v * 10 + d;
  }
  return v;
}

} // namespace fuel::rt
