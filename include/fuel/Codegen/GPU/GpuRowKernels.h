//===- GpuRowKernels.h - The subgroup row schedule of GPUs ------*- C++ -*-===//
//
// Row reductions and row softmax through subgroup (warp) operations, for
// both GPU targets, in one place: which kernels take the schedule
// (matchGpuRowKernel), the choice fuel-apply-schedules records on them
// (scheduleGpuRowKernel, by fuel::target::chooseRowSchedule and the widths
// fuel::target::chooseReductionTiling takes from the device's limits), and
// the body the conversions build from that record: a gpu.func over
// gpu.subgroup_reduce (buildRowKernel, buildRowKernelFunc), which
// convert-fuel-to-spirv lowers to GroupNonUniform ops and
// convert-fuel-to-nvvm to warp shuffles (docs/LOWERING.md, "GPU fast
// schedules").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_GPUROWKERNELS_H
#define FUEL_CODEGEN_GPU_GPUROWKERNELS_H

#include "fuel/Planner/Topology.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
class Location;
class OpBuilder;
namespace func {
class FuncOp;
} // namespace func
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
/// `in`). The subgroup size must be a power of two (Vulkan's and CUDA's
/// are), the element type f32 or f16; `math.exp` is left for the
/// pipeline's polynomial approximation. Fails (with a diagnostic at `loc`)
/// on a shape or tiling the kernel cannot take.
mlir::FailureOr<mlir::gpu::GPUFuncOp> buildRowKernel(
    mlir::OpBuilder &builder, mlir::Location loc, mlir::gpu::GPUModuleOp module,
    llvm::StringRef name, RowKernelKind kind, int64_t rows, int64_t cols,
    mlir::Type elementType, const fuel::target::ReductionTiling &tiling);

} // namespace fuel::gpu

namespace mlir::fuel {

namespace kernel_attr {
/// On a GPU kernel that takes the subgroup row schedule: what it computes
/// per row, "sum", "max", "min" or "softmax".
inline constexpr llvm::StringLiteral kRowKernel = "fuel.row_kernel";
/// With `fuel.row_kernel`: array<i64: rows, cols, subgroup size, subgroups>,
/// the shape it was matched with and the widths the device's limits gave.
inline constexpr llvm::StringLiteral kRowTiling = "fuel.row_tiling";
} // namespace kernel_attr

/// A GPU kernel whose whole body is one row kernel: `in` (binding 0,
/// rows x cols contiguous elements of f32) to `out` (binding 1).
struct GpuRowKernel {
  ::fuel::gpu::RowKernelKind kind = ::fuel::gpu::RowKernelKind::Sum;
  int64_t rows = 0;
  int64_t cols = 0;
};

/// The row kernel `kernel` (a GPU kernel as outlined, before its schedule)
/// is, if it is one: a kernel of two bindings whose body reads binding 0
/// whole and writes binding 1 with a single
///   - linalg.reduce (or reducing linalg.generic) over the innermost
///     dimensions of binding 0, combining by addf, maximumf or minimumf, its
///     init a linalg.fill of that combiner's identity (0, -inf, +inf), or
///   - linalg.softmax over the innermost dimension,
/// on f32. rows is the product of the other dimensions (1 for none), cols
/// of the reduced ones. Anything else (an outer or middle dimension, a
/// strided view, a fused producer or epilogue, another combiner or init)
/// is std::nullopt and keeps the per-element schedule.
std::optional<GpuRowKernel> matchGpuRowKernel(func::FuncOp kernel);

/// How fuel-apply-schedules chooses between the row schedules
/// (`vulkan-row-schedule`, `cuda-row-schedule`): by
/// fuel::target::chooseRowSchedule, the subgroup schedule for every row
/// kernel the grid allows, or never.
enum class RowScheduleMode { Auto, Subgroup, PerElement };

/// fuel-apply-schedules' step for a vulkan or cuda kernel on a device of
/// `limits` (null: the topology states none). When the kernel is a row
/// kernel and `mode` gives it the subgroup (warp) schedule, records
/// `fuel.row_kernel`, `fuel.row_tiling` and its launch
/// (`fuel.workgroup_size` = [W, 1, 1], `fuel.workgroups` = [rows, 1, 1],
/// `fuel.workspace_bytes` = 0) and returns true; false leaves the kernel to
/// its transform schedule. `maxRows` is the grid's x limit (Vulkan's 65535,
/// CUDA's 2^31 - 1) under RowScheduleMode::Subgroup. With a `noteTarget`
/// ("cuda"), a row kernel that keeps the per-element schedule records why
/// there (`fuel.gpu_schedule_note`, GpuKernels.h). Without limits the
/// per-element schedule is kept. Fails, at the kernel and naming the
/// `limits` field, when the stated limits lack a figure the subgroup
/// schedule needs or are too small for it.
FailureOr<bool> scheduleGpuRowKernel(func::FuncOp kernel,
                                     const ::fuel::plan::GpuLimits *limits,
                                     RowScheduleMode mode, int64_t maxRows,
                                     llvm::StringRef noteTarget = {});

/// The name `fuel.row_kernel` records for `kind`, and back.
llvm::StringRef stringifyRowKernelKind(::fuel::gpu::RowKernelKind kind);
std::optional<::fuel::gpu::RowKernelKind>
symbolizeRowKernelKind(llvm::StringRef name);

/// Whether `kernel` took the subgroup row schedule.
bool isGpuRowKernel(func::FuncOp kernel);

/// The subgroup size the row kernels among `kernels` were sized for (one
/// device: all the same), 0 when there are none.
uint32_t rowKernelSubgroupSize(ArrayRef<func::FuncOp> kernels);

/// Appends the row kernel `kernel` records to `gpuModule` as a gpu.func of
/// the kernel's name, taking (in, out) as its two bindings; `math.exp`
/// (softmax) by the same polynomial as the other GPU kernels (FastExp.h
/// without FMA). Fails, at the kernel, when the record does not match the
/// kernel's bindings.
FailureOr<gpu::GPUFuncOp> buildRowKernelFunc(func::FuncOp kernel,
                                             gpu::GPUModuleOp gpuModule);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_GPUROWKERNELS_H
