//===- Passes.td - Conversions of the fuel dialect ---------*- tablegen -*-===//
//
// The conversions that lower an outlined, scheduled and bufferized program
// to target code, named like upstream conversions (docs/CPU-CODEGEN.md).
// docs/FuelPasses.md is generated from this file too.
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

#endif // FUEL_CONVERSION_PASSES_TD
