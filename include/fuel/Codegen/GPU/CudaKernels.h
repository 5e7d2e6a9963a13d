//===- CudaKernels.h - Launch shape and chip of cuda kernels ----*- C++ -*-===//
//
// What the CUDA code-generation stages (fuel-apply-schedules,
// convert-fuel-to-nvvm, fuel-serialize-executable) share: a kernel's block
// size from the device's limits (GpuLimits, the topology) with CUDA's
// guaranteed figures where the topology gives none, the grid limits, and
// the PTX ISA version a chip needs.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_CUDAKERNELS_H
#define FUEL_CODEGEN_GPU_CUDAKERNELS_H

#include "fuel/Planner/Topology.h"
#include "fuel/Support/Device.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace mlir::fuel {

namespace kernel_attr {
/// On a cuda kernel lowered by convert-fuel-to-nvvm (a declaration): the
/// name of its `.entry` in the executable's PTX.
inline constexpr llvm::StringLiteral kPtxEntry = "fuel.ptx_entry";
} // namespace kernel_attr

/// Threads per block the generic (one output element per thread) CUDA
/// schedules ask for.
inline constexpr uint32_t kCudaPreferredBlockSize = 256;
/// CUDA's threads per block on every chip since compute capability 2.0:
/// what code generation assumes for a limit the topology leaves unknown.
inline constexpr uint32_t kCudaMaxThreadsPerBlock = 1024;
/// CUDA's grid limits since compute capability 3.0: 2^31 - 1 blocks in x,
/// 65535 in y and in z.
inline constexpr int64_t kCudaMaxGridX = 2147483647;
inline constexpr int64_t kCudaMaxGridY = 65535;
inline constexpr int64_t kCudaMaxGridZ = 65535;

/// The 1-D block size of a generic CUDA kernel: kCudaPreferredBlockSize,
/// capped by the device's thread limits (kCudaMaxThreadsPerBlock where
/// unknown), rounded down to whole warps where the warp size
/// (`subgroupSize`) is known; `limits` may be null
/// (fuel::target::genericGroupSize).
inline uint32_t cudaBlockSize(const ::fuel::plan::GpuLimits *limits) {
  return ::fuel::target::genericGroupSize(limits, kCudaPreferredBlockSize,
                                          kCudaMaxThreadsPerBlock);
}

/// The limits CUDA code generation sizes the kernels of `device` with: the
/// device's `limits` in the module's topology, each figure they leave
/// unknown (or all, without limits) from CUDA's table for the device's
/// compute capability (fuel::plan::completeCudaLimits, docs/TOPOLOGY.md).
::fuel::plan::GpuLimits getCudaLimits(ModuleOp module,
                                      const ::fuel::Device &device);

/// The LLVM NVPTX features of a chip: the PTX ISA version to emit, the
/// lowest that both covers the chip and is at least 8.0 (CUDA 12.0, which
/// every driver for these chips reads): "+ptx80" up to sm_90, "+ptx86" for
/// 10.x (Blackwell) and "+ptx87" for 12.x and later.
inline std::string ptxFeatures(const ::fuel::plan::ComputeCapability &cc) {
  if (cc.major <= 9)
    return "+ptx80";
  if (cc.major <= 11)
    return "+ptx86";
  return "+ptx87";
}

/// The PTX text of a cuda executable's kernel module after
/// convert-fuel-to-nvvm: the assembly of the one `#gpu.object` of its one
/// `gpu.binary`. Fails, with an error at `kernels`, when there is none.
FailureOr<StringRef> getKernelModulePtx(ModuleOp kernels);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_CUDAKERNELS_H
