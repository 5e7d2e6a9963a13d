//===- Passes.h - Lowering passes -------------------------------*- C++ -*-===//
//
// Declarations of the lowering passes (Passes.td) and of the `fuel-lower`
// pipeline, which runs them with the code generation pass and the
// conversions to target code.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LOWERING_PASSES_H
#define FUEL_LOWERING_PASSES_H

#include "fuel/Dialect/Fuel/IR/FuelDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::fuel {

#define GEN_PASS_DECL
#include "fuel/Lowering/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuel/Lowering/Passes.h.inc"

/// One pass of `fuel-lower`: the IR stage after it (docs/ARCHITECTURE.md),
/// its registered name and its constructor (default options).
struct LowerStep {
  const char *stage;
  const char *pass;
  std::unique_ptr<Pass> (*create)();
};

/// The number of passes of `fuel-lower`.
inline constexpr unsigned kNumLowerSteps = 7;

/// The passes of `fuel-lower`, in order: outlined, kernels, bufferized, host,
/// llvm, spirv, ptx.
ArrayRef<LowerStep> getLowerSteps();

/// Adds the first `steps` passes of `fuel-lower` (all by default) to `pm`
/// (anchored on builtin.module): a placed module down to the LLVM-dialect,
/// SPIR-V and PTX stages, before serialization. `cudaToolkit` is
/// convert-fuel-to-nvvm's `cuda-toolkit` ("": none).
void buildLowerPipeline(OpPassManager &pm, unsigned steps = kNumLowerSteps,
                        StringRef cudaToolkit = "");

/// Registers the `fuel-lower` pipeline.
void registerFuelLowerPipeline();

} // namespace mlir::fuel

#endif // FUEL_LOWERING_PASSES_H
