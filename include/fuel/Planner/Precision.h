//===- Precision.h - Precision guarantees and requirements ------*- C++ -*-===//
//
// What a kernel claims about its numerics, and what a pipeline requires
// (SEMANTICS §3 step 5 and §6). A guarantee and a requirement share one shape:
// each bound is either absent (no claim / no requirement) or a non-negative
// number.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_PRECISION_H
#define FUEL_PLANNER_PRECISION_H

#include <cstdint>
#include <optional>
#include <string>

namespace fuel::plan {

/// A precision guarantee (what a kernel claims) or requirement (what the user
/// asks for). Absent bounds mean "no claim" / "not required".
struct Precision {
  /// Same inputs on the same hardware give bit-identical outputs.
  bool bitStable = false;
  /// Maximum error in units in the last place against a correctly rounded
  /// reference.
  std::optional<uint64_t> maxUlp;
  /// Maximum relative error.
  std::optional<double> maxRelative;
  /// Maximum absolute error.
  std::optional<double> maxAbsolute;
  /// Free-form note (who audited the claim, under which conditions).
  std::string note;

  /// `reference`: bit-stable, 0 ulp, relative 0, absolute 0.
  static Precision reference() {
    Precision p;
    p.bitStable = true;
    p.maxUlp = 0;
    p.maxRelative = 0.0;
    p.maxAbsolute = 0.0;
    return p;
  }
  /// `deterministic`: bit-stable only.
  static Precision deterministic() {
    Precision p;
    p.bitStable = true;
    return p;
  }
  /// `unaudited`: no claim at all.
  static Precision unaudited() { return Precision(); }

  /// True when no bound is set and the value is not bit-stable.
  bool isUnconstrained() const {
    return !bitStable && !maxUlp && !maxRelative && !maxAbsolute;
  }

  friend bool operator==(const Precision &a, const Precision &b) {
    return a.bitStable == b.bitStable && a.maxUlp == b.maxUlp &&
           a.maxRelative == b.maxRelative && a.maxAbsolute == b.maxAbsolute &&
           a.note == b.note;
  }
  friend bool operator!=(const Precision &a, const Precision &b) {
    return !(a == b);
  }
};

} // namespace fuel::plan

#endif // FUEL_PLANNER_PRECISION_H
