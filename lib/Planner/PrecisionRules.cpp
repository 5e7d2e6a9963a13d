//===- PrecisionRules.cpp - Precision digits, classes, requirements -------===//
//
// SEMANTICS §6 (precision digits, accuracy class), §3 step 5 (requirement
// satisfaction) and §9 (the requirement text).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/PrecisionRules.h"

#include "fuel/Planner/Error.h"

#include "llvm/ADT/SmallVector.h"

#include <charconv>
#include <cmath>

namespace fuel::plan {

/// The shortest spelling that reads back as exactly `v`.
static std::string shortestDouble(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, res.ptr);
}

/// 10^-d as the correctly rounded double, d in [0, 18]. 10^d is exact in a
/// double for d <= 22, so one IEEE division rounds correctly and equals the
/// literal `1e-d`.
static double negPow10(unsigned d) {
  double p = 1.0;
  for (unsigned i = 0; i < d; ++i)
    p *= 10.0;
  return 1.0 / p;
}

unsigned precisionDigits(const Precision &p) {
  if (p.maxRelative) {
    double r = *p.maxRelative;
    if (r == 0)
      return 18;
    if (!(r > 0))
      return 0;
    // floor(-log10 r), computed without log10: the largest d <= 18 with
    // r <= 10^-d. A log10 would give 2.9999999999999996 for some inputs
    // near a power of ten; this comparison is exact (1e-3 gives 3).
    unsigned d = 0;
    while (d < 18 && r <= negPow10(d + 1))
      ++d;
    return d;
  }
  // Without a relative bound: an exact (0 ulp) claim is 18 digits; any
  // other ulp bound says nothing about digits, so bit-stability decides.
  if (p.maxUlp && *p.maxUlp == 0)
    return 18;
  return p.bitStable ? 9 : 0;
}

unsigned accuracyClass(const Precision &p) {
  if (p.maxUlp) {
    if (*p.maxUlp == 0)
      return 4;
    if (*p.maxUlp <= 2)
      return 3;
    return 2;
  }
  return p.bitStable ? 1 : 0;
}

std::string explainUnsatisfied(const Precision &g, const Precision &r) {
  if (r.bitStable && !g.bitStable)
    return "not bit-stable (required bit-stable)";
  if (r.maxUlp) {
    std::string need = "required ulp<=" + std::to_string(*r.maxUlp);
    if (!g.maxUlp)
      return "claims no ulp bound (" + need + ")";
    if (*g.maxUlp > *r.maxUlp)
      return "claims ulp<=" + std::to_string(*g.maxUlp) + " (" + need + ")";
  }
  auto checkReal = [](const std::optional<double> &claim,
                      const std::optional<double> &bound,
                      const char *name) -> std::string {
    if (!bound)
      return {};
    std::string need =
        std::string("required ") + name + "<=" + shortestDouble(*bound);
    if (!claim)
      return std::string("claims no ") + name + " bound (" + need + ")";
    // `!(claim <= bound)` so a NaN claim never satisfies a bound.
    if (!(*claim <= *bound))
      return std::string("claims ") + name + "<=" + shortestDouble(*claim) +
             " (" + need + ")";
    return {};
  };
  std::string why = checkReal(g.maxRelative, r.maxRelative, "rel");
  if (!why.empty())
    return why;
  return checkReal(g.maxAbsolute, r.maxAbsolute, "abs");
}

bool satisfies(const Precision &g, const Precision &r) {
  if (r.bitStable && !g.bitStable)
    return false;
  if (r.maxUlp && (!g.maxUlp || *g.maxUlp > *r.maxUlp))
    return false;
  if (r.maxRelative && (!g.maxRelative || !(*g.maxRelative <= *r.maxRelative)))
    return false;
  if (r.maxAbsolute && (!g.maxAbsolute || !(*g.maxAbsolute <= *r.maxAbsolute)))
    return false;
  return true;
}

