//===- Random.h - fuel-run's reproducible input generator -------*- C++ -*-===//
//
// `fuel-run --input=random:SEED` fills every input from this generator, the
// same bits on every platform and compiler: SplitMix64 seeds xoshiro256**,
// input i draws from the seed's stream advanced by i jumps of 2^128 steps,
// and each element maps one 64-bit draw to its dtype by integer arithmetic
// only (docs/RUNTIME-IO.md, "Random inputs", specifies every step). Adding
// an input never changes the values of the inputs before it.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_RANDOM_H
#define FUEL_RUNTIME_RANDOM_H

#include "fuel/Runtime/HostArray.h"
#include "fuel/Runtime/Status.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace fuel::rt {

/// One step of SplitMix64 (Steele, Lea, Flood 2014): advances `state` by
/// 0x9E3779B97F4A7C15 and returns the mixed value.
uint64_t splitMix64Next(uint64_t &state);

/// xoshiro256** 1.0 (Blackman and Vigna 2018), exactly the reference code.
class Xoshiro256StarStar {
public:
  /// The state from four successive SplitMix64 outputs of `seed`.
  explicit Xoshiro256StarStar(uint64_t seed);
  explicit Xoshiro256StarStar(const std::array<uint64_t, 4> &state)
      : s_(state) {}

  uint64_t next();
  /// Advances the state by 2^128 steps (the reference jump()).
  void jump();
  const std::array<uint64_t, 4> &state() const { return s_; }

private:
  std::array<uint64_t, 4> s_;
};

/// The generator of input `index` (0-based) for `seed`:
/// Xoshiro256StarStar(seed) advanced by `index` jumps.
Xoshiro256StarStar randomInputStream(uint64_t seed, uint64_t index);

/// The element mappings of one 64-bit draw `r` (bits 63..0):
/// f32: (int32)(r >> 40) - 2^23, times 2^-23: 2^24 values in [-1, 1).
float randomToF32(uint64_t r);
/// f64: (int64)(r >> 11) - 2^52, times 2^-52: 2^53 values in [-1, 1).
double randomToF64(uint64_t r);
/// f16 bits: (int)(r >> 53) - 2^10, times 2^-10: 2^11 values in [-1, 1).
uint16_t randomToF16(uint64_t r);
/// Signed integers (any width): (int)(r >> 57) - 64, in [-64, 64).
int64_t randomToSigned(uint64_t r);
/// Unsigned integers (any width): r >> 57, in [0, 128).
uint64_t randomToUnsigned(uint64_t r);
/// i1: r >> 63, 0 or 1.
bool randomToBool(uint64_t r);

/// Fills every element of `array`, in C order, one draw each, from `rng`.
/// FailedPrecondition when `array` is a view (views are read-only).
Status fillRandom(HostArray &array, Xoshiro256StarStar &rng);

/// What `--input=random:SEED` does: fills inputs[i] from
/// randomInputStream(seed, i) for every i, jumping once per input.
Status fillRandomInputs(std::vector<HostArray> &inputs, uint64_t seed);

/// Parses `random:SEED`, SEED a decimal integer in [0, 2^64). Anything else
/// is InvalidArgument with a message quoting `spec`.
StatusOr<uint64_t> parseRandomInputSpec(std::string_view spec);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_RANDOM_H
