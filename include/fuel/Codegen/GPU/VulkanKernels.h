//===- VulkanKernels.h - Launch shape of vulkan kernels ---------*- C++ -*-===//
//
// What the Vulkan code-generation stages (fuel-apply-schedules,
// convert-fuel-to-spirv) share: the one place where a kernel's workgroup
// size is derived from the device's limits (GpuLimits, the topology), with
// the conservative defaults used where the topology gives none, and the
// static iteration space of a kernel's workgroup scf.forall.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_VULKANKERNELS_H
#define FUEL_CODEGEN_GPU_VULKANKERNELS_H

#include "fuel/Planner/Topology.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>

namespace mlir {
class Operation;
namespace func {
class FuncOp;
} // namespace func
namespace scf {
class ForallOp;
} // namespace scf
} // namespace mlir

namespace mlir::fuel {

namespace kernel_attr {
/// On a vulkan kernel: the invocations of one workgroup (array<i64: x, y,
/// z>), set by fuel-apply-schedules; the SPIR-V entry point's LocalSize.
inline constexpr llvm::StringLiteral kWorkgroupSize = "fuel.workgroup_size";
/// On a vulkan matmul or batch_matmul kernel that takes the shared-memory
/// schedule (fuel-apply-schedules, GpuMatmul.h): a dictionary {a, b, c
/// (binding indices), batch, m, n, k, tile = array<i64: TM, TN, TK>, block
/// = array<i64: RM, RN>, init (the fill value of C)}, from which
/// convert-fuel-to-spirv builds the kernel (docs/LOWERING.md, "Vulkan:
/// fast schedules").
inline constexpr llvm::StringLiteral kVulkanMatmul = "fuel.vulkan_matmul";
/// On a vulkan conv2d kernel that takes the shared-memory schedule (an
/// implicit matmul per image): a dictionary {input, filter, output
/// (binding indices), layout ("nchw_fchw" or "nhwc_hwcf"), shape =
/// array<i64: N, C, H, W, F, KH, KW>, strides, dilations, tile, block,
/// init}.
inline constexpr llvm::StringLiteral kVulkanConv2d = "fuel.vulkan_conv2d";
/// On a vulkan matmul, batch_matmul or conv2d kernel that keeps the
/// per-element
/// schedule: why (a string).
inline constexpr llvm::StringLiteral kVulkanScheduleNote =
    "fuel.vulkan_schedule_note";
/// On a vulkan kernel lowered by convert-fuel-to-spirv (a declaration): the
/// name of its entry point in the executable's spirv.module.
inline constexpr llvm::StringLiteral kSpirvEntry = "fuel.spirv_entry";
} // namespace kernel_attr

/// The alignment fuel-serialize-executable rounds vulkan binding offsets
/// down to (the remainder becomes the binding's element offset): the
/// alignment of every arena slot (fuel::plan::kDefaultBufferAlignment), a
/// multiple of minStorageBufferOffsetAlignment on every device whose limit
/// is at most 64 bytes (16 on lavapipe).
inline constexpr uint64_t kVulkanDefaultStorageBufferOffsetAlignment = 64;

/// Invocations per workgroup the generic Vulkan schedules ask for.
inline constexpr uint32_t kVulkanPreferredWorkgroupSize = 64;
/// Vulkan 1.0's guaranteed minimum of maxComputeWorkGroupInvocations and of
/// maxComputeWorkGroupSize[0]: what codegen assumes for a limit the topology
/// leaves unknown (0).
inline constexpr uint32_t kVulkanMinWorkgroupInvocations = 128;

/// Vulkan's guaranteed minimum of maxComputeSharedMemorySize, in bytes.
inline constexpr uint64_t kVulkanMinSharedMemoryBytes = 16384;

/// Vulkan's guaranteed minimum of maxComputeWorkGroupCount, per dimension.
inline constexpr int64_t kVulkanMaxWorkgroupCount = 65535;

/// The 1-D workgroup size of a generic (one output element per invocation)
/// Vulkan kernel: kVulkanPreferredWorkgroupSize, capped by the device's
/// invocation limits, rounded down to a whole number of subgroups where the
/// subgroup size is known; `limits` may be null (all unknown;
/// fuel::target::genericGroupSize).
inline uint32_t vulkanWorkgroupSize(const ::fuel::plan::GpuLimits *limits) {
  return ::fuel::target::genericGroupSize(limits, kVulkanPreferredWorkgroupSize,
                                          kVulkanMinWorkgroupInvocations);
}

/// The iteration space of a vulkan kernel's workgroup `scf.forall`, which
/// runs one invocation per iteration: per dimension its lower bound, step
/// and trip count (0 for an empty range), and the product of the counts.
struct VulkanForallSpace {
  SmallVector<int64_t> lowerBounds, steps, counts;
  int64_t iterations = 1;
};

/// The iteration space of `forall` in `kernel`; fails, with the error at
/// `kernel`, when a bound or step is not a constant or a step is not
/// positive.
FailureOr<VulkanForallSpace> getVulkanForallSpace(Operation *kernel,
                                                  scf::ForallOp forall);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_VULKANKERNELS_H
