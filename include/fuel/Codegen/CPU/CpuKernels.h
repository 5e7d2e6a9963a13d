//===- CpuKernels.h - The generated kernels of cpu executables --*- C++ -*-===//
//
// What the CPU code-generation passes (fuel-apply-schedules,
// fuel-bufferize-kernels, convert-fuel-to-llvm) share: finding the kernel
// modules of the cpu executables, naming a kernel in a diagnostic, the
// workgroup loop of a kernel and the schedule files built into fuel.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_CPU_CPUKERNELS_H
#define FUEL_CODEGEN_CPU_CPUKERNELS_H

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir::scf {
class ForallOp;
} // namespace mlir::scf

namespace mlir::fuel {

/// The kernel modules of `root`'s cpu executables, in program order; an
/// executable without generated kernels contributes none.
SmallVector<ModuleOp> getCpuKernelModules(ModuleOp root);

/// The kernel modules of `root`'s vulkan executables, in program order.
SmallVector<ModuleOp> getVulkanKernelModules(ModuleOp root);

/// The kernel modules of `root`'s cuda executables, in program order.
SmallVector<ModuleOp> getCudaKernelModules(ModuleOp root);

/// The generated kernels of a kernel module: its functions with a
/// `fuel.kernel_id`, in order.
SmallVector<func::FuncOp> getKernelFuncs(ModuleOp kernelModule);

/// "@sym (kernel-id)", how diagnostics name a kernel.
std::string describeKernel(Operation *kernel);

/// The outermost `scf.forall` of `kernel` (the workgroup loop), null when
/// there is none, or an error at the kernel when there are several at the
/// top level or it is not a normalized (zero-based, unit-step, static) loop
/// of at most 3 dimensions.
FailureOr<scf::ForallOp> getWorkgroupLoop(func::FuncOp kernel);

/// The text of the schedule `path` ("kernels/schedules/cpu/matmul.mlir")
/// built into fuel, if it is one.
std::optional<StringRef> getEmbeddedSchedule(StringRef path);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_CPU_CPUKERNELS_H
