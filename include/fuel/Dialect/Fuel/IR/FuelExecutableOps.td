//===- FuelExecutableOps.td - Executables and dispatches ---*- tablegen -*-===//
//
// The ops of the outlined stage: one `fuel.executable` per device holding the
// device's kernels, `fuel.library_kernel` for kernels a vendor library
// provides through a shim, and `fuel.dispatch`, which runs a kernel on
// tensors inside the planned function. Included by FuelOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELEXECUTABLEOPS_TD
#define FUEL_DIALECT_FUEL_IR_FUELEXECUTABLEOPS_TD

include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// ExecutableOp
//===----------------------------------------------------------------------===//

def Fuel_ExecutableOp : Fuel_Op<"executable", [
    IsolatedFromAbove, Symbol, SymbolTable, SingleBlock, NoTerminator,
    NoRegionArguments]> {
  let summary = "The kernels of one device";
  let description = [{
    Holds every kernel the program runs on `device`: generated kernels as
    functions of one `builtin.module` (at most one), and library kernels as
    `fuel.library_kernel` ops. A `fuel.dispatch` names a kernel as
    `@executable::@kernel`; kernel names are unique within the executable,
    across the module and the library kernels.

    A generated kernel is a `func.func` whose arguments are memrefs, the
    dispatch's inputs then its results, with identity layout (the kernel
    ABI's bindings), and whose attributes say what it is: `fuel.kernel_id`,
    `fuel.op_kind`, `fuel.revision`, `fuel.schedule`; after scheduling also
    `fuel.workgroups` (the grid) and `fuel.workspace_bytes`. Lowering
    rewrites the module in place, stage by stage, down to the LLVM dialect.

    ```mlir
    fuel.executable @cpu on cpu {
      builtin.module {
        func.func @matmul_0(%a: memref<64x784xf32>, %b: memref<784x1024xf32>,
                            %c: memref<64x1024xf32>)
            attributes {fuel.kernel_id = "cpu.generated.matmul_f32", ...} {
          ...
        }
      }
      fuel.library_kernel @openblas_matmul_1 "cpu.openblas.matmul_f32"
          shim "openblas" entry "fuel_shim_openblas_sgemm" grid [4, 1, 1]
          params [64, 1024, 784, 784, 1024, 1024, 0, 0, 16] workspace 0
          revision 5678
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Fuel_DeviceAttr:$device);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `on` custom<BareDevice>($device) attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name,
                   "::mlir::fuel::DeviceAttr":$device)>
  ];
  let extraClassDeclaration = [{
    /// The block holding the kernels.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The module of generated kernels, or null when there is none.
    ::mlir::ModuleOp getKernelModule();
    /// The module of generated kernels, created (empty, at the start of the
    /// body) when there is none.
    ::mlir::ModuleOp getOrCreateKernelModule();
    /// The kernel named `name`: a function of the kernel module or a
    /// `fuel.library_kernel`; null when there is none.
    ::mlir::Operation *lookupKernel(::llvm::StringRef name);
  }];
}

//===----------------------------------------------------------------------===//
// LibraryKernelOp
//===----------------------------------------------------------------------===//

def Fuel_LibraryKernelOp : Fuel_Op<"library_kernel", [
    Symbol, HasParent<"ExecutableOp">]> {
  let summary = "A kernel a vendor library provides through a shim";
  let description = [{
    The entry `entry` of the shim `shim` (include/fuel-c/ShimABI.h; the
    runtime loads `libfuel-shim-<shim>.so`), run over `grid` workgroups with
    `params` as its first push constants, for the registry kernel
    `kernel_id` at `revision`. `workspace` is the scratch each worker needs,
    in bytes. Params are 32-bit push constants: each lies in [0, 2^32).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$kernel_id,
                       StrAttr:$shim, StrAttr:$entry,
                       DenseI64ArrayAttr:$grid, DenseI64ArrayAttr:$params,
                       I64Attr:$workspace, I64Attr:$revision);
  let assemblyFormat = [{
    $sym_name $kernel_id `shim` $shim `entry` $entry `grid` $grid
    `params` $params `workspace` $workspace `revision` $revision attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

def Fuel_DispatchOp : Fuel_Op<"dispatch", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs a kernel of an executable on tensors";
  let description = [{
    Runs the kernel `@executable::@kernel` with the operands as its input
    bindings; the results are its output bindings, in order. The kernel's
    id, source and revision are the kernel's (its function attributes or
    its `fuel.library_kernel`); `node` names the plan node the dispatch
    comes from (absent for a host op compiled as a kernel) and
    `predicted_ns` the plan's predicted time, for reports.

    ```mlir
    %y = fuel.dispatch @cpu::@matmul_0 (%x, %w) {node = 0 : i64, predicted_ns = 1000 : i64}
        : (tensor<64x784xf32>, tensor<784x1024xf32>) -> tensor<64x1024xf32>
    ```

    A generated kernel's arguments must be memrefs of the operands' and then
    the results' shapes and element types.
  }];
  let arguments = (ins SymbolRefAttr:$kernel, Variadic<AnyType>:$inputs,
                       OptionalAttr<I64Attr>:$node,
                       OptionalAttr<I64Attr>:$predicted_ns);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $kernel ` ` `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The executable the kernel is in, or null when it cannot be found.
    ExecutableOp getExecutable();
    /// The kernel: a `func.func` of the executable's kernel module or a
    /// `fuel.library_kernel`; null when it cannot be found.
    ::mlir::Operation *getKernelOp();
  }];
}

#endif // FUEL_DIALECT_FUEL_IR_FUELEXECUTABLEOPS_TD
