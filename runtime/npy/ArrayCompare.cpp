//===- ArrayCompare.cpp - Comparing results within a tolerance ------------===//
//
// numpy.allclose's rule per element, evaluated in double (exact for every
// float dtype). Integers are compared exactly first, so that two different
// 64-bit values never pass a zero tolerance by rounding to the same double.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ArrayCompare.h"

#include "ElementAccess.h"
#include "fuel/Runtime/ArrayPrint.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace fuel::rt {

Tolerance defaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return {1e-3, 1e-3};
  case DType::F32:
    return {1e-5, 1e-4};
  case DType::F64:
    return {1e-8, 1e-5};
  default:
    return {0, 0};
  }
}

StatusOr<Tolerance> parseTolerance(std::string_view spec, Tolerance base) {
  auto bad = [&](const std::string &why) {
    return Status::error(StatusCode::InvalidArgument,
                         "tolerance '" + std::string(spec) + "': " + why);
  };
  if (spec.empty())
    return bad("expected atol=A,rtol=R (either part may be left out)");
  bool seenA = false, seenR = false;
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    std::string_view part = spec.substr(pos, comma == std::string_view::npos
                                                 ? std::string_view::npos
                                                 : comma - pos);
    size_t eq = part.find('=');
    if (eq == std::string_view::npos)
      return bad("'" + std::string(part) + "' is not KEY=VALUE");
    std::string_view key = part.substr(0, eq), val = part.substr(eq + 1);
    bool isA = key == "atol", isR = key == "rtol";
    if (!isA && !isR)
      return bad("unknown key '" + std::string(key) +
                 "' (expected atol, rtol)");
    if ((isA && seenA) || (isR && seenR))
      return bad("'" + std::string(key) + "' is given twice");
    double v = 0;
    std::from_chars_result r = std::from_chars(
        val.data(), val.data() + val.size(), v, std::chars_format::general);
    if (val.empty() || r.ec != std::errc() || r.ptr != val.data() + val.size())
      return bad("'" + std::string(val) + "' is not a number");
    if (!std::isfinite(v) || v < 0)
      return bad("'" + std::string(key) + "' must be finite and >= 0");
    (isA ? base.atol : base.rtol) = v;
    (isA ? seenA : seenR) = true;
    if (comma == std::string_view::npos)
      break;
    pos = comma + 1;
  }
  return base;
}

namespace {

std::string formatDouble(double v) { return formatF64(v); }

std::string formatIndex(const std::vector<int64_t> &shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) {
    if (d)
      s += ", ";
    s += std::to_string(idx[d]);
  }
  return s + "]";
}

/// |a - b| for integers, exact up to double rounding of the true difference
/// (which is never 0 for a != b).
double intDistance(const detail::IntValue &a, const detail::IntValue &b) {
  if (a.isSigned) {
    uint64_t d = a.s >= b.s
                     ? static_cast<uint64_t>(a.s) - static_cast<uint64_t>(b.s)
                     : static_cast<uint64_t>(b.s) - static_cast<uint64_t>(a.s);
    return static_cast<double>(d);
  }
  return static_cast<double>(a.u >= b.u ? a.u - b.u : b.u - a.u);
}

double intMagnitude(const detail::IntValue &v) {
  if (!v.isSigned)
    return static_cast<double>(v.u);
  return v.s < 0 ? static_cast<double>(0 - static_cast<uint64_t>(v.s))
                 : static_cast<double>(v.s);
}

} // namespace

StatusOr<Comparison> compareArrays(const HostArray &actual,
                                   const HostArray &expected, Tolerance tol,
                                   std::string_view what) {
  if (Status s =
          checkArrayType(actual.dtype(), actual.shape(), expected.dtype(),
                         expected.shape(), what, "the expected output");
      !s)
    return s;
  Comparison c;
  bool isFloat = isFloatDType(actual.dtype());
  int64_t n = actual.elementCount();
  for (int64_t i = 0; i < n; ++i) {
    bool ok;
    double abs = 0, rel = 0;
    bool finite = true;
    if (isFloat) {
      double a = detail::loadFloat(actual, i);
      double b = detail::loadFloat(expected, i);
      if (std::isnan(a) || std::isnan(b)) {
        ok = std::isnan(a) && std::isnan(b);
        finite = false;
      } else if (std::isinf(a) || std::isinf(b)) {
        ok = a == b;
        finite = false;
      } else {
        abs = std::fabs(a - b);
        ok = abs <= tol.atol + tol.rtol * std::fabs(b);
        rel = abs == 0 ? 0
              : b == 0 ? std::numeric_limits<double>::infinity()
                       : abs / std::fabs(b);
      }
    } else {
      detail::IntValue a = detail::loadInt(actual, i);
      detail::IntValue b = detail::loadInt(expected, i);
      bool equal = a.isSigned ? a.s == b.s : a.u == b.u;
      if (equal) {
        ok = true;
      } else {
        abs = intDistance(a, b);
        double mb = intMagnitude(b);
        ok = abs <= tol.atol + tol.rtol * mb;
        rel = mb == 0 ? std::numeric_limits<double>::infinity() : abs / mb;
      }
    }
    if (finite) {
      c.maxAbsError = std::max(c.maxAbsError, abs);
      c.maxRelError = std::max(c.maxRelError, rel);
    }
    if (!ok) {
      if (c.firstMismatch < 0)
        c.firstMismatch = i;
      ++c.mismatches;
    }
  }
  std::string rule =
      "atol=" + formatDouble(tol.atol) + ", rtol=" + formatDouble(tol.rtol);
  std::string errors = "max abs error " + formatDouble(c.maxAbsError) +
                       ", max rel error " + formatDouble(c.maxRelError);
  std::string s(what);
  if (c.mismatches == 0) {
    s += ": all " + std::to_string(n) + " elements match (" + rule + "; " +
         errors + ")";
  } else {
    s += ": " + std::to_string(c.mismatches) + " of " + std::to_string(n) +
         " elements differ (" + rule + "); first at " +
         formatIndex(actual.shape(), c.firstMismatch) + ": got " +
         formatElement(actual, c.firstMismatch) + ", expected " +
         formatElement(expected, c.firstMismatch) + "; " + errors;
  }
  c.summary = std::move(s);
  return c;
}

} // namespace fuel::rt
