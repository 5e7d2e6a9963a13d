//===- VulkanKernels.h - Launch shape of vulkan kernels ---------*- C++ -*-===//
//
// What is Vulkan's own in the code-generation stages (fuel-apply-schedules,
// convert-fuel-to-spirv, fuel-serialize-executable): the one place where a
// kernel's workgroup size is derived from the device's limits (GpuLimits,
// the topology), with Vulkan's guaranteed minimums used where the topology
// gives none, and the SPIR-V entry point's name. What both GPU targets
// share is GpuKernels.h.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_VULKANKERNELS_H
#define FUEL_CODEGEN_GPU_VULKANKERNELS_H

#include "fuel/Planner/Topology.h"
#include "fuel/Target/GpuTiling.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::fuel {

namespace kernel_attr {
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

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_VULKANKERNELS_H
