//===- FuelExecutableOps.cpp - Executables, kernels and dispatches --------===//
//
// Builders, lookups and verifiers of `fuel.executable`,
// `fuel.library_kernel` and `fuel.dispatch`.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>

using namespace mlir;
using namespace mlir::fuel;

//===----------------------------------------------------------------------===//
// ExecutableOp
//===----------------------------------------------------------------------===//

void ExecutableOp::build(OpBuilder &builder, OperationState &state,
                         StringRef name, DeviceAttr device) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getDeviceAttrName(state.name), device);
  Region *body = state.addRegion();
  body->push_back(new Block());
}

ModuleOp ExecutableOp::getKernelModule() {
  for (Operation &op : getBodyBlock())
    if (auto module = dyn_cast<ModuleOp>(op))
      return module;
  return nullptr;
}

ModuleOp ExecutableOp::getOrCreateKernelModule() {
  if (ModuleOp module = getKernelModule())
    return module;
  OpBuilder builder(getContext());
  builder.setInsertionPointToStart(&getBodyBlock());
  return ModuleOp::create(builder, getLoc());
}

Operation *ExecutableOp::lookupKernel(StringRef name) {
  for (Operation &op : getBodyBlock()) {
    if (auto library = dyn_cast<LibraryKernelOp>(op)) {
      if (library.getSymName() == name)
        return library;
    } else if (auto module = dyn_cast<ModuleOp>(op)) {
      if (Operation *kernel = module.lookupSymbol(name))
        return kernel;
    }
  }
  return nullptr;
}

LogicalResult ExecutableOp::verify() {
  ModuleOp module;
  llvm::StringSet<> names;
  for (Operation &op : getBodyBlock()) {
    if (auto library = dyn_cast<LibraryKernelOp>(op)) {
      names.insert(library.getSymName());
      continue;
    }
    auto nested = dyn_cast<ModuleOp>(op);
    if (!nested)
      return op.emitOpError("cannot be in a 'fuel.executable': it holds one "
                            "'builtin.module' of kernels and "
                            "'fuel.library_kernel' ops only");
    if (module)
      return op.emitOpError("is a second kernel module of executable @")
             << getSymName() << "; an executable holds at most one";
    module = nested;
  }
  if (!module)
    return success();
  for (Operation &op : module.getBody()->getOperations()) {
    auto symbol =
        op.getAttrOfType<StringAttr>(mlir::SymbolTable::getSymbolAttrName());
    if (symbol && names.contains(symbol.getValue()))
      return op.emitOpError("kernel name @")
             << symbol.getValue()
             << " is also a 'fuel.library_kernel' of executable @"
             << getSymName();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LibraryKernelOp
//===----------------------------------------------------------------------===//

static constexpr int64_t kUint32Limit = int64_t(1) << 32;

LogicalResult LibraryKernelOp::verify() {
  if (getKernelId().empty() || getShim().empty() || getEntry().empty())
    return emitOpError("needs a kernel id, a shim and an entry");
  ArrayRef<int64_t> grid = getGrid();
  if (grid.size() != 3)
    return emitOpError("grid has ")
           << grid.size() << " entries; it needs 3 (x, y, z)";
  for (int64_t count : grid)
    if (count < 1 || count >= kUint32Limit)
      return emitOpError("grid entry ") << count << " is outside [1, 2^32)";
  for (auto [index, param] : llvm::enumerate(getParams()))
    if (param < 0 || param >= kUint32Limit)
      return emitOpError("param ")
             << index << " is " << param
             << ": params are 32-bit push constants, in [0, 2^32)";
  if (getWorkspaceAttr().getInt() < 0)
    return emitOpError("workspace is negative (")
           << getWorkspaceAttr().getInt() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

ExecutableOp DispatchOp::getExecutable() {
  return SymbolTable::lookupNearestSymbolFrom<ExecutableOp>(
      getOperation(), getKernel().getRootReference());
}

Operation *DispatchOp::getKernelOp() {
  if (getKernel().getNestedReferences().size() != 1)
    return nullptr;
  ExecutableOp executable = getExecutable();
  if (!executable)
    return nullptr;
  return executable.lookupKernel(getKernel().getLeafReference());
}

static bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

LogicalResult DispatchOp::verify() {
  for (Value input : getInputs())
    if (!isStaticTensor(input.getType()))
      return emitOpError("operand of type ")
             << input.getType()
             << " is no statically shaped ranked tensor: kernels bind "
                "static tensors only";
  for (Type result : getResultTypes())
    if (!isStaticTensor(result))
      return emitOpError("result of type ")
             << result
             << " is no statically shaped ranked tensor: kernels bind "
                "static tensors only";
  return success();
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  SymbolRefAttr kernel = getKernel();
  if (kernel.getNestedReferences().size() != 1)
    return emitOpError("kernel ") << kernel << " must be @executable::@kernel";
  auto executable = symbolTable.lookupNearestSymbolFrom<ExecutableOp>(
      getOperation(), kernel.getRootReference());
  if (!executable)
    return emitOpError("names no 'fuel.executable' @")
           << kernel.getRootReference().getValue();
  Operation *target = executable.lookupKernel(kernel.getLeafReference());
  if (!target)
    return emitOpError("executable @")
           << executable.getSymName() << " has no kernel @"
           << kernel.getLeafReference().getValue();
  if (isa<LibraryKernelOp>(target))
    return success();
  auto function = dyn_cast<FunctionOpInterface>(target);
  if (!function)
    return emitOpError("kernel ") << kernel << " is no function";
  // A kernel's signature stops being memrefs once lowering reaches the LLVM
  // dialect; only memref signatures are checked.
  ArrayRef<Type> arguments = function.getArgumentTypes();
  if (!llvm::all_of(arguments, [](Type t) { return isa<MemRefType>(t); }))
    return success();
  SmallVector<Type> bindings(getInputs().getTypes());
  llvm::append_range(bindings, getResultTypes());
  if (arguments.size() != bindings.size())
    return emitOpError("kernel ")
           << kernel << " has " << arguments.size()
           << " bindings; the dispatch binds " << bindings.size()
           << " (operands, then results)";
  for (auto [index, pair] : llvm::enumerate(llvm::zip(arguments, bindings))) {
    auto memref = cast<MemRefType>(std::get<0>(pair));
    auto tensor = cast<RankedTensorType>(std::get<1>(pair));
    if (memref.getShape() != tensor.getShape() ||
        memref.getElementType() != tensor.getElementType() ||
        !memref.getLayout().isIdentity())
      return emitOpError("binding ")
             << index << " of type " << tensor
             << " does not match the kernel's argument " << memref;
  }
  return success();
}
