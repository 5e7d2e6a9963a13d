//===- PrecisionRules.h - Digits, classes and requirements ------*- C++ -*-===//
//
// The precision rules of SEMANTICS §6 and §3 step 5 over the plain Precision
// struct: the two discrete cost-vector axes (precision digits 0-18, accuracy
// class 0-4), requirement satisfaction for the hard `precision-floor` filter,
// and the requirement text of the `precision` option (SEMANTICS §9).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_PRECISIONRULES_H
#define FUEL_PLANNER_PRECISIONRULES_H

#include "fuel/Planner/Precision.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace fuel::plan {

/// Precision digits 0-18 (SEMANTICS §6). With `max_relative = r`: r = 0
/// gives 18; r > 0 gives the largest d in [0, 18] with r <= 10^-d, where
/// 10^-d is the correctly rounded double (so 1e-3 gives exactly 3 and
/// 2e-3 gives 2); a negative or NaN r gives 0. Otherwise `max_ulp = 0` gives
/// 18; otherwise bit-stable gives 9; otherwise 0.
unsigned precisionDigits(const Precision &p);

/// Accuracy class 0-4 (SEMANTICS §6): ulp 0 gives 4, ulp 1-2 gives 3, any
/// other ulp 2; without an ulp claim bit-stable gives 1, otherwise 0.
unsigned accuracyClass(const Precision &p);

/// True when `guarantee` satisfies `requirement` (SEMANTICS §3 step 5, the
/// hard `precision-floor` filter): every bound the requirement sets must be
/// claimed by the guarantee and be <= the bound; a bit-stable requirement
/// needs a bit-stable claim. An unconstrained requirement accepts
/// everything.
bool satisfies(const Precision &guarantee, const Precision &requirement);

/// Why `guarantee` fails `requirement`, e.g. "claims no ulp bound (required
/// ulp<=1)"; empty when it satisfies it.
std::string explainUnsatisfied(const Precision &guarantee,
                               const Precision &requirement);

/// Parses the requirement text of the `precision` option (SEMANTICS §9):
/// `none`, `reference`, `deterministic`, or a comma-separated list of
/// `bit-stable`, `ulp<=N` (an unsigned integer), `rel<=X` and `abs<=X`
/// (finite non-negative decimals). Spaces around items are ignored. Errors
/// (PlanError::Kind::InvalidOption) name the offending item: an unknown
/// item, an empty item, a repeated bound, a malformed or negative number.
llvm::Expected<Precision> parsePrecisionRequirement(llvm::StringRef text);

/// The canonical requirement text of `p`: `none`, `reference`,
/// `deterministic`, or the list form in the order bit-stable, ulp, rel,
/// abs, with doubles in their shortest round-trip spelling. The note is not
/// printed. parsePrecisionRequirement(formatPrecisionRequirement(p)) == p
/// for every valid p without a note.
std::string formatPrecisionRequirement(const Precision &p);

} // namespace fuel::plan

#endif // FUEL_PLANNER_PRECISIONRULES_H
