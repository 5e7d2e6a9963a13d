//===- FuelDialect.h - The fuel dialect -------------------------*- C++ -*-===//
//
// Declares the fuel dialect. Include FuelOps.h for the ops and attributes.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELDIALECT_H
#define FUEL_DIALECT_FUEL_IR_FUELDIALECT_H

#include "mlir/IR/Dialect.h"

#include <string>

namespace fuel::target {
class KernelRegistry;
} // namespace fuel::target

#include "fuel/Dialect/Fuel/IR/FuelDialect.h.inc"

namespace mlir::fuel {
/// Checks that `id` has the shape of a registry kernel id (SEMANTICS §1,
/// docs/KERNELS.md): `<backend>.<source>.<op kind>_<suffix>` with a known
/// backend (cpu, cuda, vulkan), a known kernel source, a known op kind and a
/// suffix of [a-z0-9_]. Whether such a kernel is registered is enumeration's
/// question. On failure reports through `emitError` and fails.
LogicalResult verifyKernelIdShape(function_ref<InFlightDiagnostic()> emitError,
                                  StringRef id);
/// The same check without a diagnostic: an empty string when `id` has the
/// shape, otherwise the message verifyKernelIdShape reports.
std::string kernelIdShapeProblem(StringRef id);
} // namespace mlir::fuel

#endif // FUEL_DIALECT_FUEL_IR_FUELDIALECT_H
