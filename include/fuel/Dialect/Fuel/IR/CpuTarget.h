//===- CpuTarget.h - The cpu target a planned module names ------*- C++ -*-===//
//
// The code-generation target of the host's kernels, as the module's
// `fuel.topology` records it (`cpu_target` on the `cpu` device,
// docs/TOPOLOGY.md). The CPU code generator reads it through this accessor;
// a module whose topology names no target is compiled for the compiling
// host.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_CPUTARGET_H
#define FUEL_DIALECT_FUEL_IR_CPUTARGET_H

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::fuel {

/// The (LLVM CPU name, LLVM target features) of the `cpu` device of the
/// module's `fuel.topology`, e.g. ("znver3", "+avx2,+fma"); the features may
/// be empty. std::nullopt when the module has no topology or its host names
/// no cpu_target. Only the syntax has been checked (the topology's
/// verifier); whether LLVM knows the names is the code generator's to check.
std::optional<std::pair<std::string, std::string>>
getCpuTarget(ModuleOp module);

} // namespace mlir::fuel

#endif // FUEL_DIALECT_FUEL_IR_CPUTARGET_H
