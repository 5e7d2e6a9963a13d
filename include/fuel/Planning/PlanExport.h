//===- PlanExport.h - What the plan writers and reader share ----*- C++ -*-===//
//
// The pieces fuel-export-plan, fuel-import-plan and fuel-export-dot share:
// the plan format's version, writing to a file or standard output with
// errors as diagnostics, how a planned node's winner, runner-up and
// satisfied coupling terms are read, and how a copied value is named
// (docs/PLAN-FORMAT.md).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_PLANEXPORT_H
#define FUEL_PLANNING_PLANEXPORT_H

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mlir::fuel {

/// The version of the plan file format (docs/PLAN-FORMAT.md) this build
/// writes. Version 2 added each function's load-time `constants`; version 3
/// the planning `config`, each node's forced `kernel` and each candidate's
/// `revision`.
inline constexpr int64_t kPlanFormatVersion = 3;

/// The oldest version this build reads: fuel-import-plan reads every
/// version from this one to kPlanFormatVersion.
inline constexpr int64_t kPlanFormatOldestVersion = 1;

/// Writes what `write` prints to `file` ("-": standard output), replacing
/// the file only once everything is written. When the file cannot be
/// opened, emits an error at `op` naming `what` (e.g. "plan") and the file,
/// and fails.
LogicalResult writeOutputFile(Operation *op, StringRef file, StringRef what,
                              llvm::function_ref<void(raw_ostream &)> write);

/// The module's `fuel.topology`; when it has none, emits an error at the
/// module saying what the topology is needed `for` (e.g. "to price its
/// copies") and that fuel-attach-topology sets it, and returns null.
TopologyAttr requireTopology(ModuleOp module, StringRef purpose);

/// The candidate a node runs: the first of its alternatives on its
/// placement (the first of all when it is not placed); null when it has no
/// such candidate.
CandidateAttr getWinner(NodeOp node);

/// The candidate after the winner on the winner's device, by the ranked
/// order of the alternatives; null when there is none.
CandidateAttr getRunnerUp(NodeOp node);

/// The placement of each node of `func` by id (null for unplaced nodes).
llvm::DenseMap<int64_t, DeviceAttr> collectPlacements(func::FuncOp func);

/// Σ of the coupling deltas of `winner` whose condition the other node's
/// placement meets (SEMANTICS §5), given every node's placement by id. An
/// adjustment naming an unknown or unplaced node never applies.
int64_t satisfiedCouplingNs(CandidateAttr winner,
                            const llvm::DenseMap<int64_t, DeviceAttr> &placed);

/// How a plan file names a value (docs/PLAN-FORMAT.md).
struct ValueName {
  enum class Kind { Argument, Node, HostOp };
  Kind kind = Kind::Argument;
  /// The argument number, the node id, or the host op's position (its index
  /// among the top-level ops of the function's body, counting every op).
  int64_t index = 0;
  /// The result number; 0 for arguments.
  unsigned result = 0;
};

/// Names `value`, which must be an argument of the function's body or a
/// result of one of its top-level ops; `positions` maps each top-level op
/// to its position.
ValueName nameValue(Value value,
                    const llvm::DenseMap<Operation *, int64_t> &positions);

/// The position of each top-level op of `func`'s body.
llvm::DenseMap<Operation *, int64_t> topLevelPositions(func::FuncOp func);

} // namespace mlir::fuel

#endif // FUEL_PLANNING_PLANEXPORT_H
