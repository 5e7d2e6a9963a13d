//===- FuelOps.h - Operations of the fuel dialect ---------------*- C++ -*-===//
//
// The ops of the fuel dialect: `fuel.node`, `fuel.yield` and `fuel.copy`.
// Including this header gives the dialect, its attributes and its ops.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELOPS_H
#define FUEL_DIALECT_FUEL_IR_FUELOPS_H

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::fuel {
class YieldOp;
} // namespace mlir::fuel

#define GET_OP_CLASSES
#include "fuel/Dialect/Fuel/IR/FuelOps.h.inc"

#endif // FUEL_DIALECT_FUEL_IR_FUELOPS_H
