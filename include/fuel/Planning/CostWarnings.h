//===- CostWarnings.h - What fuel-annotate-costs warns of -------*- C++ -*-===//
//
// The warnings of SEMANTICS §3 steps 6 and 7 that fuel-annotate-costs finds
// in a function: the prior rates it priced with, and the nodes whose
// measurements a profile holds only under other pool sizes than the plan's.
// The pass warns of them per function, or, with `defer-warnings`, records
// them on the function as `fuel.cost_warnings`, which fuel-warn-costs reads
// back, merges across the module and warns of once (docs/FuelPlanningPasses.md
// shows the attribute).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_COSTWARNINGS_H
#define FUEL_PLANNING_COSTWARNINGS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::fuel {

/// The discardable function attribute that carries a function's deferred
/// cost warnings from fuel-annotate-costs to fuel-warn-costs.
inline constexpr llvm::StringLiteral kCostWarningsAttrName =
    "fuel.cost_warnings";

/// What fuel-annotate-costs warns of for a function or, merged in function
/// order, for a module.
struct CostWarnings {
  /// A (device, dtype) priced with a prior rate: its describePriors line,
  /// at the first node priced with it.
  struct Prior {
    std::string warning;
    LocationAttr at;
  };

  /// The nodes whose measurements `profile` holds only under other pool
  /// sizes than `profileThreads`, the pool size planned for.
  struct ProfileMisses {
    std::string profile;
    int64_t profileThreads = 1;
    /// Nodes with a candidate held only under other pool sizes.
    uint64_t nodes = 0;
    /// Per pool size, the nodes with a missed candidate held under it.
    std::map<int64_t, uint64_t> nodesPerPoolSize;
    /// The first such node, where the warning points.
    LocationAttr at;
  };

  /// Distinct warnings, in the order first met.
  std::vector<Prior> priors;
  /// One per (profile, profileThreads), in the order first met.
  std::vector<ProfileMisses> misses;

  /// Whether there is nothing to warn of.
  bool empty() const { return priors.empty() && misses.empty(); }

  /// Notes `warning` at `at` unless it is noted already.
  void addPrior(StringRef warning, LocationAttr at);

  /// Adds `found` (nodes > 0) to the misses of the same profile and pool
  /// size, keeping the earlier location, or appends it.
  void addMisses(const ProfileMisses &found);

  /// Adds `other` (a later function's) to these.
  void merge(const CostWarnings &other);

  /// One warning per prior, in order.
  void warnPriors() const;

  /// One warning per profile misses entry: its pool sizes and the setting
  /// that would use them (the pool size most nodes were measured under;
  /// ties: the smallest).
  void warnMisses() const;

  /// The priors, then the misses. Returns the number of warnings emitted.
  unsigned warn() const;

  /// These as the value of `fuel.cost_warnings`: a dictionary with
  /// `priors`, a list of {at, warning}, and `profile_misses`, a list of
  /// {at, nodes, nodes_per_pool_size, pool_sizes, profile,
  /// profile_threads}; an empty list is left out.
  DictionaryAttr toAttr(MLIRContext *ctx) const;

  /// Reads a `fuel.cost_warnings` value written by toAttr (or by hand);
  /// anything else is reported through `emitError` and fails.
  static FailureOr<CostWarnings>
  fromAttr(Attribute attr, function_ref<InFlightDiagnostic()> emitError);
};

} // namespace mlir::fuel

#endif // FUEL_PLANNING_COSTWARNINGS_H
