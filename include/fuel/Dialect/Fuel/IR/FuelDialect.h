//===- FuelDialect.h - The fuel dialect -------------------------*- C++ -*-===//
//
// Declares the fuel dialect. Include FuelOps.h for the ops and attributes.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELDIALECT_H
#define FUEL_DIALECT_FUEL_IR_FUELDIALECT_H

#include "mlir/IR/Dialect.h"

namespace fuel::target {
class KernelRegistry;
} // namespace fuel::target

#include "fuel/Dialect/Fuel/IR/FuelDialect.h.inc"

#endif // FUEL_DIALECT_FUEL_IR_FUELDIALECT_H
