//===- Retention.h - Per-device Pareto frontier, crowding cap ---*- C++ -*-===//
//
// Retention of a ranked alternative set (SEMANTICS §7): the per-device
// Pareto frontier on the five cost axes, never stranding a (device, kernel
// source), capped at `keep` per device by NSGA-II crowding distance, with
// the global winner, each bucket's best and the last member of each
// (device, kernel source) protected.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_RETENTION_H
#define FUEL_PLANNER_RETENTION_H

#include "fuel/Planner/Candidate.h"
#include "fuel/Planner/Device.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace fuel::plan {

/// The default of the `keep-per-device` option (SEMANTICS §9).
inline constexpr unsigned kDefaultKeepPerDevice = 32;

/// What retention did, for remarks, statistics and tests.
struct RetentionReport {
  /// Rank indices (input positions) of the retained candidates, in output
  /// order.
  std::vector<unsigned> keptRankIndices;
  /// Candidates dropped by the Pareto frontier and not re-admitted.
  unsigned droppedDominated = 0;
  /// Candidates re-admitted so no (device, kernel source) is stranded.
  unsigned readmitted = 0;
  /// Candidates dropped by the crowding cap.
  unsigned droppedCrowded = 0;
  /// Devices whose bucket still exceeds `keep` because every member left
  /// is protected, in device order (SEMANTICS §7 step 5: a remark and a
  /// pass statistic).
  std::vector<Device> overCapDevices;
  /// Sum over overCapDevices of (bucket size - keep).
  unsigned overCapExcess = 0;

  /// True when some bucket exceeds keep.
  bool overCap() const { return !overCapDevices.empty(); }
};

/// Retains the per-device frontier of `ranked` in place (SEMANTICS §7).
/// `ranked` must already be ranked by rank() with the same decision device:
/// a candidate's rank index is its position there and is never renumbered.
/// `keep` 0 means 1. On return `ranked` holds the retained candidates
/// re-ranked by the winner order, the global winner at index 0.
RetentionReport retainFrontier(std::vector<Candidate> &ranked, unsigned keep,
                               Device decisionDevice);

/// The same rule over bare cost figures, for callers (and the benchmark)
/// that keep candidates elsewhere: `costs[i]`, `devices[i]` and
/// `sources[i]` (any integer naming the kernel source) describe the
/// candidate of rank index i. Returns the report; the retained rank indices
/// are ascending, which is the winner order of a ranked input.
RetentionReport retainFrontierIndices(llvm::ArrayRef<CostVector> costs,
                                      llvm::ArrayRef<Device> devices,
                                      llvm::ArrayRef<uint32_t> sources,
                                      unsigned keep);

} // namespace fuel::plan

#endif // FUEL_PLANNER_RETENTION_H
