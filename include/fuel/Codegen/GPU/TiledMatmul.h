//===- TiledMatmul.h - The shared-memory matmul kernel ----------*- C++ -*-===//
//
// The gpu.func of a matmul, batch_matmul or conv2d kernel that
// fuel-apply-schedules gave the shared-memory schedule (`fuel.vulkan_matmul`
// / `fuel.vulkan_conv2d` on Vulkan, `fuel.cuda_matmul` / `fuel.cuda_conv2d`
// on CUDA; GpuMatmul.h), one target-neutral body for convert-fuel-to-spirv
// and convert-fuel-to-nvvm, with hooks only where the targets differ: how a
// binding is passed and where its first element lies (docs/LOWERING.md,
// "Vulkan: fast schedules", "CUDA").
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_TILEDMATMUL_H
#define FUEL_CODEGEN_GPU_TILEDMATMUL_H

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

/// Where the shared-memory matmul kernel differs between GPU targets.
struct TiledMatmulTarget {
  /// The backend in errors ("vulkan", "cuda").
  llvm::StringRef backend;
  /// The kernel attributes the schedule was recorded in.
  llvm::StringRef matmulAttr;
  llvm::StringRef conv2dAttr;
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
/// `kernel`, which carries `target.matmulAttr` or `target.conv2dAttr`. One
/// workgroup of (TN / RN) x (TM / RM) invocations computes a TM x TN tile
/// of C, each invocation an RM x RN block of it in registers; K is walked
/// in panels of TK that the invocations copy into two buffers of memory
/// space 3 (`memref.alloc`: SPIR-V's Workgroup storage class; the CUDA
/// conversion makes them workgroup attributions, PTX `.shared`) between
/// `gpu.barrier`s; edges the tiles do not divide are guarded. The caller
/// sets the target's launch attributes and turns `kernel` into the
/// declaration its dispatches name. Errors, at the kernel: a malformed
/// record, bindings whose types are not the operands it describes, a
/// workgroup size that is not the tiling's, or a tiling beyond the
/// device's `limits` (the target's defaults where the topology gives
/// none), naming the limit.
FailureOr<gpu::GPUFuncOp>
buildTiledMatmulFunc(func::FuncOp kernel, gpu::GPUModuleOp gpuModule,
                     const TiledMatmulTarget &target,
                     const std::optional<::fuel::plan::GpuLimits> &limits);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_TILEDMATMUL_H
