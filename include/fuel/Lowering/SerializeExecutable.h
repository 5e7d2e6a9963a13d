//===- SerializeExecutable.h - Serialization with a report ------*- C++ -*-===//
//
// fuel-serialize-executable (Passes.td) as a function that returns the
// executable's bytes, and as the pass for a caller that reports on it or
// keeps the bytes in memory: fuel-compile's --mlir-timing shows the pass's
// steps nested in it, --compile-stats prints what it compiled and how long
// each step took (docs/FUEL-COMPILE.md, "Where the time goes"), and the
// compile API (fuel/Compiler/Compiler.h) returns the bytes.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LOWERING_SERIALIZEEXECUTABLE_H
#define FUEL_LOWERING_SERIALIZEEXECUTABLE_H

#include "fuel/Codegen/CPU/CompileStats.h"
#include "fuel/Lowering/Passes.h"

#include "mlir/Support/Timing.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace mlir::fuel {

/// The executable (docs/EXECUTABLE-FORMAT.md) of `module`, a module at the
/// LLVM stage with one `fuel.program`: what fuel-serialize-executable
/// writes. The steps are timed nested in `timing` ("kernel modules" with
/// the object steps, "buffers and commands", "write"; an empty timer times
/// nothing). Counts and wall seconds go to `stats` when it is not null.
/// Errors are reported at the offending op; the IR is not changed.
FailureOr<std::vector<uint8_t>>
serializeExecutable(ModuleOp module, Timer timing = {},
                    SerializeStats *stats = nullptr);

/// fuel-serialize-executable with `options`. `passTimers` is the timer the
/// pass manager's timing nests top-level passes in (the scope given to
/// PassManager::enableTiming): the pass nests its steps in its own timer
/// there; an empty timer times nothing. Counts and wall seconds go to
/// `stats` when it is not null; it must outlive the pass run.
std::unique_ptr<Pass>
createFuelSerializeExecutablePass(FuelSerializeExecutablePassOptions options,
                                  Timer passTimers, SerializeStats *stats);

/// fuel-serialize-executable that stores the bytes in `*bytes` instead of
/// writing a file; the rest as above. `bytes` must outlive the pass run.
std::unique_ptr<Pass>
createFuelSerializeExecutablePass(std::vector<uint8_t> *bytes, Timer passTimers,
                                  SerializeStats *stats);

} // namespace mlir::fuel

#endif // FUEL_LOWERING_SERIALIZEEXECUTABLE_H
