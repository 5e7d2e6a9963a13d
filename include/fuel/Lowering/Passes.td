//===- Passes.td - Lowering passes -------------------------*- tablegen -*-===//
//
// The passes that lower a plan (stage 6, docs/LOWERING.md): outlining each
// chosen kernel into an executable, the cpu kernels' bufferization, the host
// program and its buffers, and serialization. The kernels' schedules are
// include/fuel/Codegen/Passes.td, the conversions to target code that run
// before serialization include/fuel/Conversion/Passes.td; the `fuel-lower`
// pipeline (lib/Lowering/LowerPipeline.cpp) runs them all in order up to
// serialization. docs/FuelLoweringPasses.md is generated from this file.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LOWERING_PASSES_TD
#define FUEL_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Lowering: outlining
//===----------------------------------------------------------------------===//

def FuelOutlineKernelsPass : Pass<"fuel-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Turns every placed node into a dispatch of an outlined kernel";
  let description = [{
    Objective: the first lowering stage (planned → outlined,
    docs/LOWERING.md "Outlining"). Every function is read through its value
    flow (collectFlow). Each placed node becomes a `fuel.dispatch` of a
    kernel held in the `fuel.executable` of its device (one per device used,
    named by the device: `@cpu`, `@cuda_0`, ...; placed in device order at
    the start of the module):

    - a generated winner becomes a kernel function of the executable's
      `builtin.module`: memref arguments (the dispatch's operands, then its
      results, identity layout), the node's body on tensors between
      `bufferization.to_tensor ... restrict` (`writable` for outputs) and a
      `bufferization.materialize_in_destination` of each result into its
      output, with `fuel.kernel_id`, `fuel.op_kind`, `fuel.revision` (the
      winner's) and `fuel.schedule` (the registry record's `lowering`).
      Each output is computed in place: the destination chain (through
      fills and insert_slices used once) ending in a `tensor.empty` ends in
      the output instead, a splat constant becomes a fill of the output,
      any other destination is copied into the output first (`linalg.copy`);
    - a library winner (`openblas`, `blis`, `cublas`) becomes a
      `fuel.library_kernel` naming the shim, its entry (the record's
      `lowering`), the shim's integer params computed from the node's
      contraction (M, N, K, leading dimensions, transposes; row blocks of
      max(16, ceil(M/8) rounded up to 8) rows for `sgemm`, one batch entry
      per workgroup for `sgemm_batched`), grid, workspace and revision.

    Host ops are compiled as CPU kernels of `@cpu` (`fuel.op_kind = "host"`,
    kernel id `cpu.generated.host_<op>`, schedule
    `kernels/schedules/cpu/host.mlir`, revision xxh3_64 of
    `<kernel id>\0<schedule>`, dispatched without a node id):
    `tensor.pad`, `tensor.concat`, `tensor.insert_slice`, `tensor.generate`,
    `tensor.from_elements`, a top-level `linalg.fill`, and a strided
    `tensor.extract_slice` read by a kernel without the `strided_input` cap
    (or returned or copied). Host ops are rewritten in destination style on
    the output (pad as fill + insert_slice, concat as insert_slices,
    generate as a linalg.generic, from_elements as tensor.inserts), so
    they write it in place. A strided slice read by a generated kernel
    with the cap is folded into it: the kernel binds the slice's source and
    slices inside. Views, `fuel.copy` ops and tensor `arith.constant`s stay
    in the function; scalar constants (and pure scalar ops of constants)
    and top-level `tensor.empty`s a kernel reads are cloned into it.

    Kernels are shared: two nodes whose kernel functions print the same
    (same payload, types, winner and schedule; ids and locations do not
    take part) dispatch one kernel, and library kernels with equal
    attributes are one op. Kernel names are `<op kind>_<n>`,
    `<source>_<op kind>_<n>` and `host_<op>_<n>`, numbered per executable
    in first-use order, so the output is deterministic.

    ```mlir
    // before
    %y = fuel.node 0 matmul (%x, %w) : (...) -> tensor<64x1024xf32> on cpu
        alternatives #alts { ... }
    // after
    fuel.executable @cpu on cpu {
      builtin.module {
        func.func @matmul_0(%a: memref<64x784xf32>, %b: memref<784x1024xf32>,
                            %c: memref<64x1024xf32>) attributes {...} {...}
      }
    }
    %y = fuel.dispatch @cpu::@matmul_0 (%x, %w)
        {node = 0 : i64, predicted_ns = 1000 : i64} : (...) -> tensor<64x1024xf32>
    ```

    Errors (each at the offending op): a node that is not placed, has no
    alternatives or no candidate on its device; a winner whose kernel id is
    not in the kernel registry of the context, or whose record has no
    `lowering`; a library winner whose node is not a plain f32 contraction
    the shim expresses (row-major operands, beta 0); a destination a
    payload reads while it is a `tensor.empty`; a non-constant scalar a
    kernel would read (no scalar bindings yet); `func.call` and any op that
    is not a node, view, copy, constant, return or host op listed above
    ("cannot be lowered"). Known limits: dynamic shapes are not outlined
    (planning refuses them first); scalar function arguments cannot reach
    kernels.
  }];
  let dependentDialects = [
    "mlir::fuel::FuelDialect",
    "mlir::arith::ArithDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::func::FuncDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::memref::MemRefDialect",
    "mlir::tensor::TensorDialect"
  ];
  let statistics = [
    Statistic<"numDispatches", "dispatches", "Number of dispatches created">,
    Statistic<"numKernels", "kernels", "Number of distinct kernels created">
  ];
}


