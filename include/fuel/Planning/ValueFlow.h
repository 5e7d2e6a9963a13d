//===- ValueFlow.h - Where values live and who reads them -------*- C++ -*-===//
//
// The one model of a planned function's data flow (SEMANTICS §4, §5):
// what each top-level op is (node, view, copy, constant, return or host op),
// which root values the function has (arguments, node results, host-op
// results, load-time constants), where each lives, and every read of a root
// with the device it is read on and the views and copies between the root
// and the reader. Placement, copy insertion, the plan writers and the
// drawing read the function through collectFlow(), so they agree on who
// reads what where; the lowering is meant to read it the same way.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_VALUEFLOW_H
#define FUEL_PLANNING_VALUEFLOW_H

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Device.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::fuel {

/// What a top-level op of a function body is to the value flow.
enum class FlowOpKind : uint8_t {
  /// A `fuel.node`: runs on its placement and reads its operands there.
  Node,
  /// A view (SEMANTICS §4): transparent, re-made where it is read.
  View,
  /// A `fuel.copy`: transparent, a copy moves its root.
  Copy,
  /// An `arith.constant`. A tensor one is load-time data (SEMANTICS §5).
  Constant,
  /// The `func.return`: reads each result on its result residency.
  Return,
  /// Any other op (`func.call`, unrecognised ops, an init op no node
  /// cloned): runs on `cpu` and reads and makes its tensors there.
  Host,
};

/// The kind of `op`, a top-level op of a function body after
/// fuel-form-nodes. Before node formation a kernel-bearing op is a Host op
/// by this rule; fuel-form-nodes classifies those first.
FlowOpKind classifyFlowOp(Operation *op);

/// Where a root value comes from.
enum class RootKind : uint8_t {
  /// A function argument: lives on its residency.
  Argument,
  /// A node result: lives on the node's placement.
  Node,
  /// A host-op result: lives on `cpu`.
  Host,
  /// A tensor `arith.constant` (a splat nobody cloned, a non-splat dense
  /// tensor or a `dense_resource` blob): load-time data, on every device
  /// that reads it, never copied (SEMANTICS §5, §8).
  Constant,
};

/// The value `v` is read from and the ops in between: views and `fuel.copy`
/// ops are looked through (SEMANTICS §5: a copy moves the root, views are
/// re-made).
struct FlowTrace {
  Value root;
  /// The views and copies from the root to `v`, root-most first (the op
  /// defining `v` last); empty when `v` is the root.
  SmallVector<Operation *, 2> chain;
};

/// Traces `v` back to its root.
FlowTrace traceToRoot(Value v);

/// The value a reader of `v` really needs: traceToRoot(v).root.
Value rootValue(Value v);

/// One read of a root value: a tensor operand of a node, host op or return.
struct FlowReader {
  /// The operand.
  OpOperand *use = nullptr;
  /// What reads it: Node, Host or Return.
  FlowOpKind reader = FlowOpKind::Host;
  /// The reading node when `reader` is Node, else null.
  NodeOp node;
  /// The index of the root it reads in ValueFlow::roots.
  unsigned root = 0;
  /// The device the operand is read on: the node's placement (std::nullopt
  /// while the node is not placed), `cpu` for a host op, the result's
  /// residency for a return.
  std::optional<::fuel::plan::Device> device;
  /// The views and copies between the root and the operand, root-most
  /// first.
  SmallVector<Operation *, 2> chain;
};

/// A value copies could move: a tensor argument or result of a top-level
/// op other than a view or copy.
struct FlowRoot {
  Value value;
  RootKind kind = RootKind::Argument;
  /// The producing node when `kind` is Node, else null.
  NodeOp node;
  /// Size in bytes (valueBytes of its type).
  uint64_t bytes = 0;
  /// Where it lives: an argument's residency, a node's placement
  /// (std::nullopt while not placed), `cpu` for a host-op result;
  /// std::nullopt for a constant, which lives on each device reading it.
  std::optional<::fuel::plan::Device> device;
  /// Its reads, as indices into ValueFlow::readers, in program order.
  SmallVector<unsigned, 2> readers;
};

/// The value flow of one function body: plain data, valid until the IR it
/// describes changes.
struct ValueFlow {
  /// Every top-level op's kind, by op.
  llvm::DenseMap<Operation *, FlowOpKind> kinds;
  /// The nodes, in program order.
  SmallVector<NodeOp> nodes;
  /// Tensor roots in program order: the arguments, then op results; roots
  /// nobody reads are listed too.
  std::vector<FlowRoot> roots;
  /// Every read of a root, in program order (by reading op, then operand).
  /// Scalars travel by value and are never read here.
  std::vector<FlowReader> readers;
  /// The index of each root in `roots`.
  llvm::DenseMap<Value, unsigned> rootIndex;

  /// The root `v` is, or nullptr when `v` is no root.
  const FlowRoot *lookup(Value v) const;
  /// The distinct devices the reads of `root` are on, in device order
  /// (reads without a device are left out).
  SmallVector<::fuel::plan::Device, 4> readDevices(const FlowRoot &root) const;
};

/// Collects the value flow of `func`'s body (a single block). Arguments and
/// results without a `fuel.residency` take defaultResidency of the module's
/// `fuel.config`. Residencies are not checked here: see verifyResidencies.
ValueFlow collectFlow(func::FuncOp func);

/// Where arguments live and results must end when they carry no
/// `fuel.residency`: the configuration's pinned device, else `cpu` (also
/// when `config` is null).
::fuel::plan::Device defaultResidency(PlanConfigAttr config);

/// The residency of argument `index` of `func` (its `fuel.residency`, else
/// `fallback`).
::fuel::plan::Device argumentResidency(func::FuncOp func, unsigned index,
                                       ::fuel::plan::Device fallback);

/// The residency result `index` of `func` must end on.
::fuel::plan::Device resultResidency(func::FuncOp func, unsigned index,
                                     ::fuel::plan::Device fallback);

/// Checks that every `fuel.residency` of `func` names a device of
/// `devices`; emits an error at the function naming the first that does
/// not.
LogicalResult verifyResidencies(func::FuncOp func,
                                ArrayRef<::fuel::plan::Device> devices);

} // namespace mlir::fuel

#endif // FUEL_PLANNING_VALUEFLOW_H
