//===- ValueFlow.h - Where values live and who reads them -------*- C++ -*-===//
//
// The residency rules of SEMANTICS §5 that placement and copy insertion
// share: the root a reader really needs (views and copies are transparent),
// where a function's arguments live and where its results must end.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_TRANSFORMS_VALUEFLOW_H
#define FUEL_DIALECT_FUEL_TRANSFORMS_VALUEFLOW_H

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Planner/Device.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"

namespace mlir::fuel {

/// The value a reader of `v` really needs: views and `fuel.copy` ops are
/// looked through (SEMANTICS §5: a copy moves the root, views are re-made).
Value rootValue(Value v);

/// Where arguments live and results must end when they carry no
/// `fuel.residency`: the configuration's pinned device, else `cpu`.
::fuel::plan::Device defaultResidency(PlanConfigAttr config);

/// The residency of argument `index` of `func` (its `fuel.residency`, else
/// `fallback`); null device attribute handling is the caller's.
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

#endif // FUEL_DIALECT_FUEL_TRANSFORMS_VALUEFLOW_H
