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

/// The 1-D group size (a CUDA block, a Vulkan workgroup) of a generic GPU
/// kernel, one output element per thread: `preferred`, capped by the
/// device's thread limits (maxWorkgroupInvocations, maxWorkgroupSize[0];
/// `unknownLimit` stands for either where the limits leave it 0, and for
/// both where `limits` is null), rounded down to whole subgroups where the
/// subgroup size is known and the size holds one; at least 1.
uint32_t genericGroupSize(const plan::GpuLimits *limits, uint32_t preferred,
                          uint32_t unknownLimit);

/// The shared-memory matmul schedule of Vulkan matmul and batch_matmul
/// kernels (lib/Codegen/GPU/GpuMatmul.cpp): a workgroup of
/// threadsN x threadsM invocations computes a tileM x tileN tile of C, each
/// invocation a blockM x blockN block of it in registers, walking K in
/// panels of tileK held in workgroup memory.
struct MatmulTiling {
  uint32_t tileM = 0;
  uint32_t tileN = 0;
  uint32_t tileK = 0;
  /// The elements of C one invocation computes along M and along N.
  uint32_t blockM = 1;
  uint32_t blockN = 1;
  /// The workgroup size (x, y, z): x runs along N (tileN / blockN
  /// invocations), y along M (tileM / blockM).
  uint32_t workgroupSize[3] = {0, 0, 0};
  /// Workgroup memory the two panels take: (tileM + tileN) * tileK elements.
  uint64_t sharedBytes = 0;
  /// True when M, N and K are multiples of the tiles; the schedule guards
  /// the edges of other shapes.
  bool divides = false;
};

/// Chooses the matmul tiles for C[M][N] += A[M][K] * B[K][N] with each
/// invocation computing `block` x `block` elements of C: threadsN the
/// smallest multiple of the subgroup size that is at least 16 (whole
/// subgroups along a row of C), threadsM the largest power of two up to 16
/// with threadsM * threadsN invocations within the workgroup limits; tileM
/// = threadsM * block, tileN = threadsN * block; tileK the largest power of
/// two up to 64, and up to the smallest one not below K, whose two panels
/// fit in the shared memory. An error names the limit that is missing (0)
/// or too small.
llvm::Expected<MatmulTiling>
chooseMatmulTiling(const plan::GpuLimits &limits, uint64_t m, uint64_t n,
                   uint64_t k, unsigned elementBytes = 4, unsigned block = 1);

/// A 2-D convolution without padding (linalg.conv_2d_nchw_fchw or
/// linalg.conv_2d_nhwc_hwcf): batch `n`, `c` input and `f` output
/// channels, an `h` x `w` input, `kh` x `kw` filters, strides and
/// dilations (along H, then W).
struct Conv2dShape {
  /// NCHW input with FCHW filters (else NHWC with HWCF).
  bool nchw = true;
  uint64_t n = 0, c = 0, h = 0, w = 0, f = 0, kh = 0, kw = 0;
  uint64_t strides[2] = {1, 1};
  uint64_t dilations[2] = {1, 1};
  /// The output's height and width: (h - dilation * (k - 1) - 1) / stride
  /// + 1, 0 where the filter does not fit.
  uint64_t outH() const;
  uint64_t outW() const;
};

/// The shared-memory schedule of a convolution as an implicit matmul per
/// image (lib/Codegen/GPU/GpuMatmul.cpp): NCHW computes
/// out[f][oh * OW + ow] = filter[f][(c, kh, kw)] x patches[(c, kh, kw)][oh *
/// OW + ow], NHWC out[oh * OW + ow][f] = patches[oh * OW + ow][(kh, kw, c)] x
/// filter[(kh, kw, c)][f]; the panel of patches each K step copies into
/// workgroup memory is the input window (halo included) of the workgroup's
/// output tile, the other panel the filter slice.
struct Conv2dTiling {
  /// The matmul: C[gemmM][gemmN] += A[gemmM][gemmK] * B[gemmK][gemmN],
  /// once per image (`batch` = n).
  uint64_t gemmM = 0, gemmN = 0, gemmK = 0, batch = 0;
  MatmulTiling matmul;
};

/// Chooses the tiles of `shape`'s implicit matmul by chooseMatmulTiling, so
/// with the same limits and errors; also an error for a shape with an
/// empty dimension or output.
llvm::Expected<Conv2dTiling> chooseConv2dTiling(const plan::GpuLimits &limits,
                                                const Conv2dShape &shape,
                                                unsigned elementBytes = 4,
                                                unsigned block = 1);

/// The subgroup reduction schedule of a row reduction or softmax
/// (lib/Codegen/GPU): one workgroup per row of `cols`
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
