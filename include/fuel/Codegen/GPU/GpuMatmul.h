//===- GpuMatmul.h - The shared-memory matmul schedule of GPUs --*- C++ -*-===//
//
// The shared-memory schedule of matmul, batch_matmul and conv2d kernels on
// both GPU targets, in one place: which kernels take it, with the tiles the
// device's limits give (fuel::target::chooseMatmulTiling /
// chooseConv2dTiling), recorded by fuel-apply-schedules as
// `fuel.gpu_matmul` / `fuel.gpu_conv2d` (GpuKernels.h) with the target
// named in the record; and the one target-neutral gpu.func body
// convert-fuel-to-spirv and convert-fuel-to-nvvm build from that record,
// with hooks only where the targets differ: how a binding is passed and
// where its first element lies (docs/LOWERING.md, "GPU schedules").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_GPUMATMUL_H
#define FUEL_CODEGEN_GPU_GPUMATMUL_H

#include "fuel/Planner/Topology.h"

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
class MemRefType;
class OpBuilder;
namespace func {
class FuncOp;
} // namespace func
namespace gpu {
class GPUFuncOp;
class GPUModuleOp;
} // namespace gpu
} // namespace mlir

namespace mlir::fuel {

//===----------------------------------------------------------------------===//
// The schedule's choice (fuel-apply-schedules)
//===----------------------------------------------------------------------===//

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

/// What differs between the GPU targets at the schedule stage: the name
/// the records carry, and the grid the target launches.
struct GpuMatmulTarget {
  /// "vulkan" or "cuda": the `target` of the records and notes.
  llvm::StringRef name;
  /// The workgroups (blocks) a launch may have along x, y and z.
  int64_t maxGrid[3] = {0, 0, 0};
};

/// Vulkan: records for target "vulkan", grids of 65535 per dimension.
const GpuMatmulTarget &vulkanMatmulTarget();

/// CUDA: records for target "cuda", grids of 2^31 - 1 x 65535 x 65535.
const GpuMatmulTarget &cudaMatmulTarget();

/// Gives `kernel` the shared-memory matmul schedule when it is a plain
/// matmul or batch_matmul (default maps, f32, static shapes, C filled with
/// a constant, no other linalg op) and `limits` allow it: the tiles of
/// fuel::target::chooseMatmulTiling(limits, ..., block), recorded as
/// `fuel.gpu_matmul` = {target, a, b, c (binding indices), batch, m, n, k,
/// tile = array<i64: TM, TN, TK>, block = array<i64: RM, RN>, init (the
/// fill value of C)}, `fuel.workgroup_size` = [TN / RN, TM / RM, 1] and
/// `fuel.workgroups` = [ceil(N / TN), ceil(M / TM), batch]; under
/// GpuMatmulSchedule::Automatic only when M >= TM and N >= TN. Returns
/// false when the kernel takes the per-element schedule instead, its reason
/// (a missing or too small limit is named) recorded as
/// `fuel.gpu_schedule_note`; the kernel's body is unchanged either way.
bool scheduleGpuMatmul(func::FuncOp kernel,
                       const ::fuel::plan::GpuLimits *limits, unsigned block,
                       GpuMatmulSchedule mode, const GpuMatmulTarget &target);

/// Gives `kernel` the shared-memory schedule of a convolution when it is a
/// plain linalg.conv_2d_nchw_fchw or conv_2d_nhwc_hwcf (f32, static
/// shapes, the output filled with a constant, no other linalg op) and
/// `limits` allow it: the tiles of fuel::target::chooseConv2dTiling,
/// recorded as `fuel.gpu_conv2d` = {target, input, filter, output (binding
/// indices), layout ("nchw_fchw" or "nhwc_hwcf"), shape = array<i64: N, C,
/// H, W, F, KH, KW>, strides, dilations, tile, block, init},
/// `fuel.workgroup_size` and `fuel.workgroups` = [ceil(gemmN / TN),
/// ceil(gemmM / TM), N]. Otherwise returns false with
/// `fuel.gpu_schedule_note`, as scheduleGpuMatmul.
bool scheduleGpuConv2d(func::FuncOp kernel,
                       const ::fuel::plan::GpuLimits *limits, unsigned block,
                       GpuMatmulSchedule mode, const GpuMatmulTarget &target);

//===----------------------------------------------------------------------===//
// The kernel body (convert-fuel-to-spirv, convert-fuel-to-nvvm)
//===----------------------------------------------------------------------===//

/// Where the shared-memory matmul kernel differs between GPU targets.
struct TiledMatmulTarget {
  /// The target ("vulkan", "cuda"): the record must name it; in errors.
  llvm::StringRef backend;
  /// What the kernel is checked against where the topology's limits leave
  /// a figure unknown (Vulkan's guaranteed minimums; CUDA's figures).
  uint64_t defaultSharedMemoryBytes = 0;
  uint64_t defaultInvocations = 0;
  /// The gpu.func argument type of a binding of (static f32) type `binding`:
  /// a 1-D memref the kernel indexes row-major.
  llvm::function_ref<Type(MemRefType binding)> argumentType;
  /// The element offset of binding `index` in its argument, built at the
  /// start of `fn` by `b`; a null Value for none (the argument points at
  /// the binding's first element).
  llvm::function_ref<Value(OpBuilder &b, gpu::GPUFuncOp fn, unsigned index)>
      elementOffset;
};

/// Appends to `gpuModule` the gpu.func (a kernel, with `kernel`'s name) of
/// `kernel`, which carries `fuel.gpu_matmul` or `fuel.gpu_conv2d` for
/// `target.backend`. One workgroup of (TN / RN) x (TM / RM) invocations
/// computes a TM x TN tile of C, each invocation an RM x RN block of it in
/// registers; K is walked in panels of TK that the invocations copy into
/// two buffers of memory space 3 (`memref.alloc`: SPIR-V's Workgroup
/// storage class; the CUDA conversion makes them workgroup attributions,
/// PTX `.shared`) between `gpu.barrier`s; edges the tiles do not divide are
/// guarded. The caller sets the target's launch attributes and turns
/// `kernel` into the declaration its dispatches name. Errors, at the
/// kernel: a malformed record or one for another target, bindings whose
/// types are not the operands it describes, a workgroup size that is not
/// the tiling's, or a tiling beyond the device's `limits` (the target's
/// defaults where the topology gives none), naming the limit.
FailureOr<gpu::GPUFuncOp>
buildTiledMatmulFunc(func::FuncOp kernel, gpu::GPUModuleOp gpuModule,
                     const TiledMatmulTarget &target,
                     const std::optional<::fuel::plan::GpuLimits> &limits);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_GPUMATMUL_H
