//===- TiledMatmul.h - The shared-memory matmul kernel ----------*- C++ -*-===//
//
// The gpu.func of a vulkan matmul or batch_matmul kernel that
// fuel-apply-schedules gave the shared-memory schedule (`fuel.vulkan_matmul`,
// VulkanKernels.h), for convert-fuel-to-spirv (docs/LOWERING.md, "Vulkan:
// fast schedules").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_CONVERSION_FUELTOSPIRV_TILEDMATMUL_H
#define FUEL_LIB_CONVERSION_FUELTOSPIRV_TILEDMATMUL_H

#include "fuel/Planner/Topology.h"

#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace gpu {
class GPUModuleOp;
} // namespace gpu
} // namespace mlir

namespace mlir::fuel {

/// Appends to `gpuModule` the gpu.func of `kernel` (which carries
/// `fuel.vulkan_matmul`), its binding element offsets push constants of
/// `pushCount` words, then makes `kernel` the private declaration the
/// program's dispatches name. Errors, at the kernel: a malformed
/// `fuel.vulkan_matmul`, bindings whose types are not the operands it
/// describes, a workgroup size that is not the tiling's, or a tiling beyond
/// the device's `limits` (Vulkan's guaranteed minimums where the topology
/// gives none), naming the limit.
LogicalResult
buildTiledMatmulFunc(func::FuncOp kernel, gpu::GPUModuleOp gpuModule,
                     unsigned pushCount,
                     const std::optional<::fuel::plan::GpuLimits> &limits);

} // namespace mlir::fuel

#endif // FUEL_LIB_CONVERSION_FUELTOSPIRV_TILEDMATMUL_H
