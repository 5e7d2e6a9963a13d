//===- GpuSchedules.h - Subgroup kernels of row reductions ------*- C++ -*-===//
//
// The fast Vulkan schedules that the transform dialect cannot express:
// row reductions and row softmax through subgroup operations
// (gpu.subgroup_reduce, lowered to SPIR-V GroupNonUniform ops), built as
// gpu.func kernels with the widths fuel::target::chooseReductionTiling
// takes from the device's limits (docs/LOWERING.md "Vulkan", "Fast
// schedules").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_GPUSCHEDULES_H
#define FUEL_CODEGEN_GPU_GPUSCHEDULES_H

#include "fuel/Target/GpuTiling.h"

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class Location;
class OpBuilder;
namespace gpu {
class GPUFuncOp;
class GPUModuleOp;
} // namespace gpu
} // namespace mlir

namespace fuel::gpu {

/// What a row kernel computes from each row of `in` (rows x cols).
enum class RowKernelKind {
  /// out[r] = sum over c of in[r][c].
  Sum,
  /// out[r] = max over c (maximumf).
  Max,
  /// out[r] = min over c (minimumf).
  Min,
  /// out[r][c] = exp(in[r][c] - max_r) / sum_c exp(in[r][c] - max_r).
  Softmax,
};

/// Appends to `module` a kernel `name`(in: memref<rows x cols x elementType>,
/// out: memref<rows x elementType> for a reduction, memref<rows x cols x
/// elementType> for softmax). One workgroup per row (the grid is
/// [rows, 1, 1]) of `tiling.workgroupSize` invocations, the kernel's
/// `spirv.entry_point_abi` workgroup size: each invocation folds the row's
/// columns tid, tid + W, ...; `gpu.subgroup_reduce` folds each subgroup; with
/// more than one subgroup, lane 0 of each writes its result to workgroup
/// memory (memory space 3), a barrier, and every subgroup folds those
/// results with a second subgroup reduction, so that every invocation holds
/// the row's result. Softmax folds the row's max, then the sum of
/// exp(x - max), writing each exponential to `out` on the way, and scales
/// `out` by the reciprocal of the sum (one exp per element; `out` may alias
/// `in`). The subgroup size must be a power of two (Vulkan's are),
/// the element type f32 or f16; `math.exp` is left for the pipeline's
/// polynomial approximation. Fails (with a diagnostic at `loc`) on a shape or
/// tiling the kernel cannot take.
mlir::FailureOr<mlir::gpu::GPUFuncOp> buildRowKernel(
    mlir::OpBuilder &builder, mlir::Location loc, mlir::gpu::GPUModuleOp module,
    llvm::StringRef name, RowKernelKind kind, int64_t rows, int64_t cols,
    mlir::Type elementType, const fuel::target::ReductionTiling &tiling);

} // namespace fuel::gpu

#endif // FUEL_CODEGEN_GPU_GPUSCHEDULES_H
