//===- VulkanRowKernels.h - Vulkan kernels of the row schedule --*- C++ -*-===//
//
// Which vulkan kernels take the subgroup row schedule (fuel::gpu::
// buildRowKernel) instead of the per-element one: fuel-apply-schedules
// matches the kernel and records its choice on it, convert-fuel-to-spirv
// builds the kernel from that record (docs/LOWERING.md "Vulkan: fast
// schedules").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_VULKANROWKERNELS_H
#define FUEL_CODEGEN_GPU_VULKANROWKERNELS_H

#include "fuel/Codegen/GPU/GpuSchedules.h"
#include "fuel/Planner/Topology.h"

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mlir::fuel {

namespace kernel_attr {
/// On a vulkan kernel that takes the subgroup row schedule: what it computes
/// per row, "sum", "max", "min" or "softmax".
inline constexpr llvm::StringLiteral kRowKernel = "fuel.row_kernel";
/// With `fuel.row_kernel`: array<i64: rows, cols, subgroup size, subgroups>,
/// the shape it was matched with and the widths the device's limits gave.
inline constexpr llvm::StringLiteral kRowTiling = "fuel.row_tiling";
} // namespace kernel_attr

/// A vulkan kernel whose whole body is one row kernel: `in` (binding 0,
/// rows x cols contiguous elements of f32) to `out` (binding 1).
struct VulkanRowKernel {
  ::fuel::gpu::RowKernelKind kind = ::fuel::gpu::RowKernelKind::Sum;
  int64_t rows = 0;
  int64_t cols = 0;
};

/// The row kernel `kernel` (a vulkan kernel as outlined, before its
/// schedule) is, if it is one: a kernel of two bindings whose body reads
/// binding 0 whole and writes binding 1 with a single
///   - linalg.reduce (or reducing linalg.generic) over the innermost
///     dimensions of binding 0, combining by addf, maximumf or minimumf, its
///     init a linalg.fill of that combiner's identity (0, -inf, +inf), or
///   - linalg.softmax over the innermost dimension,
/// on f32. rows is the product of the other dimensions (1 for none), cols
/// of the reduced ones. Anything else (an outer or middle dimension, a
/// strided view, a fused producer or epilogue, another combiner or init)
/// is std::nullopt and keeps the per-element schedule.
std::optional<VulkanRowKernel> matchVulkanRowKernel(func::FuncOp kernel);

/// How fuel-apply-schedules chooses between the row schedules
/// (`vulkan-row-schedule`): by fuel::target::chooseRowSchedule, the
/// subgroup schedule for every row kernel the grid allows, or never.
enum class RowScheduleMode { Auto, Subgroup, PerElement };

/// fuel-apply-schedules' step for a vulkan or cuda kernel on a device of
/// `limits` (null: the topology states none). When the kernel is a row
/// kernel and `mode` gives it the subgroup (warp) schedule, records
/// `fuel.row_kernel`, `fuel.row_tiling` and its launch
/// (`fuel.workgroup_size` = [W, 1, 1], `fuel.workgroups` = [rows, 1, 1],
/// `fuel.workspace_bytes` = 0) and returns true; false leaves the kernel to
/// its transform schedule. `maxRows` is the grid's x limit (Vulkan's 65535,
/// CUDA's 2^31 - 1) under RowScheduleMode::Subgroup. With a `noteAttr`, a
/// row kernel that keeps the per-element schedule records why there
/// ("per-element: ..."). Without limits the per-element schedule is kept.
/// Fails, at the kernel and naming the `limits` field, when the stated
/// limits lack a figure the subgroup schedule needs or are too small for
/// it.
FailureOr<bool> scheduleGpuRowKernel(func::FuncOp kernel,
                                     const ::fuel::plan::GpuLimits *limits,
                                     RowScheduleMode mode, int64_t maxRows,
                                     llvm::StringRef noteAttr = {});

/// The name `fuel.row_kernel` records for `kind`, and back.
llvm::StringRef stringifyRowKernelKind(::fuel::gpu::RowKernelKind kind);
std::optional<::fuel::gpu::RowKernelKind>
symbolizeRowKernelKind(llvm::StringRef name);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_VULKANROWKERNELS_H
