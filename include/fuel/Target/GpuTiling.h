//===- GpuTiling.h - GPU schedule parameters from device limits -*- C++ -*-===//
//
// The tile sizes and reduction widths of the fast Vulkan schedules
// (kernels/schedules/vulkan/, docs/LOWERING.md "Vulkan", "Fast
// schedules"), chosen from a device's GpuLimits (the topology's
// `gpu_limits`): never a fixed warp width or shared-memory size. Each
// chooser is a pure function of the limits and the shape, so one topology
// always gives the same schedule.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_GPUTILING_H
#define FUEL_TARGET_GPUTILING_H

#include "fuel/Planner/Topology.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace fuel::target {

/// The shared-memory matmul schedule (kernels/schedules/vulkan/
/// matmul_tiled.mlir): a workgroup of tileN x tileM invocations computes a
/// tileM x tileN tile of C, one element per invocation, walking K in panels
/// of tileK held in workgroup memory.
struct MatmulTiling {
  uint32_t tileM = 0;
  uint32_t tileN = 0;
  uint32_t tileK = 0;
  /// The workgroup size (x, y, z): x runs along N, y along M.
  uint32_t workgroupSize[3] = {0, 0, 0};
  /// Workgroup memory the two panels take: (tileM + tileN) * tileK elements.
  uint64_t sharedBytes = 0;
  /// True when M, N and K are multiples of the tiles, which the schedule
  /// needs; other shapes take the per-element schedule.
  bool divides = false;
};

/// Chooses the matmul tiles for C[M][N] += A[M][K] * B[K][N]: tileN the
/// smallest multiple of the subgroup size that is at least 16 (whole
/// subgroups along a row of C), tileM the largest power of two up to 16
/// with tileM * tileN invocations within the workgroup limits, tileK the
/// largest power of two up to 64 whose two panels fit in the shared memory.
/// An error names the limit that is missing (0) or too small.
llvm::Expected<MatmulTiling> chooseMatmulTiling(const plan::GpuLimits &limits,
                                                uint64_t m, uint64_t n,
                                                uint64_t k,
                                                unsigned elementBytes = 4);

/// The subgroup reduction schedule of a row reduction or softmax
/// (lib/Conversion/GpuSchedules): one workgroup per row of `cols`
/// elements, `subgroups` subgroups of `subgroupSize` invocations; each
/// invocation folds a strided part of the row, a subgroup reduction
/// (GroupNonUniform) folds each subgroup, and the first subgroup folds the
/// subgroups' results from workgroup memory.
struct ReductionTiling {
  uint32_t subgroupSize = 0;
  uint32_t subgroups = 0;
  /// subgroupSize * subgroups.
  uint32_t workgroupSize = 0;
  /// Workgroup memory for the subgroups' results.
  uint64_t sharedBytes = 0;
};

/// Chooses the reduction width for rows of `cols` elements: as many
/// subgroups as the row fills, at most the subgroup size (so one subgroup
/// reduction folds their results), with at most 256 and at most the
/// device's maximum invocations per workgroup. An error names the limit
/// that is missing (0) or too small.
llvm::Expected<ReductionTiling>
chooseReductionTiling(const plan::GpuLimits &limits, uint64_t cols,
                      unsigned elementBytes = 4);

/// The two schedules of a row reduction or softmax over the innermost
/// dimension on a Vulkan device.
enum class RowSchedule {
  /// One invocation per row, its fold sequential (the per-element schedule
  /// of kernels/schedules/vulkan/reduce.mlir and softmax.mlir).
  PerElement,
  /// One workgroup per row, subgroup operations (fuel::gpu::buildRowKernel
  /// with chooseReductionTiling's widths).
  Subgroup,
};

/// Chooses the schedule of `rows` rows of `cols` elements by the rule the
/// measurements through the pipeline on lavapipe give (docs/PERFORMANCE.md,
/// "Row reductions and softmax on Vulkan through the pipeline"): the
/// subgroup schedule when the per-element one cannot occupy the device and
/// the row is long, i.e. fewer rows than the subgroup size (the per-element
/// kernel then runs in part of one subgroup of one workgroup) and at least
/// kRowScheduleColumnsPerInvocation columns for each invocation of the
/// row's workgroup (chooseReductionTiling); otherwise the per-element
/// schedule, which on lavapipe was as fast or faster (0.2-0.9x for rows of
/// 128 columns or fewer; mixed, 0.5-2.8x, for hundreds of rows of 256 to
/// 1024). The per-element schedule also where the subgroup one cannot run:
/// an unknown subgroup size, limits chooseReductionTiling rejects, or more
/// rows than Vulkan's guaranteed 65535 workgroups. A pure function of the
/// limits and the shape.
RowSchedule chooseRowSchedule(const plan::GpuLimits &limits, uint64_t rows,
                              uint64_t cols);

/// The columns per invocation from which chooseRowSchedule takes the
/// subgroup schedule (with few rows): measured on lavapipe, where a few rows
/// of 256 columns (4 per invocation of its 64-wide workgroups) lost
/// (0.66-0.99x) and of 1024 and more (16 and more per invocation) won
/// (1.2-3.2x for sums and maxima; softmax 1.0-1.5x).
inline constexpr uint64_t kRowScheduleColumnsPerInvocation = 16;

} // namespace fuel::target

#endif // FUEL_TARGET_GPUTILING_H
