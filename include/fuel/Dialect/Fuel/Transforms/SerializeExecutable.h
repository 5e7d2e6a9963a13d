//===- SerializeExecutable.h - Serialization with a report ------*- C++ -*-===//
//
// fuel-serialize-executable (Passes.td) for a tool that reports on it:
// fuel-compile's --mlir-timing shows the pass's steps nested in it, and
// --compile-stats prints what it compiled and how long each step took
// (docs/FUEL-COMPILE.md, "Where the time goes").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_TRANSFORMS_SERIALIZEEXECUTABLE_H
#define FUEL_DIALECT_FUEL_TRANSFORMS_SERIALIZEEXECUTABLE_H

#include "fuel/Conversion/FuelToLLVM/CompileStats.h"
#include "fuel/Dialect/Fuel/Transforms/Passes.h"

#include "mlir/Support/Timing.h"

#include <memory>

namespace mlir::fuel {

/// fuel-serialize-executable with `options`. `passTimers` is the timer the
/// pass manager's timing nests top-level passes in (the scope given to
/// PassManager::enableTiming): the pass nests its steps in its own timer
/// there ("kernel modules" with the object steps, "buffers and commands",
/// "write"); an empty timer times nothing. Counts and wall seconds go to
/// `stats` when it is not null; it must outlive the pass run.
std::unique_ptr<Pass>
createFuelSerializeExecutablePass(FuelSerializeExecutablePassOptions options,
                                  Timer passTimers, SerializeStats *stats);

} // namespace mlir::fuel

#endif // FUEL_DIALECT_FUEL_TRANSFORMS_SERIALIZEEXECUTABLE_H
