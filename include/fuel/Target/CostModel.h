//===- CostModel.h - Per-op-kind static cost functions ----------*- C++ -*-===//
//
// The cost functions the kernel registry names: for one invocation of a
// kernel, the floating-point operations and the bytes it moves, as functions
// of the op kind's shape figures and op params. They feed the Layer-1 kernel
// time of SEMANTICS §3 step 6 (FMA = 2 flops, matmul 2·M·N·K). Every function
// is monotone non-decreasing in every dimension (a property the unit tests
// check) and saturates at UINT64_MAX instead of wrapping. docs/KERNELS.md
// derives each formula.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_COSTMODEL_H
#define FUEL_TARGET_COSTMODEL_H

#include "fuel/Planner/OpKind.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace fuel::target {

/// Flops and bytes of one kernel invocation (the static part of a candidate's
/// cost, SEMANTICS §1).
struct StaticCost {
  uint64_t flops = 0;
  uint64_t bytes = 0;

  friend bool operator==(const StaticCost &a, const StaticCost &b) {
    return a.flops == b.flops && a.bytes == b.bytes;
  }
  friend bool operator!=(const StaticCost &a, const StaticCost &b) {
    return !(a == b);
  }
};

/// The shape figures and op params a cost function reads.
struct CostQuery {
  /// Dimension values, in the order costDimensionNames() gives for the cost
  /// function's op kind. Zero is allowed (an empty tensor costs nothing).
  llvm::SmallVector<uint64_t, 8> dims;
  /// Storage size of the principal dtype's elements, in bytes.
  uint64_t elementBytes = 4;
  /// The op param that selects the per-element work: the elementwise function
  /// ("add", "exp", ...), the reduce combiner ("add", "max", "mean", ...) or
  /// the pool kind ("max", "avg", ...). Empty selects the cheapest reading.
  std::string function;
  /// conv2d strides and dilations; they size the input image that a given
  /// output needs. Zero is read as 1.
  uint64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
};

/// A registered cost function: its registry name, the op kind it prices and
/// the names of the dimensions it reads.
struct CostFunctionInfo {
  llvm::StringLiteral name;
  plan::OpKind kind;
  llvm::ArrayRef<llvm::StringLiteral> dims;
  StaticCost (*evaluate)(const CostQuery &query);
};

/// Every cost function, one per op kind, in op kind order. Each is named after
/// its op kind ("matmul", "conv2d", ...).
llvm::ArrayRef<CostFunctionInfo> allCostFunctions();

/// The cost function called `name`, or nullptr.
const CostFunctionInfo *lookupCostFunction(llvm::StringRef name);

/// The dimension names of `kind`'s cost function, e.g. {"M", "N", "K"} for
/// matmul.
llvm::ArrayRef<llvm::StringLiteral> costDimensionNames(plan::OpKind kind);

/// Evaluates cost function `name` on `query`. Fails when the function is
/// unknown or the query has the wrong number of dimensions.
llvm::Expected<StaticCost> evaluateCost(llvm::StringRef name,
                                        const CostQuery &query);

/// Flops per output element of an elementwise function: 1 for arithmetic,
/// comparison and selection ("add", "max", "select", ...), 2 for "fma", 8 for
/// transcendentals ("exp", "tanh", ...), 0 for data movement ("copy"). An
/// unknown or empty name counts 1.
uint64_t elementwiseFlopsPerElement(llvm::StringRef function);

} // namespace fuel::target

#endif // FUEL_TARGET_COSTMODEL_H
