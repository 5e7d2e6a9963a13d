//===- FuelProgramOps.td - The host program ----------------*- tablegen -*-===//
//
// The host-stage IR (docs/LOWERING.md, "Host program"): a module-level
// `fuel.program` holding the buffers and commands of the executable's
// Program (include/fuel/Runtime/Executable.h) in IR form, and the
// `fuel.constant_data` segments its constant buffers hold.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELPROGRAMOPS_TD
#define FUEL_DIALECT_FUEL_IR_FUELPROGRAMOPS_TD

include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// ConstantDataOp
//===----------------------------------------------------------------------===//

def Fuel_ConstantDataOp : Fuel_Op<"constant_data", [Symbol,
    HasParent<"::mlir::ModuleOp">]> {
  let summary = "The bytes of a constant segment of the executable";
  let description = [{
    A constant (a model's weights) that the executable carries as a segment
    and that the runtime places on every device with a constant buffer of
    it. `value` is a `dense` or `dense_resource` elements attribute of a
    statically shaped tensor; its bytes, row-major, are the segment (a
    splat is stored expanded).

    ```mlir
    fuel.constant_data @cst_0 dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, ElementsAttr:$value);
  let assemblyFormat = "$sym_name $value attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

def Fuel_ProgramOp : Fuel_Op<"program", [Symbol, IsolatedFromAbove,
    SingleBlock, NoTerminator, HasParent<"::mlir::ModuleOp">]> {
  let summary = "The host program of a lowered function";
  let description = [{
    What the runtime runs for function `sym_name`: per-device arenas
    (`fuel.arena`), buffers (`fuel.buffer`, `fuel.buffer_view`) and
    commands (`fuel.launch`, `fuel.transfer`) in execution order. Each
    command is numbered by its position among the program's commands and
    lists the earlier commands it waits for (`after [...]`). The kernels the
    launches name live in the module's `fuel.executable` ops.

    ```mlir
    fuel.program @mlp {
      fuel.arena cpu size 262144 align 64
      %x = fuel.buffer input 0 "x" : tensor<64x784xf32> on cpu
      %w = fuel.buffer constant @cst_0 : tensor<784x1024xf32> on cpu
      %t = fuel.buffer arena offset 0 : tensor<64x1024xf32> on cpu
      %v = fuel.buffer_view %t offset 0 : tensor<64x1024xf32> to tensor<65536xf32>
      %y = fuel.buffer output 0 "result0" : tensor<65536xf32> on cpu
      fuel.launch @cpu::@matmul_0 (%x, %w) -> (%t) grid [4, 1, 1]
          {node = 0 : i64, predicted_ns = 1000 : i64}
          : (tensor<64x784xf32>, tensor<784x1024xf32>) -> (tensor<64x1024xf32>)
      fuel.transfer %v to %y after [0] : tensor<65536xf32> to tensor<65536xf32>
    }
    ```

    The verifier checks that every device a buffer lives on has one arena,
    that arena buffers and views lie inside their arena or source, that
    input and output indices are dense and unique, that constant buffers
    name a `fuel.constant_data` of their byte size, that the bindings of a
    launch share one device, and that dependencies name earlier commands.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

//===----------------------------------------------------------------------===//
// ArenaOp
//===----------------------------------------------------------------------===//

def Fuel_ArenaOp : Fuel_Op<"arena", [HasParent<"ProgramOp">]> {
  let summary = "The arena of one device";
  let description = [{
    `size` bytes, aligned to `align` (a power of two), that the runtime
    allocates per session on `device` and that the arena buffers of that
    device are slots of.

    ```mlir
    fuel.arena cpu size 262144 align 64
    ```
  }];
  let arguments = (ins Fuel_DeviceAttr:$device, I64Attr:$size,
                       I64Attr:$align);
  let assemblyFormat = [{
    custom<BareDevice>($device) `size` $size `align` $align attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// BufferOp
//===----------------------------------------------------------------------===//

def Fuel_BufferOp : Fuel_Op<"buffer", [Pure, HasParent<"ProgramOp">]> {
  let summary = "A buffer of the host program";
  let description = [{
    The bytes of a tensor of the result's type (statically shaped), on
    `device`. `kind` says where they live:

    * `arena ... offset N`: a slot of the device's arena;
    * `input I "name"` / `output I "name"`: bound by the caller to the
      function's input or output `I`;
    * `constant @sym`: the `fuel.constant_data` `@sym`, placed on the device
      when the executable loads.

    ```mlir
    %x = fuel.buffer input 0 "x" : tensor<64x784xf32> on cpu
    %w = fuel.buffer constant @cst_0 : tensor<10xf32> on cpu
    %t = fuel.buffer arena offset 128 : tensor<64x1024xf32> on cpu
    ```
  }];
  let arguments = (ins StrAttr:$kind, Fuel_DeviceAttr:$device,
                       OptionalAttr<I64Attr>:$offset,
                       OptionalAttr<I64Attr>:$index,
                       OptionalAttr<StrAttr>:$tensor_name,
                       OptionalAttr<FlatSymbolRefAttr>:$constant);
  let results = (outs AnyStaticShapeTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isArena() { return getKind() == "arena"; }
    bool isInput() { return getKind() == "input"; }
    bool isOutput() { return getKind() == "output"; }
    bool isConstant() { return getKind() == "constant"; }
  }];
}

//===----------------------------------------------------------------------===//
// BufferViewOp
//===----------------------------------------------------------------------===//

def Fuel_BufferViewOp : Fuel_Op<"buffer_view", [Pure,
    HasParent<"ProgramOp">]> {
  let summary = "The bytes of a buffer from an offset, as another tensor";
  let description = [{
    The bytes of `source` from byte `offset`, as many as the result type
    holds: a reshape, a bitcast or a contiguous slice of a buffer, sharing
    its bytes. The view lies inside its source.

    ```mlir
    %v = fuel.buffer_view %t offset 256 : tensor<64x1024xf32> to tensor<64xf32>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$source, I64Attr:$offset);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = [{
    $source `offset` $offset attr-dict `:` type($source) `to` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

def Fuel_LaunchOp : Fuel_Op<"launch", [AttrSizedOperandSegments,
    HasParent<"ProgramOp">]> {
  let summary = "Runs a kernel over its workgroup grid";
  let description = [{
    A dispatch command: kernel `kernel` (a generated kernel function or a
    `fuel.library_kernel` of a `fuel.executable`) over the grid `grid`,
    reading the buffers `inputs` and writing the buffers `outputs` (its
    bindings, in order). `after` lists the earlier commands it waits for.
    For reports it carries the plan node (`node`, absent for a host-op
    kernel), `op_kind`, and the kernel's `kernel_id`, `source`
    ("generated" or "library") and `revision` (the 64-bit revision's bits),
    and `predicted_ns`; `workspace_bytes` is the kernel's scratch per
    worker. fuel-plan-buffers copies these from the kernel, so that the
    serializer does not depend on what the kernel's lowering keeps.

    ```mlir
    fuel.launch @cpu::@matmul_0 (%x, %w) -> (%t) grid [4, 1, 1] after [0]
        {node = 0 : i64, predicted_ns = 1000 : i64}
        : (tensor<64x784xf32>, tensor<784x1024xf32>) -> (tensor<64x1024xf32>)
    ```
  }];
  let arguments = (ins SymbolRefAttr:$kernel,
                       Variadic<AnyStaticShapeTensor>:$inputs,
                       Variadic<AnyStaticShapeTensor>:$outputs,
                       DenseI64ArrayAttr:$grid,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$after,
                       OptionalAttr<I64Attr>:$node,
                       OptionalAttr<StrAttr>:$op_kind,
                       OptionalAttr<StrAttr>:$kernel_id,
                       OptionalAttr<StrAttr>:$source,
                       OptionalAttr<I64Attr>:$revision,
                       OptionalAttr<I64Attr>:$workspace_bytes,
                       OptionalAttr<I64Attr>:$predicted_ns);
  let assemblyFormat = [{
    $kernel `(` $inputs `)` `->` `(` $outputs `)` `grid` $grid
    (`after` $after^)? attr-dict
    `:` `(` type($inputs) `)` `->` `(` type($outputs) `)`
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TransferOp
//===----------------------------------------------------------------------===//

def Fuel_TransferOp : Fuel_Op<"transfer", [HasParent<"ProgramOp">]> {
  let summary = "Copies the bytes of one buffer into another";
  let description = [{
    A copy command: all bytes of `source` into `target`, on the same device
    or between devices; both hold the same number of bytes. `after` lists
    the earlier commands it waits for.

    ```mlir
    fuel.transfer %t to %y after [0] : tensor<64x10xf32> to tensor<64x10xf32>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$source,
                       AnyStaticShapeTensor:$target,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$after,
                       OptionalAttr<I64Attr>:$predicted_ns);
  let assemblyFormat = [{
    $source `to` $target (`after` $after^)? attr-dict
    `:` type($source) `to` type($target)
  }];
  let hasVerifier = 1;
}

#endif // FUEL_DIALECT_FUEL_IR_FUELPROGRAMOPS_TD