//===----------------------------------------------------------------------===//
// Lowering: bufferization of the cpu kernels
//===----------------------------------------------------------------------===//


def FuelBufferizeKernelsPass
    : Pass<"fuel-bufferize-kernels", "mlir::ModuleOp"> {
  let summary = "Bufferizes each cpu kernel module, scratch on the stack";
  let description = [{
    Objective: turn the scheduled kernels of each cpu executable from
    tensors into memrefs that write their outputs in place and never call
    malloc. On each kernel module it runs: polynomial approximation of
    `math` functions (exp, tanh, erf, rsqrt, ...: no libm calls; f32 exp by
    fuel's own lowering, FastExp.h: at most 2 ulp where the result is a
    normal float, subnormal results flushed to +0, its multiply-adds fused
    where the target has FMA), one-element `arith.maximumf`/`minimumf`
    (element-by-element code) as compares and selects instead of LLVM's
    branching expansion (MinMax.h), in softmax kernels the divide by the row
    sum as a multiply by its reciprocal, empty
    tensor elimination (outputs computed into the output bindings), one-shot
    bufferization, canonicalize and CSE, then per function buffer hoisting,
    buffer loop hoisting and promotion of buffers of at most
    `max-stack-bytes` to the stack (`memref.alloca`), then the buffer
    deallocation pipeline.

    Errors, at the kernel and naming it: a heap `memref.alloc` left (a
    scratch buffer above `max-stack-bytes` or of dynamic size); a failed
    bufferization.

    Known limits: no scratch goes into the ABI's workspace yet.
  }];
  let options = [
    Option<"maxStackBytes", "max-stack-bytes", "unsigned", "131072",
           "Largest scratch buffer promoted to the stack (the kernel ABI "
           "allows 256 KiB of stack per kernel)">,
  ];
}

//===----------------------------------------------------------------------===//
// Lowering: buffers and the host program, serialization
//===----------------------------------------------------------------------===//

