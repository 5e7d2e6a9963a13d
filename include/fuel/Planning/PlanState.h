//===- PlanState.h - What planning passes share -----------------*- C++ -*-===//
//
// The glue between the IR and the IR-free planner: reading the topology and
// configuration stamped on a module, translating candidates and decision
// contexts between their attributes and fuel::plan structs, and turning
// planner errors into diagnostics at the offending op.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_PLANSTATE_H
#define FUEL_PLANNING_PLANSTATE_H

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Candidate.h"
#include "fuel/Planner/Topology.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace mlir::fuel {

/// The planning inputs stamped on a module by fuel-attach-topology.
struct PlanContext {
  TopologyAttr topologyAttr;
  PlanConfigAttr config;
  /// The topology as the planner's struct.
  ::fuel::plan::Topology topology;
  /// The topology's devices in device order.
  std::vector<::fuel::plan::Device> devices;
};

/// Reads `fuel.topology` and `fuel.config` from the module enclosing `op`.
/// When one is missing, emits an error at `op` that names it and says that
/// fuel-attach-topology (or fuel-plan) sets it, and fails.
FailureOr<PlanContext> readPlanContext(Operation *op);

/// The opening of every planning function pass's run: readPlanContext of
/// `func`, or std::nullopt when the pass has nothing to do. That is when
/// `func` has nothing to plan (a declaration, or no node), and when the
/// module lacks its topology or configuration: then readPlanContext has
/// emitted its diagnostic and `signalFailure` (the pass's
/// signalPassFailure) has been called.
std::optional<PlanContext>
planContextFor(func::FuncOp func, llvm::function_ref<void()> signalFailure);

/// A coupling adjustment (its `on` device, if any, is the caller's).
::fuel::plan::CouplingAdjustment toPlan(CouplingAttr attr);

/// Candidate conversions. Op params are strings on both sides.
::fuel::plan::Candidate toPlan(CandidateAttr attr);
CandidateAttr fromPlan(MLIRContext *ctx, const ::fuel::plan::Candidate &c);

/// The candidates of an alternative set, in order.
std::vector<::fuel::plan::Candidate> toPlan(AlternativeSetAttr set);

/// Builds an alternative set; `candidates` must not be empty.
AlternativeSetAttr buildAlternatives(MLIRContext *ctx, DecisionAttr decision,
                                     ArrayRef<::fuel::plan::Candidate> cands);

/// The decision context of a decision attribute.
::fuel::plan::DecisionContext toPlan(DecisionAttr attr);

/// Emits `error` (a PlanError or any llvm::Error) at `op`, after `prefix`
/// (e.g. "node 3 (matmul): "), and fails.
LogicalResult emitPlanError(Operation *op, llvm::Error error,
                            StringRef prefix = "");

/// An error (or remark) about a whole function, at its location. Unlike
/// `func.emitError()`, it never attaches the function's text to the
/// diagnostic (`-mlir-print-op-on-diagnostic`), which for a planned model
/// would print every one of its nodes.
InFlightDiagnostic emitFunctionError(Operation *func);
InFlightDiagnostic emitFunctionRemark(Operation *func);

/// The node's alternative set; when it has none, emits an error at the node
/// saying that phase A must run first, and returns null.
AlternativeSetAttr requireAlternatives(NodeOp node);

/// "node 3 (matmul)": how diagnostics and remarks name a node.
std::string describeNode(NodeOp node);

} // namespace mlir::fuel

#endif // FUEL_PLANNING_PLANSTATE_H
