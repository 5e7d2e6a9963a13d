//===- NodeAnalysis.h - What the planner knows about an op ------*- C++ -*-===//
//
// The IR side of SEMANTICS §4: which ops are kernel-bearing and of which op
// kind, their shape figures (size class and cost function inputs), op params
// and dtypes key; which ops are views and whether a view keeps its operand
// contiguous. Node formation and every phase-A pass read IR through these
// functions, so the classification lives in one place.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_NODEANALYSIS_H
#define FUEL_PLANNING_NODEANALYSIS_H

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/OpKind.h"
#include "fuel/Planner/SizeClass.h"
#include "fuel/Target/CostModel.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::fuel {

/// The planner's view of one kernel-bearing op.
struct NodeFacts {
  ::fuel::plan::OpKind kind = ::fuel::plan::OpKind::Generic;
  /// Shape figures in the order ::fuel::plan::sizeClass() reads them.
  SmallVector<uint64_t, 8> sizeFigures;
  /// Dimensions, element size and function for the registry's cost
  /// function of `kind` (CostModel.h).
  ::fuel::target::CostQuery costQuery;
  /// Op params, sorted by key: `fn` (elementwise function), `combiner`
  /// (reduce), `pool` (pool kind), `strides` and `dilations` (conv2d,
  /// pool), `dimension` (softmax), `permutation` (transpose).
  SmallVector<std::pair<std::string, std::string>, 2> params;
  /// Element types of the inputs, then of the outputs (SEMANTICS §4).
  ::fuel::plan::DtypesKey dtypes;
  /// The principal element type (the first input's, else the first
  /// result's), as the decision context records it.
  Type principalType;

  /// The size class of SEMANTICS §4.
  uint32_t sizeClass() const;
};

/// The op kind of `op` when it is kernel-bearing (SEMANTICS §4): a linalg op
/// on tensors or `linalg.softmax`; std::nullopt otherwise. `linalg.fill`
/// classifies as elementwise; whether it is an init instead is the caller's
/// decision.
std::optional<::fuel::plan::OpKind> classifyKernelOp(Operation *op);

/// True when `op` is kernel-bearing: the same ops classifyKernelOp gives a
/// kind, without classifying them (cheap; no interface analysis).
bool isKernelBearing(Operation *op);

/// True for the named pooling ops (`linalg.pooling_*`), whose second input
/// is a shape-only window tensor.
bool isPoolingOp(Operation *op);

/// Computes the facts of a kernel-bearing op with static shapes. Fails,
/// without a diagnostic, when `op` is not kernel-bearing or has a dynamic
/// dimension.
FailureOr<NodeFacts> analyzeKernelOp(Operation *op);

/// The same, for an op already known to be of kind `kind` (a node's root,
/// classified when the node was formed and checked by enumeration): skips
/// the classification.
FailureOr<NodeFacts> analyzeKernelOp(Operation *op, ::fuel::plan::OpKind kind);

/// The root op of a node: the producer of the first yielded value, or null
/// when the node yields a block argument or nothing.
Operation *getNodeRoot(NodeOp node);

/// True for the views of SEMANTICS §4: tensor.extract_slice, expand_shape,
/// collapse_shape, cast and reshape.
bool isViewOp(Operation *op);

/// The value a view reads (its source), or null when `op` is not a view.
Value getViewSource(Operation *op);

/// True when `value` reaches its reader through a view that is not a
/// contiguous reshape: a chain of views (looking through `fuel.copy`)
/// containing a `tensor.extract_slice` with a non-unit or dynamic stride, a
/// dynamic offset or size, or a slice that is not one contiguous block.
bool isNonContiguous(Value value);

/// True when `op` is a `tensor.extract_slice` that does not read one
/// contiguous block of its row-major source (the slices isNonContiguous
/// looks for).
bool isStridedSlice(Operation *op);

/// The element type spelling the registry and the decision context use,
/// e.g. "f32", "i8".
std::string dtypeName(Type type);

/// Bytes of a statically shaped tensor (elements times the element size in
/// bytes, rounded up); scalars count their own size. Saturates.
uint64_t valueBytes(Type type);

} // namespace mlir::fuel

#endif // FUEL_PLANNING_NODEANALYSIS_H
