//===- GpuKernels.h - Kernel modules to gpu.func for GPUs -------*- C++ -*-===//
//
// What the GPU conversions (convert-fuel-to-spirv, convert-fuel-to-nvvm)
// share on the way from a bufferized kernel module to the gpu dialect: the
// copies as linalg, linalg to loops with memref views folded into loads and
// stores, and one gpu.func per kernel whose invocation `i` runs iteration
// `i` of the kernel's workgroup scf.forall (docs/LOWERING.md, "Vulkan" and
// "CUDA"). Each conversion then binds the arguments its own way.
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

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuel {

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