static llvm::Error invalid(llvm::StringRef text, const std::string &why) {
  return PlanError::make(PlanError::Kind::InvalidOption,
                         "invalid precision requirement '" + text.str() +
                             "': " + why +
                             " (expected 'none', 'reference', "
                             "'deterministic', or a comma-separated list of "
                             "'bit-stable', 'ulp<=N', 'rel<=X', 'abs<=X')");
}

llvm::Expected<Precision> parsePrecisionRequirement(llvm::StringRef text) {
  llvm::StringRef trimmed = text.trim();
  if (trimmed == "none")
    return Precision::unaudited();
  if (trimmed == "reference")
    return Precision::reference();
  if (trimmed == "deterministic")
    return Precision::deterministic();
  if (trimmed.empty())
    return invalid(text, "empty requirement");

  Precision p;
  llvm::SmallVector<llvm::StringRef, 4> items;
  trimmed.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (llvm::StringRef raw : items) {
    llvm::StringRef item = raw.trim();
    if (item.empty())
      return invalid(text, "empty item in the list");
    if (item == "bit-stable") {
      if (p.bitStable)
        return invalid(text, "'bit-stable' given twice");
      p.bitStable = true;
      continue;
    }
    auto [key, value] = item.split("<=");
    key = key.trim();
    value = value.trim();
    if (key.size() == item.size())
      return invalid(text, "unknown item '" + item.str() + "'");
    if (key != "ulp" && key != "rel" && key != "abs")
      return invalid(text, "unknown bound '" + key.str() + "' in '" +
                               item.str() + "'");
    if (value.empty())
      return invalid(text, "missing number in '" + item.str() + "'");
    if (value.starts_with("-"))
      return invalid(text, "negative bound in '" + item.str() +
                               "' (bounds must be non-negative)");
    if (key == "ulp") {
      uint64_t ulp;
      if (value.getAsInteger(10, ulp))
        return invalid(text, "'" + value.str() +
                                 "' is not an unsigned integer in '" +
                                 item.str() + "'");
      if (p.maxUlp)
        return invalid(text, "'ulp' bound given twice");
      p.maxUlp = ulp;
      continue;
    }
    // Accept only plain decimal numbers: from_chars rejects "inf"/"nan"
    // spellings with a leading sign and we reject the rest below.
    double v = 0;
    const char *first = value.data(), *last = value.data() + value.size();
    auto res = std::from_chars(first, last, v);
    if (res.ec != std::errc() || res.ptr != last || !std::isfinite(v))
      return invalid(text, "'" + value.str() + "' is not a finite number in '" +
                               item.str() + "'");
    if (v < 0)
      return invalid(text, "negative bound in '" + item.str() +
                               "' (bounds must be non-negative)");
    std::optional<double> &slot = key == "rel" ? p.maxRelative : p.maxAbsolute;
    if (slot)
      return invalid(text, "'" + key.str() + "' bound given twice");
    // -0.0 parses as a zero bound; store +0.0 so it prints as "0".
    slot = v == 0 ? 0.0 : v;
  }
  return p;
}

std::string formatPrecisionRequirement(const Precision &p) {
  if (p.isUnconstrained())
    return "none";
  Precision bare = p;
  bare.note.clear();
  if (bare == Precision::reference())
    return "reference";
  if (bare == Precision::deterministic())
    return "deterministic";
  std::string out;
  auto add = [&](const std::string &item) {
    if (!out.empty())
      out += ',';
    out += item;
  };
  if (p.bitStable)
    add("bit-stable");
  if (p.maxUlp)
    add("ulp<=" + std::to_string(*p.maxUlp));
  if (p.maxRelative)
    add("rel<=" + shortestDouble(*p.maxRelative));
  if (p.maxAbsolute)
    add("abs<=" + shortestDouble(*p.maxAbsolute));
  return out;
}

} // namespace fuel::plan
