//===- ArrayCompare.h - Comparing results within a tolerance ----*- C++ -*-===//
//
// `fuel-run --expected-output=@ref.npy [--tolerance=atol=A,rtol=R]`: an
// element matches as numpy.allclose decides, |actual - expected| <= atol +
// rtol * |expected|, with NaN equal only to NaN and an infinity only to
// itself. The report gives the first mismatching index, the number of
// mismatches and the largest absolute and relative errors.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_ARRAYCOMPARE_H
#define FUEL_RUNTIME_ARRAYCOMPARE_H

#include "fuel/Runtime/HostArray.h"
#include "fuel/Runtime/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fuel::rt {

/// Absolute and relative tolerance, as numpy.allclose's atol and rtol.
struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

/// The default of `--tolerance` for `dtype`: f16 atol=1e-3,rtol=1e-3; f32
/// atol=1e-5,rtol=1e-4; f64 atol=1e-8,rtol=1e-5 (numpy's defaults);
/// integers and i1 exact (0, 0).
Tolerance defaultTolerance(DType dtype);

/// Parses `atol=A,rtol=R`, either part optional and in any order, each at
/// most once, A and R finite and non-negative; a part not given keeps its
/// value in `base`. InvalidArgument quoting `spec` otherwise.
StatusOr<Tolerance> parseTolerance(std::string_view spec, Tolerance base);

/// The outcome of a comparison.
struct Comparison {
  /// Elements outside the tolerance.
  int64_t mismatches = 0;
  /// Flat (C order) index of the first mismatch; -1 when none.
  int64_t firstMismatch = -1;
  /// Largest |actual - expected| and |actual - expected| / |expected| over
  /// the elements where both are finite (a zero expected and a different
  /// actual make the relative error infinite).
  double maxAbsError = 0;
  double maxRelError = 0;
  /// One line: "all N elements match ..." or the mismatch report.
  std::string summary;

  bool matches() const { return mismatches == 0; }
};

/// Compares `actual` with `expected` element by element. Fails
/// (InvalidArgument, message beginning with `what`) when their types differ;
/// otherwise returns the comparison, whose summary begins with `what`.
StatusOr<Comparison> compareArrays(const HostArray &actual,
                                   const HostArray &expected,
                                   Tolerance tolerance, std::string_view what);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_ARRAYCOMPARE_H
