//===- ArrayPrint.h - Arrays as text in iree-run-module's style -*- C++ -*-===//
//
// How fuel-run prints a result without `--output`: `SHAPExDTYPE=` and the
// elements in C order, the innermost dimension space-separated and every
// dimension but the outermost in brackets: `2x3xf32=[1 2 3][4 5 6]`,
// `3xi32=1 2 3`, `f32=0.5`. Floats print in the shortest form that reads
// back to the same value, so the text is exact. docs/RUNTIME-IO.md, "Printed
// output", specifies it.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_ARRAYPRINT_H
#define FUEL_RUNTIME_ARRAYPRINT_H

#include "fuel/Runtime/HostArray.h"

#include <cstdint>
#include <string>

namespace fuel::rt {

/// The shortest decimal that reads back (round to nearest) to the same
/// float: std::to_chars's shortest form, e.g. `0.1`, `1e+20`, `-0`; `nan`
/// for every NaN, `inf` and `-inf`.
std::string formatF32(float value);
/// As formatF32, for a double.
std::string formatF64(double value);
/// The shortest decimal that reads back to the same binary16 value (read as
/// a float, then rounded to binary16), printed as formatF32 prints it.
std::string formatF16(uint16_t bits);

/// Element `index` (flat, C order) of `array` as text: a float as above, an
/// integer in decimal, i1 as 0 or 1.
std::string formatElement(const HostArray &array, int64_t index);

/// The whole array, `SHAPExDTYPE=ELEMENTS`, as the file comment describes.
/// An array with no elements prints as its type and `=`.
std::string formatArray(const HostArray &array);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_ARRAYPRINT_H
