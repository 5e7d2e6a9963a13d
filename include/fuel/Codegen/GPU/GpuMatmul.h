//===- GpuMatmul.h - The shared-memory matmul schedule's choice -*- C++ -*-===//
//
// Which vulkan and cuda matmul, batch_matmul and conv2d kernels take the
// shared-memory schedule, with the tiles the device's limits give
// (fuel::target::chooseMatmulTiling / chooseConv2dTiling), for
// fuel-apply-schedules; the record a target's conversion builds the kernel
// from (TiledMatmul.h; docs/LOWERING.md "Vulkan: fast schedules", "CUDA").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_GPUMATMUL_H
#define FUEL_CODEGEN_GPU_GPUMATMUL_H

#include "fuel/Planner/Topology.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mlir::fuel {

/// How fuel-apply-schedules schedules GPU matmul, batch_matmul and conv2d
/// kernels (its `vulkan-matmul` and `cuda-matmul` options).
enum class GpuMatmulSchedule {
  /// The shared-memory schedule wherever the kernel and the limits allow
  /// it and the matmul fills at least one tile along M and along N (smaller
  /// ones are faster per element on lavapipe: docs/PERFORMANCE.md, "Vulkan
  /// matmul and conv2d through the pipeline"), else the per-element one.
  Automatic,
  /// The shared-memory schedule wherever the kernel and the limits allow
  /// it, whatever the shape.
  Tiled,
  /// Always the per-element schedule (the baseline of the benchmarks).
  PerElement,
};

/// The elements of C one invocation of the shared-memory matmul computes
/// along M and along N by default (the fastest block on lavapipe,
/// docs/PERFORMANCE.md "Vulkan matmul through the pipeline").
inline constexpr unsigned kGpuMatmulDefaultBlock = 4;

/// What differs between the GPU targets at the schedule stage: the kernel
/// attributes the choice is recorded in, and the grid the target launches.
struct GpuMatmulTarget {
  llvm::StringRef matmulAttr;
  llvm::StringRef conv2dAttr;
  /// Why a kernel keeps the per-element schedule.
  llvm::StringRef noteAttr;
  /// The workgroups (blocks) a launch may have along x, y and z.
  int64_t maxGrid[3] = {0, 0, 0};
};

/// Vulkan: `fuel.vulkan_matmul`, `fuel.vulkan_conv2d`,
/// `fuel.vulkan_schedule_note`, grids of 65535 per dimension.
const GpuMatmulTarget &vulkanMatmulTarget();
/// CUDA: `fuel.cuda_matmul`, `fuel.cuda_conv2d`, `fuel.cuda_schedule_note`,
/// grids of 2^31 - 1 x 65535 x 65535.
const GpuMatmulTarget &cudaMatmulTarget();

/// Gives `kernel` the shared-memory matmul schedule when it is a plain
/// matmul or batch_matmul (default maps, f32, static shapes, C filled with
/// a constant, no other linalg op) and `limits` allow it: the tiles of
/// fuel::target::chooseMatmulTiling(limits, ..., block), recorded as
/// `target.matmulAttr` = {a, b, c (binding indices), batch, m, n, k, tile =
/// array<i64: TM, TN, TK>, block = array<i64: RM, RN>, init (the fill
/// value of C)}, `fuel.workgroup_size` = [TN / RN, TM / RM, 1] and
/// `fuel.workgroups` = [ceil(N / TN), ceil(M / TM), batch]; under
/// GpuMatmulSchedule::Automatic only when M >= TM and N >= TN. Returns
/// false when the kernel takes the per-element schedule instead, its reason
/// (a missing or too small limit is named) recorded as `target.noteAttr`;
/// the kernel's body is unchanged either way.
bool scheduleGpuMatmul(func::FuncOp kernel,
                       const ::fuel::plan::GpuLimits *limits, unsigned block,
                       GpuMatmulSchedule mode, const GpuMatmulTarget &target);

/// Gives `kernel` the shared-memory schedule of a convolution when it is a
/// plain linalg.conv_2d_nchw_fchw or conv_2d_nhwc_hwcf (f32, static
/// shapes, the output filled with a constant, no other linalg op) and
/// `limits` allow it: the tiles of fuel::target::chooseConv2dTiling,
/// recorded as `target.conv2dAttr` = {input, filter, output (binding
/// indices), layout ("nchw_fchw" or "nhwc_hwcf"), shape = array<i64: N, C,
/// H, W, F, KH, KW>, strides, dilations, tile, block, init},
/// `fuel.workgroup_size` and `fuel.workgroups` = [ceil(gemmN / TN),
/// ceil(gemmM / TM), N]. Otherwise returns false with `target.noteAttr`, as
/// scheduleGpuMatmul.
bool scheduleGpuConv2d(func::FuncOp kernel,
                       const ::fuel::plan::GpuLimits *limits, unsigned block,
                       GpuMatmulSchedule mode, const GpuMatmulTarget &target);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_GPUMATMUL_H
