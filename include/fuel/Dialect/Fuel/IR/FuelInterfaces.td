//===- FuelInterfaces.td - Interfaces of the fuel dialect --*- tablegen -*-===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELINTERFACES_TD
#define FUEL_DIALECT_FUEL_IR_FUELINTERFACES_TD

include "mlir/IR/Interfaces.td"

def Fuel_PlacementAttrInterface : AttrInterface<"PlacementAttrInterface"> {
  let cppNamespace = "::mlir::fuel";
  let description = [{
    Where a node may run or does run. Today the only implementation is
    `#fuel.device<...>`, a single concrete device; the interface exists so
    that a device set or a promise resolved later can stand wherever a device
    stands (a pin, a placement) without changing the ops that carry it.
  }];
  let methods = [
    InterfaceMethod<[{
        Returns the one concrete device (a `#fuel.device`) this placement
        denotes, or a null attribute when it denotes several devices or is
        not yet resolved. (Typed as Attribute because the interface is
        declared before the device attribute.)
      }], "::mlir::Attribute", "getSingleDevice", (ins)>,
    InterfaceMethod<[{
        Returns true when a node with this placement may run on `device`, a
        `#fuel.device`.
      }], "bool", "admits", (ins "::mlir::Attribute":$device)>,
  ];
}

#endif // FUEL_DIALECT_FUEL_IR_FUELINTERFACES_TD
