//===- ProfileKey.h - Profile-database keys of candidates -------*- C++ -*-===//
//
// The MeasurementKey (include/fuel/Judge/ProfileDB.h) of one candidate of a
// node: what fuel-annotate-costs looks up and what a measuring tool must
// store, so both build it here and agree field for field
// (docs/PROFILE-DB.md, "The key").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_PROFILEKEY_H
#define FUEL_PLANNING_PROFILEKEY_H

#include "fuel/Judge/ProfileDB.h"
#include "fuel/Planner/Candidate.h"
#include "fuel/Planner/Topology.h"

#include <cstdint>

namespace mlir::fuel {

class NodeOp;

/// The vendor libraries' thread setting the shims make (kernels/shims: one
/// thread each; the runtime's pool parallelises around them).
inline constexpr int64_t kShimLibraryThreads = 1;

/// The runtime settings a measurement depends on besides the node and the
/// candidate.
struct ProfileKeySettings {
  /// The runtime's thread-pool size (fuelRuntimeOptions::threads).
  int64_t poolThreads = 1;
  /// The vendor library's thread setting.
  int64_t libraryThreads = kShimLibraryThreads;
};

/// The key of candidate `c` of `node` (its alternatives' decision context
/// gives the size class) on `topology`: kernel id and revision, the node's
/// op kind, its operands' then results' element types and exact shapes
/// (a non-shaped operand: its type and no dimensions), the candidate's op
/// params, the device's kind, ordinal, name and driver from the topology
/// (empty when the topology lacks the device) and `settings`.
::fuel::judge::MeasurementKey
measurementKey(NodeOp node, const ::fuel::plan::Candidate &c,
               uint32_t sizeClass, const ::fuel::plan::Topology &topology,
               const ProfileKeySettings &settings);

} // namespace mlir::fuel

#endif // FUEL_PLANNING_PROFILEKEY_H
