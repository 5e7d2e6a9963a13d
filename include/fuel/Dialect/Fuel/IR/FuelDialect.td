//===- FuelDialect.td - The fuel dialect -------------------*- tablegen -*-===//
//
// The `fuel` dialect: kernel-bearing nodes, their candidate kernels on every
// device, the placement the planner chose, and the copies that placement
// needs.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELDIALECT_TD
#define FUEL_DIALECT_FUEL_IR_FUELDIALECT_TD

include "mlir/IR/OpBase.td"

def Fuel_Dialect : Dialect {
  let name = "fuel";
  let cppNamespace = "::mlir::fuel";
  let summary = "Kernel selection and device placement for tensor programs";
  let description = [{
    The `fuel` dialect records, for every kernel-bearing op of a tensor
    program, which kernel variant runs on which device of which backend, and
    why. A `fuel.node` wraps one kernel-bearing op (its *payload*) together
    with the planner's output: the decision context, the ranked alternative
    set, and the chosen placement. `fuel.copy` moves a tensor between devices.

    Frontends may annotate ingress IR with five discardable attributes, all
    checked by the dialect's attribute verifiers:

    * `fuel.pin = #fuel.device<...>` on an op: a hard placement constraint;
    * `fuel.kernel = "<kernel id>"` on an op: admit only that registry kernel
      (an id such as `"cpu.openblas.matmul_f32"`);
    * `fuel.residency = #fuel.device<...>` on a function argument or result:
      where the value lives;
    * `fuel.destructive` (unit) on an op that updates an operand in place;
    * `fuel.coupling = [#fuel.coupling<on = ..., node = ..., ...>]` on an op:
      cost adjustments conditional on another node's placement.

    Modules being planned carry `fuel.topology = #fuel.topology<...>`: the
    devices, their capabilities and the links between them, with a content
    hash. Next to it, `fuel.config = #fuel.config<...>` records the planning
    configuration every planning pass reads.
  }];

  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;

  let extraClassDeclaration = [{
    /// Discardable attribute names the dialect understands.
    static constexpr ::llvm::StringLiteral kPinAttrName = "fuel.pin";
    static constexpr ::llvm::StringLiteral kKernelAttrName = "fuel.kernel";
    static constexpr ::llvm::StringLiteral kResidencyAttrName =
        "fuel.residency";
    static constexpr ::llvm::StringLiteral kDestructiveAttrName =
        "fuel.destructive";
    static constexpr ::llvm::StringLiteral kCouplingAttrName = "fuel.coupling";
    static constexpr ::llvm::StringLiteral kTopologyAttrName = "fuel.topology";
    static constexpr ::llvm::StringLiteral kConfigAttrName = "fuel.config";
    static constexpr ::llvm::StringLiteral kPredictedNsAttrName =
        "fuel.predicted_ns";

    /// The kernel registry the planning passes of this context read, or
    /// nullptr for the one built into fuel. Planning code asks
    /// mlir::fuel::getKernelRegistry and embedders call
    /// mlir::fuel::setKernelRegistry (Transforms/Passes.h), which resolve
    /// the default; the dialect only holds the pointer.
    const ::fuel::target::KernelRegistry *getKernelRegistry() const {
      return kernelRegistry;
    }
    void setKernelRegistry(const ::fuel::target::KernelRegistry *registry) {
      kernelRegistry = registry;
    }

  private:
    void registerAttributes();
    const ::fuel::target::KernelRegistry *kernelRegistry = nullptr;
  public:
  }];
}

/// Base class of fuel ops.
class Fuel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fuel_Dialect, mnemonic, traits>;

#endif // FUEL_DIALECT_FUEL_IR_FUELDIALECT_TD
