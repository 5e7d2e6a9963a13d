//===- RowKernelFuncs.h - GPU row kernels as gpu.funcs ----------*- C++ -*-===//
//
// What convert-fuel-to-spirv and convert-fuel-to-nvvm share for the kernels
// fuel-apply-schedules gave the subgroup (warp) row schedule
// (`fuel.row_kernel`, VulkanRowKernels.h): their gpu.func, built by
// fuel::gpu::buildRowKernel from the recorded shape and widths, and the
// subgroup size they were sized for.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_ROWKERNELFUNCS_H
#define FUEL_CODEGEN_GPU_ROWKERNELFUNCS_H

#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace gpu {
class GPUFuncOp;
class GPUModuleOp;
} // namespace gpu
} // namespace mlir

namespace mlir::fuel {

/// Whether `kernel` took the subgroup row schedule.
bool isVulkanRowKernel(func::FuncOp kernel);

/// The subgroup size the row kernels among `kernels` were sized for (one
/// device: all the same), 0 when there are none.
uint32_t rowKernelSubgroupSize(ArrayRef<func::FuncOp> kernels);

/// Appends the row kernel `kernel` records to `gpuModule` as a gpu.func of
/// the kernel's name, taking (in, out) as its two bindings; `math.exp`
/// (softmax) by the same polynomial as the other GPU kernels (FastExp.h
/// without FMA). Fails, at
/// the kernel, when the record does not match the kernel's bindings.
FailureOr<gpu::GPUFuncOp> buildRowKernelFunc(func::FuncOp kernel,
                                             gpu::GPUModuleOp gpuModule);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_ROWKERNELFUNCS_H
