//===- Passes.td - Code generation passes ------------------*- tablegen -*-===//
//
// The pass that gives each outlined kernel its schedule for the device the
// plan chose: transform-dialect schedules for cpu kernels (by ISA class),
// tiled and row kernels for the GPU targets (docs/CPU-CODEGEN.md,
// docs/LOWERING.md). Its helpers live beside it: lib/Codegen/CPU (the cpu
// kernels, the in-process object step) and lib/Codegen/GPU (what both GPU
// targets share). docs/FuelCodegenPasses.md is generated from this file.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_PASSES_TD
#define FUEL_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Kernel code generation (docs/CPU-CODEGEN.md, docs/LOWERING.md)
//===----------------------------------------------------------------------===//

def FuelApplySchedulesPass
    : Pass<"fuel-apply-schedules", "mlir::ModuleOp"> {
  let summary = "Runs each generated kernel's transform schedule (cpu, "
                "vulkan and cuda)";
  let description = [{
    Objective: turn each generated kernel of each cpu `fuel.executable`
    from the node's linalg body into tiled, vectorised code on tensors,
    following the winner's schedule. For every kernel function with a
    `fuel.schedule` (a path such as `kernels/schedules/cpu/matmul.mlir`;
    the schedule files are compiled into fuel, so the bytes applied are the
    bytes of the source tree, from any working directory), the pass parses
    the file (once per run, however many kernels name it), picks the named sequence of the target's ISA class (`@avx512`
    with avx512f, `@avx2` with avx2 and fma, `@generic` otherwise), binds
    the kernel function as its first argument and the shape parameters its
    other arguments ask for (`fuel.param`, docs/CPU-CODEGEN.md "Schedule
    files"), applies it with the transform interpreter, then canonicalizes
    and CSEs the kernel. It records the grid, from the outermost
    `scf.forall` (the workgroup split; none gives [1, 1, 1]), as
    `fuel.workgroups = array<i64: X, Y, Z>` and the workspace as
    `fuel.workspace_bytes` (0: scratch lives on the stack).

    Packed B (docs/CPU-CODEGEN.md, "Packed B panels"): when the sequence
    carries `fuel.pack_b = P` and the root is a `linalg.matmul` or
    `linalg.batch_matmul` with default maps, static shapes, N a multiple
    of P, a K x P panel of at most 128 KiB and C computed in place, the
    pass rewrites the root, after
    computing the parameters, into B panels [.., N/P, K, P] (a
    `linalg.transpose` of a view of B) and a contraction `linalg.generic`
    writing C through a view; the `packed()` parameter tells the sequence.
    With `fuel.pack_b_if_constant` on the sequence only a constant B (below)
    is packed.
    When every dispatch of such a kernel binds a dense f32 `arith.constant`
    as B, each constant is replaced by its panel layout (packed here, once)
    and the kernel's B binding by one of that type, so the kernel copies
    nothing; the dispatches keep their node and prediction.

    Vulkan row kernels (GpuRowKernels.h; docs/LOWERING.md "Vulkan: fast
    schedules"): a vulkan kernel whose body is one f32 row reduction
    (`linalg.reduce` or a reducing `linalg.generic` over the innermost
    dimensions of binding 0 by addf, maximumf or minimumf from a fill of its
    identity) or one `linalg.softmax` over the innermost dimension takes,
    instead of its `@vulkan` sequence, the subgroup row schedule when the
    option `vulkan-row-schedule` says so: `auto` (the default) by
    `fuel::target::chooseRowSchedule`, the rule measured on lavapipe;
    `subgroup` whenever its rows fit one workgroup each in the grid (at most
    65535); `per-element` never. Such a kernel keeps its tensor body and records
    `fuel.row_kernel` (sum, max, min, softmax), `fuel.row_tiling = array<i64:
    rows, cols, S, G>` (`fuel::target::chooseReductionTiling` on the
    device's limits), `fuel.workgroup_size = [S * G, 1, 1]` and
    `fuel.workgroups = [rows, 1, 1]`; convert-fuel-to-spirv builds its
    kernel. A device whose topology states no limits keeps the per-element
    schedule. Errors, at the kernel: limits that lack `subgroup_size`,
    `max_workgroup_invocations` or `shared_memory_bytes`, or are too small
    (a subgroup wider than the workgroup limit, a subgroup size that is not
    a power of two), naming the field; at the module: an unknown
    `vulkan-row-schedule`.

    The target is the module's topology's cpu target, else the compiling
    host; `target-cpu`/`target-features`/`target-triple` override it (cross
    compilation, tests). The target used is stamped on each kernel module as
    `fuel.cpu_target = {cpu, features, triple}`, which the later stages
    read.

    Vulkan kernels take their schedule's `@vulkan` sequence, with the
    workgroup size from the device's limits (docs/LOWERING.md, "Vulkan"),
    except matmul and batch_matmul kernels that take the shared-memory
    schedule (GpuMatmul.cpp, `vulkan-matmul=auto`; the option's
    `tiled` also takes it for matmuls smaller than one tile, and the same
    choice applies to plain conv2d kernels): a plain matmul or
    batch_matmul (default maps, f32, static shapes, C filled with a
    constant, no fused op) on a device whose topology gives the limits
    `fuel::target::chooseMatmulTiling` needs, whose M and N (under `auto`)
    fill at least one TM x TN tile: smaller ones run faster per element
    (docs/PERFORMANCE.md). Such a kernel keeps its
    linalg body and gets `fuel.gpu_matmul` (target "vulkan", bindings,
    shape, tiles TM x TN x TK, RM x RN elements per invocation,
    `vulkan-matmul-block`),
    `fuel.workgroup_size` = [TN / RN, TM / RM, 1] and `fuel.workgroups` =
    [ceil(N / TN), ceil(M / TM), batch]; convert-fuel-to-spirv builds its
    kernel. Any other matmul kernel takes the per-element schedule and
    records why as `fuel.gpu_schedule_note` = {reason, target} (a limit
    missing or too small is named there).

    Errors, at the kernel function and naming it: a schedule that is not
    built in (or not readable under `schedules-dir`), that does not parse,
    that lacks the ISA class's sequence or whose arguments are not the
    kernel handle and `fuel.param` parameters; a parameter the root op
    cannot give (among them `parallel(t)` on a root op without a parallel
    loop: a GPU kernel reducing to a rank-0 result has no per-element
    schedule and must run on the CPU); a failed transform; several outermost `scf.forall` loops or
    one that is not normalized, static and at most 3-D. An unknown target
    CPU or feature is an error at the kernel module.

    CUDA kernels (docs/LOWERING.md, "CUDA"): the same choices, sized from
    the device's limits completed from CUDA's table for its compute
    capability (`mlir::fuel::getCudaLimits`: warp 32, 48 KiB of static
    shared memory, 1024 threads per block where the topology states
    none). A row reduction or softmax takes the warp row schedule by
    `cuda-row-schedule` (`auto` by `chooseRowSchedule`, `warp`, or
    `per-element`): `fuel.row_kernel` and `fuel.row_tiling` as on Vulkan,
    built by convert-fuel-to-nvvm with `gpu.shuffle` (PTX `shfl.sync`). A
    plain matmul, batch_matmul or conv2d takes the shared-memory schedule
    by `cuda-matmul` (`auto`, `tiled`, `per-element`; tiles of
    `cuda-matmul-block`): `fuel.gpu_matmul` or `fuel.gpu_conv2d` with
    target "cuda", within CUDA's grid (2^31 - 1 x 65535 x 65535). A
    matched kernel that keeps the per-element schedule records why as
    `fuel.gpu_schedule_note` = {reason = "per-element: ...", target =
    "cuda"}. Every other GPU kernel, Vulkan's and CUDA's alike, takes the
    `@gpu` sequence of the shared GPU schedules (kernels/schedules/gpu/).

    An unknown `vulkan-matmul`, `cuda-matmul`, `vulkan-row-schedule` or
    `cuda-row-schedule` value is refused when the options are parsed.

    Known limits: one kernel at a time (payload root = the function), so
    schedules never see two kernels; the workspace is always 0; a matmul
    whose N is no multiple of the panel width, or whose panel would exceed
    the stack scratch (K > 1024 with 32-wide panels; K is not blocked), is
    not packed (its remainders are peeled unpacked tiles); only `DenseElementsAttr`
    constants are packed at compile time, and only when no dispatch of the
    kernel binds anything else as B.
  }];
  let options = [
    Option<"schedulesDir", "schedules-dir", "std::string", "\"\"",
           "Read schedules from this source-tree root instead of the built-in "
           "copies (for editing schedules without rebuilding)">,
    Option<"targetCpu", "target-cpu", "std::string", "\"\"",
           "LLVM CPU name to compile for instead of the topology's or the "
           "host's (e.g. skylake-avx512)">,
    Option<"targetFeatures", "target-features", "std::string", "\"\"",
           "LLVM features with target-cpu (e.g. +avx2,+fma)">,
    Option<"targetTriple", "target-triple", "std::string", "\"\"",
           "Target triple with target-cpu (default: the host's)">,
    Option<"vulkanMatmul", "vulkan-matmul", "::mlir::fuel::GpuMatmulSchedule",
           "::mlir::fuel::GpuMatmulSchedule::Automatic",
           "Vulkan matmul and batch_matmul kernels: 'auto' (the "
           "shared-memory schedule where the kernel and the device's limits "
           "allow it) or 'per-element' (always the per-element schedule)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::Automatic, "auto",
                        "the shared-memory schedule where the kernel and the "
                        "limits allow it and the matmul fills one tile"),
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::Tiled, "tiled",
                        "the shared-memory schedule wherever it applies"),
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::PerElement,
                        "per-element", "always the per-element schedule"))}]>,
    Option<"vulkanMatmulBlock", "vulkan-matmul-block", "unsigned", "0",
           "Elements of C per invocation, along M and along N, of the "
           "shared-memory matmul (0: the default, 4)">,
    Option<"cudaMatmul", "cuda-matmul", "::mlir::fuel::GpuMatmulSchedule",
           "::mlir::fuel::GpuMatmulSchedule::Automatic",
           "CUDA matmul, batch_matmul and conv2d kernels: 'auto' (the "
           "shared-memory schedule where the kernel and the device's limits "
           "allow it and the matmul fills one tile), 'tiled' (also for "
           "smaller ones) or 'per-element'",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::Automatic, "auto",
                        "the shared-memory schedule where the kernel and the "
                        "limits allow it and the matmul fills one tile"),
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::Tiled, "tiled",
                        "the shared-memory schedule wherever it applies"),
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::PerElement,
                        "per-element", "always the per-element schedule"))}]>,
    Option<"cudaMatmulBlock", "cuda-matmul-block", "unsigned", "0",
           "Elements of C per thread, along M and along N, of the CUDA "
           "shared-memory matmul (0: the default, 4)">,
    Option<"cudaRowSchedule", "cuda-row-schedule",
           "::mlir::fuel::RowScheduleMode",
           "::mlir::fuel::RowScheduleMode::Auto",
           "Row reductions and softmax on CUDA: 'auto' (by the measured "
           "rule, fuel::target::chooseRowSchedule), 'warp' (warp shuffles "
           "whenever the kernel matches) or 'per-element'",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fuel::RowScheduleMode::Auto, "auto",
                        "by the measured rule"),
             clEnumValN(::mlir::fuel::RowScheduleMode::Subgroup, "warp",
                        "warp shuffles whenever the kernel matches"),
             clEnumValN(::mlir::fuel::RowScheduleMode::PerElement,
                        "per-element", "always the per-element schedule"))}]>,
    Option<"vulkanRowSchedule", "vulkan-row-schedule",
           "::mlir::fuel::RowScheduleMode",
           "::mlir::fuel::RowScheduleMode::Auto",
           "Row reductions and softmax on Vulkan: 'auto' (by the measured "
           "rule), 'subgroup' or 'per-element'",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fuel::RowScheduleMode::Auto, "auto",
                        "by the measured rule"),
             clEnumValN(::mlir::fuel::RowScheduleMode::Subgroup, "subgroup",
                        "subgroup operations whenever the kernel matches"),
             clEnumValN(::mlir::fuel::RowScheduleMode::PerElement,
                        "per-element", "always the per-element schedule"))}]>,
  ];
}

#endif // FUEL_CODEGEN_PASSES_TD
