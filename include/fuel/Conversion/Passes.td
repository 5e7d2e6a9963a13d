//===- Passes.td - Conversions of the fuel dialect ---------*- tablegen -*-===//
//
// The conversions that lower an outlined, scheduled and bufferized program
// to target code, named like upstream conversions (docs/CPU-CODEGEN.md).
// docs/FuelConversionPasses.md is generated from this file.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CONVERSION_PASSES_TD
#define FUEL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// FuelToLLVM
//===----------------------------------------------------------------------===//

def ConvertFuelToLLVMPass : Pass<"convert-fuel-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lowers each cpu kernel module to the LLVM dialect with "
                "kernel ABI entries";
  let description = [{
    Objective: make each bufferized cpu kernel module an LLVM-dialect module
    whose kernels are `fuel_kernel_fn`s (include/fuel-c/KernelABI.h), ready
    for the object step. Per kernel function:

    1. Guards (errors at the kernel, naming it): no `linalg` op is left
       after the schedule; no scalar loop runs over a dimension of at least
       twice the vector width (an `scf.for` with a static trip count >= 2W,
       W the f32 lanes of the target's ISA class, whose body holds scalar
       floating-point arithmetic and no op on vectors of more than one
       element — 1-lane vectors count as scalars: the code a tile that does
       not divide its dimension leaves, docs/CPU-CODEGEN.md trap 5).
    2. The outermost `scf.forall` (the workgroup split) is replaced by its
       body, its induction variables becoming the workgroup ids x, y, z:
       the function is renamed `<kernel>.body`, made private and given
       three trailing `index` arguments.
    3. The module is lowered: nested `scf.forall` to `scf.for`, vector to
       SCF (fully unrolled), linalg to loops, memref alias folding, SCF to
       CF, strided metadata, affine, then vector (`reassociate-fp-reductions`,
       docs/CPU-CODEGEN.md trap 14), memref, arith, math, index, ub, cf and func to
       LLVM with the bare-pointer memref call convention.
    4. For each kernel an ABI entry `llvm.func @<kernel>(%d: !llvm.ptr,
       %workspace: !llvm.ptr, %x: i32, %y: i32, %z: i32)` loads the binding
       pointers from `d->bindings` and calls the body. The entry keeps the
       kernel's symbol (dispatches still name it) and its attributes
       (`fuel.kernel_id`, `fuel.op_kind`, `fuel.revision`, `fuel.schedule`,
       `fuel.workgroups`, `fuel.workspace_bytes`) and names its body in
       `fuel.kernel_body`.

    A kernel calling a function the module does not define (e.g. `expf`,
    `malloc`) is an error naming the kernel and the function.

    Known limits: f32 lanes define the vector width for every element type;
    kernels that were never scheduled (no `fuel.workgroups`) get the grid
    [1, 1, 1].
  }];
}

//===----------------------------------------------------------------------===//
// FuelToSPIRV
//===----------------------------------------------------------------------===//

