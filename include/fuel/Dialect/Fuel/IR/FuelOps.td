//===- FuelOps.td - Operations of the fuel dialect ---------*- tablegen -*-===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELOPS_TD
#define FUEL_DIALECT_FUEL_IR_FUELOPS_TD

include "fuel/Dialect/Fuel/IR/FuelAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// NodeOp
//===----------------------------------------------------------------------===//

def Fuel_NodeOp : Fuel_Op<"node", [
    IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects]> {
  let summary = "A kernel-bearing node and the planner's decision for it";
  let description = [{
    Wraps one kernel-bearing op (the root of its body) with the planner's
    view of it. The body is isolated from above: each operand maps
    one-to-one, in order and by type, to an argument of the body's block,
    and the body ends in `fuel.yield`, whose operands are the node's
    results.

    A node carries an `id`, unique within its function and assigned in
    program order, and its op kind (SEMANTICS §4). Optionally:
    `pin` (a hard constraint carried over from `fuel.pin`), `kernel` (the
    one registry kernel the node may use, carried over from `fuel.kernel`:
    enumeration admits only that kernel's candidates), `on` (the
    placement, the planner's output), `destructive` (the root updates an
    operand in place), `coupling` (frontend cost adjustments) and
    `alternatives` (the decision context and the ranked candidates, winner
    first) and, after placement, `next_best <device> (<delta> ns)`: the best
    other device and the change of the function's objective if this node
    alone moved there (SEMANTICS §5, for explanation).

    ```mlir
    %y = fuel.node 3 matmul (%x, %w)
        : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32>
        on vulkan:0 alternatives #alts {
    ^bb0(%a: tensor<64x256xf32>, %b: tensor<256x512xf32>):
      %e = tensor.empty() : tensor<64x512xf32>
      %m = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x512xf32>)
                         outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
      fuel.yield %m : tensor<64x512xf32>
    }
    ```

    Id uniqueness is checked once per block, in linear time, by the first
    node of the block. Planned functions are single-block, so there it is
    uniqueness within the function. Each clause appears at most once.
  }];
  let arguments = (ins
    Variadic<AnyType>:$inputs,
    I64Attr:$id,
    Fuel_OpKindAttr:$kind,
    OptionalAttr<Fuel_PlacementAttrInterface>:$pin,
    OptionalAttr<StrAttr>:$kernel,
    OptionalAttr<Fuel_PlacementAttrInterface>:$placement,
    UnitAttr:$destructive,
    OptionalAttr<TypedArrayAttrBase<Fuel_CouplingAttr,
                                    "coupling adjustments">>:$coupling,
    OptionalAttr<Fuel_AlternativeSetAttr>:$alternatives,
    OptionalAttr<Fuel_DeviceAttr>:$next_best_device,
    OptionalAttr<I64Attr>:$next_best_delta_ns
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs, "int64_t":$id,
                   "::mlir::fuel::OpKind":$kind)>
  ];
  let extraClassDeclaration = [{
    /// The entry block of the body.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The terminator of the body.
    YieldOp getYield();
    /// The decision context, when the node has alternatives.
    DecisionAttr getDecision();
  }];
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def Fuel_YieldOp : Fuel_Op<"yield", [
    Pure, ReturnLike, Terminator, HasParent<"NodeOp">]> {
  let summary = "Returns the results of a node's body";
  let description = [{
    Terminates the body of a `fuel.node`; its operands become the node's
    results, in order and by type.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

def Fuel_CopyOp : Fuel_Op<"copy", [Pure,
    AllTypesMatch<["source", "result"]>]> {
  let summary = "Moves a tensor from one device to another";
  let description = [{
    The value of `source`, resident on device `from`, made available on
    device `to`. The devices differ; the types match.

    ```mlir
    %xv = fuel.copy %x : tensor<64x256xf32> from cpu to vulkan:0
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source, Fuel_DeviceAttr:$from,
                       Fuel_DeviceAttr:$to);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source `:` type($source) `from` custom<BareDevice>($from)
    `to` custom<BareDevice>($to) attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$source, "::mlir::fuel::DeviceAttr":$from,
                   "::mlir::fuel::DeviceAttr":$to), [{
      build($_builder, $_state, source.getType(), source, from, to);
    }]>
  ];
  let hasVerifier = 1;
}

include "fuel/Dialect/Fuel/IR/FuelExecutableOps.td"
include "fuel/Dialect/Fuel/IR/FuelProgramOps.td"

#endif // FUEL_DIALECT_FUEL_IR_FUELOPS_TD
