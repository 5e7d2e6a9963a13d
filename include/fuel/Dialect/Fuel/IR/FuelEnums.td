//===- FuelEnums.td - Enumerations of the fuel dialect -----*- tablegen -*-===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELENUMS_TD
#define FUEL_DIALECT_FUEL_IR_FUELENUMS_TD

include "fuel/Dialect/Fuel/IR/FuelDialect.td"
include "mlir/IR/EnumAttr.td"

// The attribute form of fuel::DeviceKind (fuel/Support/Device.h), in the same
// order. toPlan/fromPlan in FuelAttrs.cpp convert between the two; they are
// switches over both enums with the counts statically asserted, so a kind
// added here alone, or there alone, does not compile.
def Fuel_DeviceKind : I32EnumAttr<"DeviceKind",
    "kind of a device, which is also its backend", [
      I32EnumAttrCase<"cpu", 0>,
      I32EnumAttrCase<"cuda", 1>,
      I32EnumAttrCase<"vulkan", 2>,
    ]> {
  let cppNamespace = "::mlir::fuel";
  let genSpecializedAttr = 0;
}

/// `#fuel.backend<cuda>`: a backend, i.e. a device kind.
def Fuel_BackendAttr : EnumAttr<Fuel_Dialect, Fuel_DeviceKind, "backend"> {
  let assemblyFormat = "`<` $value `>`";
}

// The attribute form of fuel::OpKind (fuel/Support/OpKind.h), converted and
// checked the same way as Fuel_DeviceKind.
def Fuel_OpKind : I32EnumAttr<"OpKind",
    "kind of a kernel-bearing node (SEMANTICS §4)", [
      I32EnumAttrCase<"matmul", 0>,
      I32EnumAttrCase<"batch_matmul", 1>,
      I32EnumAttrCase<"conv2d", 2>,
      I32EnumAttrCase<"pool", 3>,
      I32EnumAttrCase<"reduce", 4>,
      I32EnumAttrCase<"softmax", 5>,
      I32EnumAttrCase<"elementwise", 6>,
      I32EnumAttrCase<"transpose", 7>,
      I32EnumAttrCase<"generic", 8>,
    ]> {
  let cppNamespace = "::mlir::fuel";
  let genSpecializedAttr = 0;
}

/// `#fuel.op_kind<matmul>`.
def Fuel_OpKindAttr : EnumAttr<Fuel_Dialect, Fuel_OpKind, "op_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def Fuel_TimeSource : I32EnumAttr<"TimeSource",
    "where a candidate's time_ns came from", [
      I32EnumAttrCase<"static_", 0, "static">,
      I32EnumAttrCase<"measured", 1>,
    ]> {
  let cppNamespace = "::mlir::fuel";
  let genSpecializedAttr = 0;
}

def Fuel_PathClass : I32EnumAttr<"PathClass",
    "how a link moves bytes (SEMANTICS §5)", [
      I32EnumAttrCase<"peer", 0>,
      I32EnumAttrCase<"shared_memory", 1, "shared-memory">,
      I32EnumAttrCase<"device_copy", 2, "device-copy">,
    ]> {
  let cppNamespace = "::mlir::fuel";
  let genSpecializedAttr = 0;
}

#endif // FUEL_DIALECT_FUEL_IR_FUELENUMS_TD
