//===- GpuKernels.h - What the GPU targets share ----------------*- C++ -*-===//
//
// What the Vulkan and CUDA code generation share (as IREE's
// Codegen/Common/GPU): the records fuel-apply-schedules leaves on a GPU
// kernel for its target's conversion (the workgroup size, the shared-memory
// matmul and conv2d records, why a kernel keeps the per-element schedule,
// each naming its target), the static iteration space of a kernel's
// workgroup scf.forall, and the conversions' common way from a bufferized
// kernel module to the gpu dialect: the copies as linalg, linalg to loops
// with memref views folded into loads and stores, and one gpu.func per
// kernel whose invocation `i` runs iteration `i` of that forall
// (docs/LOWERING.md, "GPU schedules"). Each conversion then binds the
// arguments its own way.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_GPU_GPUKERNELS_H
#define FUEL_CODEGEN_GPU_GPUKERNELS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
class OpPassManager;
namespace scf {
class ForallOp;
} // namespace scf
} // namespace mlir

namespace mlir::fuel {

namespace kernel_attr {
/// On a GPU kernel: the invocations (CUDA threads) of one workgroup (block),
/// array<i64: x, y, z>, set by fuel-apply-schedules; the SPIR-V entry
/// point's LocalSize, the CUDA launch's block.
inline constexpr llvm::StringLiteral kWorkgroupSize = "fuel.workgroup_size";
/// On a GPU matmul or batch_matmul kernel that takes the shared-memory
/// schedule (fuel-apply-schedules, GpuMatmul.h): a dictionary {target
/// ("vulkan" or "cuda": whose conversion builds it), a, b, c (binding
/// indices), batch, m, n, k, tile = array<i64: TM, TN, TK>, block =
/// array<i64: RM, RN>, init (the fill value of C)} (docs/LOWERING.md, "GPU
/// fast schedules").
inline constexpr llvm::StringLiteral kGpuMatmul = "fuel.gpu_matmul";
/// On a GPU conv2d kernel that takes the shared-memory schedule (an
/// implicit matmul per image): a dictionary {target, input, filter, output
/// (binding indices), layout ("nchw_fchw" or "nhwc_hwcf"), shape =
/// array<i64: N, C, H, W, F, KH, KW>, strides, dilations, tile, block,
/// init}.
inline constexpr llvm::StringLiteral kGpuConv2d = "fuel.gpu_conv2d";
/// On a GPU matmul, batch_matmul or conv2d kernel (and, on CUDA, a row
/// kernel) that keeps the per-element schedule: a dictionary {target,
/// reason = "per-element: ..."}.
inline constexpr llvm::StringLiteral kGpuScheduleNote =
    "fuel.gpu_schedule_note";
} // namespace kernel_attr

/// The memory space of the workgroup buffers the shared-memory matmul and
/// the row kernels allocate: SPIR-V's Workgroup storage class, made CUDA
/// `.shared` by promoteWorkgroupAllocations.
inline constexpr int64_t kGpuWorkgroupMemorySpace = 3;

/// Records on `kernel` why it keeps the per-element schedule on `target`
/// ("vulkan", "cuda"): `fuel.gpu_schedule_note` = {reason = "per-element: "
/// + reason, target}.
void noteGpuSchedule(func::FuncOp kernel, StringRef target,
                     const Twine &reason);

/// The target a `fuel.gpu_matmul` / `fuel.gpu_conv2d` record of `kernel`
/// names; fails, at the kernel, when the record names none or another than
/// `expected`.
LogicalResult checkGpuRecordTarget(func::FuncOp kernel, StringRef attr,
                                   StringRef expected);

/// The iteration space of a GPU kernel's workgroup `scf.forall`, which runs
/// one invocation per iteration: per dimension its lower bound, step and
/// trip count (0 for an empty range), and the product of the counts.
struct GpuForallSpace {
  SmallVector<int64_t> lowerBounds, steps, counts;
  int64_t iterations = 1;
};

/// The iteration space of `forall` in `kernel`; fails, with the error at
/// `kernel`, when a bound or step is not a constant or a step is not
/// positive.
FailureOr<GpuForallSpace> getGpuForallSpace(Operation *kernel,
                                            scf::ForallOp forall);

/// Runs a nested pipeline on an op: the caller's Pass::runPipeline.
using RunPipelineFn =
    llvm::function_ref<LogicalResult(OpPassManager &, Operation *)>;

/// Whether `op` may run in every invocation of a GPU kernel: it writes no
/// memory (an alloca only allocates the invocation's own scratch).
bool runsPerInvocation(Operation *op);

/// Prepares the kernels of a GPU executable's kernel module for the gpu
/// dialect: `memref.copy` (bufferization's copies) as `linalg.copy`, linalg
/// ops as loops, memref views folded into the loads and stores, affine
/// lowered, canonicalized; then checks that no linalg op is left (an error
/// at it, naming the kernel). `backend` ("vulkan", "cuda") and `exeName`
/// name the executable in errors.
LogicalResult lowerGpuKernelsToLoops(ModuleOp kernels, StringRef backend,
                                     StringRef exeName,
                                     RunPipelineFn runPipeline);

/// Builds the `gpu.func` (a `kernel`, with `kernel`'s name and arguments) of
/// the scheduled, bufferized kernel `kernel` at the end of `gpuModule`:
/// invocation `i = (block_id.y * grid.x + block_id.x) * size + thread_id.x`
/// (`size` from `fuel.workgroup_size` = [size, 1, 1], `grid.x` from
/// `fuel.workgroups`) runs iteration `i` of the kernel's one outermost
/// `scf.forall` (its induction variables by delinearizing `i`, the last
/// fastest), guarded by `i < iterations`; the ops around the forall run in
/// every invocation and must not write memory. Without a forall only
/// invocation 0 runs the body. Errors at the kernel, naming it and
/// `backend`. The arguments are left as the kernel's memrefs: the caller
/// binds them.
FailureOr<gpu::GPUFuncOp> buildLinearizedGpuFunc(func::FuncOp kernel,
                                                 gpu::GPUModuleOp gpuModule,
                                                 StringRef backend);

/// Turns each `memref.alloc` in memory space 3 of `fn` (the workgroup
/// buffers of the shared-memory matmul and the row kernels, which SPIR-V
/// maps to the Workgroup storage class) into a workgroup attribution of
/// `fn` in `#gpu.address_space<workgroup>`, which convert-gpu-to-nvvm
/// makes a global of address space 3 (PTX `.shared`).
void promoteWorkgroupAllocations(gpu::GPUFuncOp fn);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_GPU_GPUKERNELS_H
