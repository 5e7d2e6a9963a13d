//===- Passes.h - Code generation passes ------------------------*- C++ -*-===//
//
// Declarations of the code generation passes (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_PASSES_H
#define FUEL_CODEGEN_PASSES_H

#include "fuel/Codegen/GPU/GpuMatmul.h"
#include "fuel/Codegen/GPU/GpuRowKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::fuel {

#define GEN_PASS_DECL
#include "fuel/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuel/Codegen/Passes.h.inc"

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_PASSES_H
