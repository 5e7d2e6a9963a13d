//===- CompileStats.h - What serialization compiled, how long ---*- C++ -*-===//
//
// Counts and wall times the object step (CpuObject.h) and
// fuel-serialize-executable report to a tool that asks for them
// (fuel-compile --compile-stats, docs/FUEL-COMPILE.md). Plain data: no LLVM or
// MLIR header.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_CPU_COMPILESTATS_H
#define FUEL_CODEGEN_CPU_COMPILESTATS_H

namespace mlir::fuel {

/// Wall seconds of the parts of the object step, summed over the kernel
/// modules compiled.
struct CpuObjectTimes {
  /// The LLVM dialect to LLVM IR.
  double translate = 0;
  /// LLVM's O3 pipeline.
  double optimize = 0;
  /// Instruction selection to object code.
  double codegen = 0;
  /// lld, reading the shared object back and checking its symbols.
  double link = 0;
  /// The parts the kernel modules were optimised and compiled in, in
  /// parallel (one LLVM module each).
  unsigned parts = 0;
};

/// What fuel-serialize-executable wrote, and where its time went.
struct SerializeStats {
  /// Distinct kernels: generated ones (entries of the kernel modules) and
  /// library ones.
  unsigned generatedKernels = 0, libraryKernels = 0;
  /// Kernel modules, one shared object each.
  unsigned modules = 0;
  /// The program's commands: kernel launches and copies.
  unsigned launches = 0, transfers = 0;
  CpuObjectTimes object;
  /// The whole pass, object step included.
  double seconds = 0;
};

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_CPU_COMPILESTATS_H