def ConvertFuelToSPIRVPass : Pass<"convert-fuel-to-spirv", "mlir::ModuleOp"> {
  let summary = "Lowers each vulkan kernel module to one SPIR-V module with "
                "an entry point per kernel";
  let description = [{
    Objective: make each bufferized vulkan kernel module (the kernels of a
    `fuel.executable ... on vulkan:N`, after fuel-apply-schedules and
    fuel-bufferize-kernels) one `spirv.module` that fuel-serialize-executable
    writes as the device's SPIR-V module, through the gpu dialect and the
    upstream conversions (docs/LOWERING.md, "Vulkan"):

    1. Guards (errors at the kernel, naming it): the kernel was scheduled
       (`fuel.workgroup_size`, `fuel.workgroups`); it has at most one
       outermost `scf.forall` with static bounds; nothing outside that
       forall writes memory (every invocation runs it); every op left after
       the lowering below has a SPIR-V form (the conversion's own error
       otherwise, at the op).
    2. Per kernel: `memref.copy` becomes `linalg.copy`; linalg ops become
       loops (`convert-linalg-to-loops`), then memref views are folded into
       the loads and stores (`fold-memref-alias-ops`) and affine is lowered.
    3. Per kernel a `gpu.func` (`kernel`, with `spirv.entry_point_abi`
       workgroup size `fuel.workgroup_size`) in one `gpu.module` of the
       executable: invocation `i = (workgroup_id.y * grid.x +
       workgroup_id.x) * size + local_id.x` runs
       iteration `i` of the forall (its induction variables by delinearizing
       `i`, the last one fastest), guarded by `i < iterations`; without a
       forall only invocation 0 runs the body. Private scratch buffers
       (`memref.alloca`) are placed in the Function storage class. Before
       that, a kernel whose invocation runs more loop iterations than
       `max-loop-iterations` (every iteration of every `scf.for`, nested
       ones included) has its innermost loops unrolled by 2 until it fits:
       lavapipe silently leaves every loop of an invocation once 65535
       iterations in all are spent. Beyond 10 rounds (unrolled 1024 times),
       or with a loop whose trip count is not static, it is an error at the
       kernel.
       A kernel of the subgroup row schedule (`fuel.row_kernel`, set by
       fuel-apply-schedules) is instead built by `fuel::gpu::buildRowKernel`
       from its `fuel.row_tiling` (one workgroup per row, GroupNonUniform
       reductions; exp by the same polynomial as every kernel), its body
       discarded; a record that does not match its two bindings is an error
       at the kernel. Its bindings are rebound as below.
    4. `convert-math-to-spirv` on the gpu.module, `convert-gpu-to-spirv`
       (32-bit indices; target env `#spirv.vce<v1.3, [Shader],
       [SPV_KHR_storage_buffer_storage_class]>`, api Vulkan; with a row
       kernel also the capabilities `GroupNonUniform` and
       `GroupNonUniformArithmetic` and the resource limit `subgroup_size`
       its tiling was made for), then
       `spirv-lower-abi-attrs` and `spirv-update-vce` on the `spirv.module`.
       The gpu.module is erased; each kernel `func.func` stays as a private
       declaration carrying its `fuel.*` attributes (dispatches still name
       it) and `fuel.spirv_entry` (its entry point's name).

    Shared-memory matmul (GpuMatmul.cpp): a kernel that
    fuel-apply-schedules gave `fuel.gpu_matmul` (a plain matmul or
    batch_matmul, docs/LOWERING.md "Vulkan: fast schedules") is not
    lowered from its loops: its `gpu.func` is built from that attribute.
    Workgroup (x, y, z) computes the TM x TN tile of C at columns x * TN,
    rows y * TM of batch z with (TN / RN) x (TM / RM) invocations (the
    entry point's workgroup size), each a RM x RN block in registers; K
    is walked in panels of TK that the invocations copy from A and B into
    two `memref.alloc`s of memory space 3 (`Workgroup` variables), zeros
    past the edges, with a `gpu.barrier` (`ControlBarrier`) after the
    copy and after the accumulation; C is stored where it lies inside the
    matrix, so any shape runs. Errors, at the kernel: a malformed
    `fuel.gpu_matmul` or one whose target is not "vulkan", bindings that
    are not the operands it
    describes, a `fuel.workgroup_size` that is not the tiling's, panels
    beyond the device's `shared_memory_bytes` or a workgroup beyond its
    `max_workgroup_invocations` (Vulkan's guaranteed 16384 bytes and 128
    invocations where the topology gives none).

    Binding layout: argument `i` of a kernel (its inputs, then its outputs)
    is `(set 0, binding i)`, a `StorageBuffer` block of a runtime array of
    its elements (`memref<?xT>`), read from element `offset_i` on, where
    `offset_i` is the kernel's 32-bit push constant `i` (byte `4 i`): the
    remainder of the binding's byte offset after rounding it down to the
    device's `minStorageBufferOffsetAlignment`, in elements, which
    fuel-serialize-executable writes into each dispatch. Every entry point
    of the module shares one push-constant block of as many words as the
    kernel with the most bindings has (at most the device's
    `max_push_constants_bytes` in the module's topology, else
    `max-push-constants-bytes`; more is an error at the module).

    Known limits: one output element per invocation, its reductions
    sequential, except for the shared-memory matmul and conv2d kernels and
    the row kernels above, whose loops are not counted against
    `max-loop-iterations` (the row kernels run 3 ceil(cols / W) at most:
    rows of up to about 1.4 million columns with W = 64; the tiled kernels
    ceil(K / TK) panels of TK steps and their copies). The row kernels
    assume the device runs them with subgroups of exactly the recorded
    size.
  }];
  let options = [
    Option<"maxPushConstantsBytes", "max-push-constants-bytes", "unsigned",
           "128",
           "Bytes of push constants a dispatch may pass (Vulkan's guaranteed "
           "minimum of maxPushConstantsSize)">,
    Option<"maxLoopIterations", "max-loop-iterations", "uint64_t",
           "65535",
           "Loop iterations one invocation of a per-element kernel may run, "
           "all its loops together (lavapipe's budget, Mesa's "
           "LP_MAX_TGSI_LOOP_ITERATIONS); 0: no bound">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::gpu::GPUDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
    "mlir::spirv::SPIRVDialect",
  ];
}

//===----------------------------------------------------------------------===//
// FuelToNVVM
//===----------------------------------------------------------------------===//

def ConvertFuelToNVVMPass : Pass<"convert-fuel-to-nvvm", "mlir::ModuleOp"> {
  let summary = "Lowers each cuda kernel module to one gpu.binary of PTX "
                "with an entry per kernel";
  let description = [{
    Objective: make each bufferized cuda kernel module (the kernels of a
    `fuel.executable ... on cuda:N`, after fuel-apply-schedules and
    fuel-bufferize-kernels) one `gpu.binary` whose `#gpu.object` holds the
    PTX text of all its kernels, for the chip of the device's
    `compute_capability` in the module's topology, which
    fuel-serialize-executable writes as the device's PTX module
    (docs/LOWERING.md, "CUDA"):

    1. Guards (errors at the kernel, naming it): the kernel was scheduled
       (`fuel.workgroup_size` = [size, 1, 1], `fuel.workgroups`); it has at
       most one outermost `scf.forall` with static bounds; nothing outside
       that forall writes memory; every binding is a static identity-layout
       memref.
    2. As convert-fuel-to-spirv (GpuKernels.h): copies as `linalg.copy`,
       linalg ops as loops, memref views folded into loads and stores,
       affine lowered.
    3. Per kernel a `gpu.func` (`kernel`, `known_block_size` [size, 1, 1])
       in one `gpu.module @<executable>_ptx` with target
       `#nvvm.target<O = 3, chip = "sm_XY", features = "+ptxNN">`: thread
       `i = (block_id.y * grid.x + block_id.x) * size + thread_id.x` runs
       iteration `i` of the forall, guarded by `i < iterations`; without a
       forall only thread 0 runs the body. The chip is `sm_<major><minor>`
       of the device's `compute_capability` (9.0 when the topology gives
       none); the PTX ISA version the lowest of 8.0 and what the chip needs
       (8.6 for 10.x, 8.7 from 12.x). The kernel `func.func` stays as a
       private declaration with its `fuel.*` attributes and
       `fuel.ptx_entry` (its `.entry` name).
       The fast schedules fuel-apply-schedules recorded are built instead
       (docs/LOWERING.md, "CUDA: fast schedules"): a kernel with
       `fuel.gpu_matmul` or `fuel.gpu_conv2d` (target "cuda") gets the
       shared-memory
       matmul body convert-fuel-to-spirv also builds (GpuMatmul.h), each
       binding a static 1-D memref, its panels workgroup attributions
       (`.shared`) between `gpu.barrier`s (`bar.sync`), `known_block_size`
       its tiling's [x, y, 1]; a kernel with `fuel.row_kernel` gets
       `buildRowKernel`'s body with its subgroup reductions lowered to
       butterfly `gpu.shuffle`s over the warp (`shfl.sync`) and its warp
       index `thread_id.x / S`. The limits they are checked against are the
       topology's, completed from CUDA's table for the compute capability
       (`getCudaLimits`).
    4. `convert-scf-to-cf`, `convert-gpu-to-nvvm` with the bare-pointer
       calling convention (each binding one pointer to its first element),
       `reconcile-unrealized-casts`. The libdevice calls that
       convert-gpu-to-nvvm makes for math ops with an exact NVPTX
       instruction (sqrt, fabs, floor, ceil, rint, trunc, round, fma,
       fmin, fmax, copysign) become LLVM intrinsics; `exp`, `log`, `tanh`,
       `erf` and the rest were already replaced by fuel-bufferize-kernels'
       polynomials, as on the CPU. So PTX needs no CUDA toolkit.
    5. LLVM's NVPTX backend, in-process, optimising at O3, emits the PTX
       (what `gpu-module-to-binary{format=isa}` does, but never looking for
       a toolkit through environment variables); the gpu.module is replaced
       by `gpu.binary @<executable>_ptx [#gpu.object<..., assembly =
       "...">]`.

    Kernel ABI: the parameters of `.entry <kernel>` are one 64-bit pointer
    per binding (inputs, then outputs, as the dispatch lists them), each to
    the binding's first element: the runtime adds the binding's byte
    offset (arena slot plus view offset) to the buffer's device address, so
    CUDA needs no element offsets. Launch: grid `fuel.workgroups`, block
    `fuel.workgroup_size`, no dynamic shared memory.

    Errors: a libdevice function left without `cuda-toolkit` (at the call,
    naming it); a `cuda-toolkit` without `nvvm/libdevice/libdevice.10.bc`
    (at the module); at the kernel, a malformed fast-schedule record,
    bindings it does not describe, a block size that is not its tiling's,
    panels beyond `shared_memory_bytes` or a block beyond
    `max_workgroup_invocations`, a row kernel sized for another warp size
    than the device's; anything without an NVVM form fails the upstream
    conversion, at the op.

    Known limits: kernels without a fast schedule run one output element per
    thread, their reductions sequential; the shared-memory kernel uses static
    shared memory only (48 KiB), no tensor cores or double buffering; the
    row kernels fold f32; at most 2^31 - 1 threads per kernel.
  }];
  let options = [
    Option<"cudaToolkit", "cuda-toolkit", "std::string", "\"\"",
           "A CUDA toolkit directory whose nvvm/libdevice/libdevice.10.bc "
           "is linked for math functions without an approximation or an "
           "NVPTX instruction; empty: none (fuel-compile passes the toolkit "
           "CMake found, or --cuda-toolkit). Never read from the "
           "environment">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::cf::ControlFlowDialect",
    "mlir::gpu::GPUDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
  ];
}

#endif // FUEL_CONVERSION_PASSES_TD
