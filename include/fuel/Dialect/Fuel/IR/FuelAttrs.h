//===- FuelAttrs.h - Attributes of the fuel dialect -------------*- C++ -*-===//
//
// Enums, the placement interface and the attributes of the fuel dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELATTRS_H
#define FUEL_DIALECT_FUEL_IR_FUELATTRS_H

#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Planner/Precision.h"
#include "fuel/Planner/Topology.h"
#include "fuel/Support/Device.h"
#include "fuel/Support/OpKind.h"
#include "fuel/Target/KernelRegistry.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include <optional>

#include "fuel/Dialect/Fuel/IR/FuelEnums.h.inc"

#include "fuel/Dialect/Fuel/IR/FuelAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fuel/Dialect/Fuel/IR/FuelAttrs.h.inc"

namespace mlir::fuel {

/// Converts between the dialect's device kind and fuel/Support's (which the
/// planner calls plan::DeviceKind).
::fuel::DeviceKind toPlan(DeviceKind kind);
DeviceKind fromPlan(::fuel::DeviceKind kind);
/// Converts between the dialect's op kind and fuel/Support's (which the
/// planner calls plan::OpKind).
::fuel::OpKind toPlan(OpKind kind);
OpKind fromPlan(::fuel::OpKind kind);
/// Converts between `#fuel.device` and the planner's device identity.
::fuel::plan::Device toPlan(DeviceAttr device);
DeviceAttr fromPlan(MLIRContext *ctx, ::fuel::plan::Device device);

/// Parses an op kind keyword (`matmul`, `conv2d`, ...); the error lists the
/// kinds.
ParseResult parseOpKindKeyword(AsmParser &parser, OpKind &kind);
/// Parses a backend keyword: `cpu`, `cuda` or `vulkan`.
ParseResult parseBackendKeyword(AsmParser &parser, DeviceKind &kind);

} // namespace mlir::fuel

#endif // FUEL_DIALECT_FUEL_IR_FUELATTRS_H
