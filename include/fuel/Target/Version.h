//===- Version.h - The fuel version string ----------------------*- C++ -*-===//
//
// The version of fuel. It is one input of every kernel revision hash
// (SEMANTICS §1), so a new release invalidates measurements keyed by the old
// kernels' revisions.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_VERSION_H
#define FUEL_TARGET_VERSION_H

/// The fuel version, "MAJOR.MINOR.PATCH".
#define FUEL_VERSION "0.1.0"

namespace fuel::target {

/// FUEL_VERSION as a C++ constant.
inline constexpr const char kFuelVersion[] = FUEL_VERSION;

} // namespace fuel::target

#endif // FUEL_TARGET_VERSION_H
