//===- FuelOps.h - Operations of the fuel dialect ---------------*- C++ -*-===//
//
// The ops of the fuel dialect: `fuel.node`, `fuel.yield` and `fuel.copy` of
// the planned stage; `fuel.executable`, `fuel.library_kernel` and
// `fuel.dispatch` of the outlined stage. Including this header gives the
// dialect, its attributes and its ops.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELOPS_H
#define FUEL_DIALECT_FUEL_IR_FUELOPS_H

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::fuel {
class YieldOp;
class ExecutableOp;

/// The attributes of a generated kernel function (a `func.func` in a
/// `fuel.executable`'s kernel module).
namespace kernel_attr {
/// The registry kernel id (string).
inline constexpr llvm::StringLiteral kKernelId = "fuel.kernel_id";
/// The op kind (string), or "host" for a host op compiled as a kernel.
inline constexpr llvm::StringLiteral kOpKind = "fuel.op_kind";
/// The kernel's revision (i64: the 64-bit revision's bits).
inline constexpr llvm::StringLiteral kRevision = "fuel.revision";
/// The schedule file (string, the registry record's `lowering`).
inline constexpr llvm::StringLiteral kSchedule = "fuel.schedule";
/// The workgroup grid (array<i64: x, y, z>), set by scheduling.
inline constexpr llvm::StringLiteral kWorkgroups = "fuel.workgroups";
/// Scratch per worker in bytes (i64), set by scheduling.
inline constexpr llvm::StringLiteral kWorkspaceBytes = "fuel.workspace_bytes";
/// Per result, the input binding the kernel may overwrite in place (its
/// result shares that operand's bytes when this read is the operand's last),
/// or -1 (array<i64>, one entry per result); read by fuel-plan-buffers.
inline constexpr llvm::StringLiteral kInPlace = "fuel.in_place";
/// On a cpu kernel module: the target it is compiled for, a dictionary
/// {triple, cpu, features} of strings (set by fuel-apply-schedules).
inline constexpr llvm::StringLiteral kCpuTarget = "fuel.cpu_target";
/// On a kernel's ABI entry: the function holding the kernel's body.
inline constexpr llvm::StringLiteral kKernelBody = "fuel.kernel_body";
/// On an argument of a schedule's named sequence: the shape parameter the
/// driver binds to it (docs/CPU-CODEGEN.md, "Schedule files").
inline constexpr llvm::StringLiteral kScheduleParam = "fuel.param";
/// On a schedule's named sequence: the panel width P (i64) of the packed-B
/// form the driver gives a matmul or batch_matmul kernel whose N is a
/// multiple of P (docs/CPU-CODEGEN.md, "Packed B panels").
inline constexpr llvm::StringLiteral kSchedulePackB = "fuel.pack_b";
/// On a schedule's named sequence with `fuel.pack_b` (unit): pack only a B
/// that every dispatch binds as a constant (packed at compile time); a B
/// read at run time keeps its layout.
inline constexpr llvm::StringLiteral kSchedulePackBIfConstant =
    "fuel.pack_b_if_constant";
} // namespace kernel_attr
} // namespace mlir::fuel

#define GET_OP_CLASSES
#include "fuel/Dialect/Fuel/IR/FuelOps.h.inc"

#endif // FUEL_DIALECT_FUEL_IR_FUELOPS_H
