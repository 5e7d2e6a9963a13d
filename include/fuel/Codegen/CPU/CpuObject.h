//===- CpuObject.h - Kernel shared objects ----------------------*- C++ -*-===//
//
// The one step that turns an executable's kernel module, in the LLVM
// dialect, into the ELF shared object the runtime loads: LLVM IR,
// llvm::TargetMachine, object code and an in-process link with lld. No
// subprocess runs. The target is resolved by
// include/fuel/Target/Cpu/CpuTarget.h.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_CPU_CPUOBJECT_H
#define FUEL_CODEGEN_CPU_CPUOBJECT_H

#include "fuel/Codegen/CPU/CompileStats.h"
#include "fuel/Target/Cpu/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::fuel {

/// Compiles `llvmModule` (LLVM dialect only) for `target` and links it into
/// one ELF shared object; the bytes, or an error emitted at the module (a
/// guard failure names the kernel). A module of more than 7 kernels is
/// optimised and compiled in parts (one per 4 kernels, at most 8) in
/// parallel on the MLIR context's threads, then linked in part order: the
/// bytes depend on the module alone. With `timing`, its steps are timers
/// nested in it ("translate to LLVM IR", "LLVM O3", "LLVM code generation",
/// "link"); with `times`, their wall seconds are added there.
FailureOr<std::vector<uint8_t>>
emitCpuSharedObject(ModuleOp llvmModule, const CpuTargetSpec &target,
                    Timer timing = {}, CpuObjectTimes *times = nullptr);

/// The assembly `llvmModule` compiles to for `target` (the same optimised
/// code emitCpuSharedObject links); for tests and inspection.
FailureOr<std::string> emitCpuAssembly(ModuleOp llvmModule,
                                       const CpuTargetSpec &target);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_CPU_CPUOBJECT_H
