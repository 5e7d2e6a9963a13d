//===- RandomPlacement.h - Random placement problems for tests --*- C++ -*-===//
//
// Part of FuelPlannerTestSupport, the test-support library of the planner
// (lib/Planner/Testing). The random function generators behind the
// placement property tests (unittests/Planner/PlacementPropertyTest.cpp)
// and the optimality-gap benchmark (bench/placement-gap): a random topology
// of two or three devices and a random function on it (nodes with
// per-device times, arguments, results read by later nodes, host ops and
// returns; SEMANTICS §5). Every draw comes from Rng, so a seed fixes the
// problem on every standard library; the order of the draws is part of the
// contract, since the tests' seeds and the benchmark's published tables
// depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_TESTING_RANDOMPLACEMENT_H
#define FUEL_PLANNER_TESTING_RANDOMPLACEMENT_H

#include "PlannerTestUtil.h"

#include "fuel/Planner/Placement.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace fuel::plan::testing {

/// A random function and the topology it is planned for; `p.transfers`
/// points into `tm`.
struct Instance {
  std::unique_ptr<TransferModel> tm;
  PlacementProblem p;
};

/// What randomInstance() draws.
struct Shape {
  unsigned maxNodes = 10;
  /// Fewest nodes (at most maxNodes).
  unsigned minNodes = 1;
  /// When non-zero, exactly this many nodes, and no draw for the count
  /// (minNodes and maxNodes are then unused).
  unsigned exactNodes = 0;
  /// When non-zero, nodes read only among the last `window` values (a
  /// model-like, local graph); else any earlier value.
  unsigned window = 0;
  /// 2 (cpu, cuda:0) or 3 (plus cuda:1 or vulkan:0).
  unsigned numDevices = 2;
  /// Mean node time over mean hop time.
  double ratio = 1.0;
  /// Each node result read by at most one later node or returned.
  bool inForest = false;
  /// Add one to four coupling adjustments.
  bool coupling = false;
  /// Node ids 7, 10, 13, ... rather than 0, 1, 2, ..., and each node's
  /// options reversed on a coin flip (one more draw a node): nothing may
  /// take ids for positions or options for device order.
  bool irregularOrder = false;
};

/// A link of `cls` from `from` to `to`.
inline Link makeLink(Device from, Device to, int64_t bw, int64_t lat,
                     PathClass cls = PathClass::DeviceCopy) {
  Link l;
  l.from = from;
  l.to = to;
  l.bandwidthBytesPerSec = bw;
  l.latencyNs = lat;
  l.pathClass = cls;
  return l;
}

/// A random topology and a random function of `shape` on it. The problem is
/// meant to be valid (PlacementProblem::validate() returns ""); checking
/// that is the caller's business.
Instance randomInstance(Rng &rng, const Shape &shape);

/// A random function built to need group moves: cpu, cuda:0 and cuda:1
/// (host links at 10 GB/s + 10 us, a peer link both ways on a coin flip),
/// `minNodes`..`maxNodes` nodes free on all three devices with times drawn
/// independently per device (100 us to 2 ms), one or two arguments on cpu
/// read by the first nodes, and every node result read by two or three of
/// the next four nodes (fan-out values) or, near the end, returned on cpu.
/// Values of 4 to 12 MB cost about as much to move as a node's time saves,
/// so the optimum often moves a producer together with some of its readers
/// to one device while the others go to another: no single-node move, and
/// often no single expansion, reaches it.
Instance groupMoveInstance(Rng &rng, unsigned minNodes, unsigned maxNodes);

} // namespace fuel::plan::testing

#endif // FUEL_PLANNER_TESTING_RANDOMPLACEMENT_H