def FuelPlanBuffersPass : Pass<"fuel-plan-buffers", "mlir::ModuleOp"> {
  let summary = "Turns each lowered function into a host program";
  let description = [{
    Objective: replace every function of outlined, scheduled IR (dispatches
    of `fuel.executable` kernels on tensors, tensor views, `fuel.copy`,
    tensor `arith.constant`, `func.return`) by a `fuel.program` of the same
    name: every tensor value a buffer on its device, offsets in one arena
    per device (interval packing by the IR-free planner, lib/Planner
    BufferPlan.h), and the dispatch and copy commands in program order with
    explicit dependencies.

    * Arguments become input buffers on their `fuel.residency` device (the
      host by default); results become output buffers. An input is named by
      its argument's `onnx.name` (what the ONNX importer sets), else by the
      first name in its location (a `NameLoc`, also inside a fused or
      call-site location), else `arg<i>`; an output by its result's
      `onnx.name`, else `result<i>`. The runtime names them so in its
      errors (`argument 0 (x) expects ...`). A returned value that
      a command writes, returned once and not a view of a buffer that
      another output already took, is written straight into the output
      (caller-bound); any other result (an input or constant returned, a
      value returned twice, a second view of an output) gets a copy command
      into its output at the end of the program.
    * Dispatch results are arena buffers, live from their command to their
      last reader; a kernel whose function carries `fuel.in_place =
      array<i64: ...>` (per result, the input it may overwrite, or -1) lets
      the result take the operand's slot when that read is its last.
    * `tensor.collapse_shape`, `expand_shape`, `reshape`, `bitcast`, `cast`
      and a contiguous `extract_slice` are the same bytes: a
      `fuel.buffer_view` with a byte offset, never a copy.
    * A tensor `arith.constant` becomes a module-level `fuel.constant_data`
      (equal constants share one) and a constant buffer on each device that
      reads it.
    * `fuel.copy` becomes a transfer into a new buffer on its target device.
    * Dependencies: a command waits for every earlier command whose written
      bytes it reads or writes, or whose read bytes it writes (byte ranges
      in the same arena or buffer), less those already implied through
      another of its dependencies (a transitive reduction).
    * Launches record the grid (`fuel.workgroups` of a generated kernel,
      the grid of a library kernel) and, for reports, the plan node, op
      kind, kernel id, source, revision and predicted time.

    ```mlir
    %y = fuel.dispatch @cpu::@relu_0 (%x) {node = 0 : i64, ...}
        : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
    ```
    becomes
    ```mlir
    fuel.program @f {
      fuel.arena cpu size 0 align 64
      %0 = fuel.buffer input 0 "arg0" : tensor<4xf32> on cpu
      %1 = fuel.buffer output 0 "result0" : tensor<4xf32> on cpu
      fuel.launch @cpu::@relu_0 (%0) -> (%1) grid [1, 1, 1] {node = 0 : i64, ...}
          : (tensor<4xf32>) -> (tensor<4xf32>)
    }
    ```

    Errors, at the op: an op that is not one of the above (a `fuel.node`
    left unoutlined, a `func.call`), a strided `extract_slice` (outlining
    materialises those), a dynamic shape or an element type without a byte
    size, a dispatch naming no kernel or a kernel of no executable.
    Known limits: one function per module is what serialization accepts.
    Cost: near-linear in the commands. The conflicts come from a sweep
    that keeps each byte range's last writer and its readers since
    (fuel::plan::commandDependencies), and the reduction walks back no
    further than a command's earliest conflict; packing finds a buffer's
    neighbours in time through buckets of commands (a unit pays for what
    is live around it, so a program where very many buffers live
    throughout stays quadratic).
  }];
  let dependentDialects = ["mlir::fuel::FuelDialect"];
}

def FuelSerializeExecutablePass
    : Pass<"fuel-serialize-executable", "mlir::ModuleOp"> {
  let summary = "Writes the host program and its kernels as a .fuelx file";
  let description = [{
    Objective: the executable file (docs/EXECUTABLE-FORMAT.md) of the
    module's one `fuel.program`, written with fuel::rt::ExecutableWriter:
    the devices and arenas, one ELF shared object per cpu executable
    (its LLVM-dialect kernel module compiled in-process for the cpu target
    its schedules were applied for, else the topology's, else the host's),
    the kernel entries with their workspaces, the library
    kernels, the constant segments, buffers, inputs, outputs and commands
    with their reports, the cpu target (triple, CPU, the /proc/cpuinfo
    features the code needs), the topology hash, the plan hash (xxh3 over
    the launches' node, kernel id, source, revision and device, in
    order) and the fuel version. The same IR, topology and options give
    the same bytes.

    ```sh
    fuel-opt host.mlir --convert-fuel-to-llvm \
        --fuel-serialize-executable=output=model.fuelx -o /dev/null
    ```

    The IR is not changed. Errors: no program or more than one (at the
    module); a launch of a kernel that is not in the LLVM dialect or that
    no executable holds, an element type the format has no dtype for (at
    the op); the shared-object step's errors (at the executable's module);
    what the writer's verifier refuses; a file that cannot be written.
    A vulkan executable's kernel module must hold the one spirv.module of
    convert-fuel-to-spirv: it is written as a SPIR-V module
    (ModuleFormat::SpirV, mlir::spirv::serialize) with an entry per
    launched kernel (its symbol, `fuel.workgroup_size` and the binding
    slots (set 0, binding i) per argument); a kernel not yet lowered is an
    error at the kernel. Known limits: cuda executables are refused at the
    op.
  }];
  let options = [
    Option<"output", "output", "std::string", "\"-\"",
           "Output file ('-' for standard output)">
  ];
  let dependentDialects = ["mlir::fuel::FuelDialect"];
}


#endif // FUEL_LOWERING_PASSES_TD
