//===- Passes.h - Conversions of the fuel dialect ---------------*- C++ -*-===//
//
// Declarations of the fuel conversions (Passes.td) and of the test passes
// that print a kernel module's assembly, SPIR-V or PTX.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CONVERSION_PASSES_H
#define FUEL_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuel {

#define GEN_PASS_DECL
#include "fuel/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuel/Conversion/Passes.h.inc"

/// Prints the assembly of every cpu kernel module of `root` (in the LLVM
/// dialect), each for the target its schedules were chosen for: the code the
/// executable's shared object holds, before linking. `fuel-compile
/// --emit=asm` and `test-fuel-emit-cpu-asm` print with it.
LogicalResult printCpuKernelsAssembly(ModuleOp root, llvm::raw_ostream &os);

/// Registers `test-fuel-emit-cpu-asm`: prints the assembly of each cpu
/// kernel module (in the LLVM dialect) for its stamped target.
void registerTestFuelEmitCpuAsmPass();

/// test-fuel-emit-spirv{output=FILE}: writes the SPIR-V binary of each
/// vulkan kernel module (after convert-fuel-to-spirv).
void registerTestFuelEmitSpirvPass();

/// test-fuel-emit-ptx{output=FILE}: writes the PTX text of each cuda kernel
/// module (after convert-fuel-to-nvvm).
void registerTestFuelEmitPtxPass();

} // namespace mlir::fuel

#endif // FUEL_CONVERSION_PASSES_H
