//===- FuelProgramOps.cpp - The host program ops --------------------------===//
//
// Assembly and verifiers of `fuel.program`, `fuel.arena`, `fuel.buffer`,
// `fuel.buffer_view`, `fuel.launch`, `fuel.transfer` and
// `fuel.constant_data`, and the helpers of FuelProgram.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelProgram.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <map>

using namespace mlir;
using namespace mlir::fuel;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<uint64_t> mlir::fuel::elementByteSize(Type type) {
  if (type.isInteger(1))
    return 1;
  if (!type.isIntOrFloat())
    return std::nullopt;
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 0 || width % 8 != 0)
    return std::nullopt;
  return width / 8;
}

std::optional<uint64_t> mlir::fuel::tensorByteSize(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  std::optional<uint64_t> bytes = elementByteSize(tensor.getElementType());
  if (!bytes)
    return std::nullopt;
  uint64_t total = *bytes;
  for (int64_t dim : tensor.getShape())
    if (__builtin_mul_overflow(total, uint64_t(dim), &total))
      return std::nullopt;
  return total;
}

std::optional<BufferRange> mlir::fuel::resolveBufferRange(Value value) {
  uint64_t offset = 0;
  std::optional<uint64_t> length = tensorByteSize(value.getType());
  if (!length)
    return std::nullopt;
  while (auto view = value.getDefiningOp<BufferViewOp>()) {
    offset += view.getOffset();
    value = view.getSource();
  }
  auto root = value.getDefiningOp<BufferOp>();
  if (!root)
    return std::nullopt;
  return BufferRange{root, offset, *length};
}

Operation *mlir::fuel::lookupProgramKernel(ModuleOp module,
                                           SymbolRefAttr kernel,
                                           ExecutableOp *executable) {
  if (!module || kernel.getNestedReferences().size() != 1)
    return nullptr;
  auto exe = dyn_cast_or_null<ExecutableOp>(
      SymbolTable::lookupSymbolIn(module, kernel.getRootReference()));
  if (!exe)
    return nullptr;
  if (executable)
    *executable = exe;
  return exe.lookupKernel(kernel.getLeafReference());
}

//===----------------------------------------------------------------------===//
// ConstantDataOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantDataOp::verify() {
  auto type = dyn_cast<RankedTensorType>(getValue().getType());
  if (!type || !tensorByteSize(type))
    return emitOpError("expects a statically shaped tensor of a byte-sized "
                       "element type, got ")
           << getValue().getType();
  if (!isa<DenseElementsAttr, DenseResourceElementsAttr>(getValue()))
    return emitOpError("expects dense or dense_resource data");
  return success();
}

//===----------------------------------------------------------------------===//
// ArenaOp
//===----------------------------------------------------------------------===//

LogicalResult ArenaOp::verify() {
  if (getSize() < 0)
    return emitOpError("size must be non-negative, got ") << getSize();
  int64_t align = getAlign();
  if (align <= 0 || (align & (align - 1)) != 0)
    return emitOpError("alignment must be a power of two, got ") << align;
  return success();
}

//===----------------------------------------------------------------------===//
// BufferOp
//===----------------------------------------------------------------------===//

ParseResult BufferOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  SMLoc kindLoc = parser.getCurrentLocation();
  StringRef kind;
  if (parser.parseKeyword(&kind))
    return failure();
  result.addAttribute(getKindAttrName(result.name), b.getStringAttr(kind));
  if (kind == "input" || kind == "output") {
    int64_t index;
    std::string name;
    if (parser.parseInteger(index) || parser.parseString(&name))
      return failure();
    result.addAttribute(getIndexAttrName(result.name),
                        b.getI64IntegerAttr(index));
    result.addAttribute(getTensorNameAttrName(result.name),
                        b.getStringAttr(name));
  } else if (kind == "constant") {
    FlatSymbolRefAttr sym;
    if (parser.parseAttribute(sym))
      return failure();
    result.addAttribute(getConstantAttrName(result.name), sym);
  } else if (kind != "arena") {
    return parser.emitError(kindLoc, "expected a buffer kind: 'arena', "
                                     "'input', 'output' or 'constant', got '")
           << kind << "'";
  }
  if (kind == "arena") {
    int64_t offset;
    if (parser.parseKeyword("offset") || parser.parseInteger(offset))
      return failure();
    result.addAttribute(getOffsetAttrName(result.name),
                        b.getI64IntegerAttr(offset));
  }
  Type type;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) || parser.parseKeyword("on"))
    return failure();
  FailureOr<DeviceAttr> device = DeviceAttr::parseBare(parser);
  if (failed(device))
    return failure();
  result.addAttribute(getDeviceAttrName(result.name), *device);
  result.addTypes(type);
  return success();
}

void BufferOp::print(OpAsmPrinter &p) {
  p << ' ' << getKind();
  if (isInput() || isOutput()) {
    p << ' ' << (getIndex() ? *getIndex() : 0) << ' ';
    p.printString(getTensorName() ? *getTensorName() : "");
  } else if (isConstant() && getConstantAttr()) {
    p << ' ';
    p.printAttribute(getConstantAttr());
  }
  if (isArena())
    p << " offset " << (getOffset() ? *getOffset() : 0);
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getKindAttrName(), getDeviceAttrName(),
                           getOffsetAttrName(), getIndexAttrName(),
                           getTensorNameAttrName(), getConstantAttrName()});
  p << " : " << getType() << " on ";
  getDevice().printBare(p);
}

LogicalResult BufferOp::verify() {
  if (!tensorByteSize(getType()))
    return emitOpError("expects a tensor of a byte-sized element type, got ")
           << getType();
  StringRef kind = getKind();
  bool needsIndex = kind == "input" || kind == "output";
  if (kind != "arena" && !needsIndex && kind != "constant")
    return emitOpError("unknown buffer kind '") << kind << "'";
  if (bool(getOffset()) != (kind == "arena"))
    return emitOpError("an offset is given for arena buffers only");
  if (bool(getIndex()) != needsIndex || bool(getTensorName()) != needsIndex)
    return emitOpError("an index and a name are given for inputs and outputs "
                       "only");
  if (bool(getConstant()) != (kind == "constant"))
    return emitOpError("a constant symbol is given for constant buffers only");
  if (getOffset() && *getOffset() < 0)
    return emitOpError("offset must be non-negative, got ") << *getOffset();
  if (getIndex() && *getIndex() < 0)
    return emitOpError("index must be non-negative, got ") << *getIndex();
  return success();
}

//===----------------------------------------------------------------------===//
// BufferViewOp
//===----------------------------------------------------------------------===//

LogicalResult BufferViewOp::verify() {
  std::optional<uint64_t> source = tensorByteSize(getSource().getType());
  std::optional<uint64_t> view = tensorByteSize(getType());
  if (!source || !view)
    return emitOpError("expects tensors of byte-sized element types");
  if (getOffset() < 0 || uint64_t(getOffset()) > *source ||
      *view > *source - uint64_t(getOffset()))
    return emitOpError("view of ")
           << *view << " bytes at offset " << getOffset()
           << " exceeds its source of " << *source << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp and TransferOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  if (getGrid().size() != 3 || llvm::any_of(getGrid(), [](int64_t g) {
        return g < 1 || g > UINT32_MAX;
      }))
    return emitOpError("grid must be three positive 32-bit sizes");
  if (getOutputs().empty())
    return emitOpError("writes no buffer");
  return success();
}

LogicalResult TransferOp::verify() {
  if (tensorByteSize(getSource().getType()) !=
      tensorByteSize(getTarget().getType()))
    return emitOpError("copies between buffers of different byte sizes: ")
           << getSource().getType() << " and " << getTarget().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state,
                      StringRef name) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  Region *body = state.addRegion();
  body->push_back(new Block());
}

namespace {

/// Checks a command's dependencies: earlier commands only, ascending.
LogicalResult verifyDeps(Operation *op, ArrayRef<int64_t> deps, int64_t index) {
  int64_t previous = -1;
  for (int64_t dep : deps) {
    if (dep < 0 || dep >= index)
      return op->emitOpError("command ")
             << index << " depends on command " << dep
             << ", which is not an earlier command";
    if (dep <= previous)
      return op->emitOpError("dependencies must be ascending and unique");
    previous = dep;
  }
  return success();
}

/// Checks that the indices of inputs or outputs are exactly 0..n-1.
LogicalResult verifyDense(ProgramOp program,
                          const std::map<int64_t, BufferOp> &byIndex,
                          StringRef what) {
  int64_t expected = 0;
  for (auto [index, buffer] : byIndex) {
    if (index != expected)
      return buffer.emitOpError() << what << " " << index << " leaves " << what
                                  << " " << expected << " unbound";
    ++expected;
  }
  (void)program;
  return success();
}

} // namespace

LogicalResult ProgramOp::verify() {
  llvm::DenseMap<Attribute, ArenaOp> arenas;
  std::map<int64_t, BufferOp> inputs, outputs;
  auto module = (*this)->getParentOfType<ModuleOp>();
  int64_t commandIndex = 0;

  auto checkBinding = [&](Operation *op, Value v,
                          bool written) -> FailureOr<BufferRange> {
    std::optional<BufferRange> range = resolveBufferRange(v);
    if (!range)
      return op->emitOpError("operand is not a buffer of the program");
    if (written && (range->root.isInput() || range->root.isConstant()))
      return op->emitOpError("writes the ")
             << range->root.getKind() << " buffer "
             << (range->root.isInput() ? "of input " : "")
             << (range->root.isInput() ? std::to_string(*range->root.getIndex())
                                       : std::string())
             << ", which is read-only";
    return *range;
  };

  for (Operation &op : getBodyBlock()) {
    if (auto arena = dyn_cast<ArenaOp>(op)) {
      if (commandIndex != 0 ||
          !arenas.try_emplace(arena.getDevice(), arena).second)
        return arena.emitOpError("duplicate arena of device ")
               << arena.getDevice().str();
      continue;
    }
    if (auto buffer = dyn_cast<BufferOp>(op)) {
      auto it = arenas.find(buffer.getDevice());
      if (it == arenas.end())
        return buffer.emitOpError("lives on device ")
               << buffer.getDevice().str()
               << ", which has no arena in the program";
      uint64_t bytes = *tensorByteSize(buffer.getType());
      if (buffer.isArena()) {
        uint64_t offset = *buffer.getOffset();
        uint64_t size = it->second.getSize();
        if (offset > size || bytes > size - offset)
          return buffer.emitOpError("slot [")
                 << offset << ", " << offset + bytes
                 << ") exceeds the arena of " << buffer.getDevice().str()
                 << " (" << size << " bytes)";
      } else if (buffer.isInput() || buffer.isOutput()) {
        auto &byIndex = buffer.isInput() ? inputs : outputs;
        if (!byIndex.try_emplace(*buffer.getIndex(), buffer).second)
          return buffer.emitOpError("duplicate ")
                 << buffer.getKind() << " " << *buffer.getIndex();
      } else {
        auto data = module
                        ? SymbolTable::lookupNearestSymbolFrom<ConstantDataOp>(
                              module, buffer.getConstantAttr())
                        : ConstantDataOp();
        if (!data)
          return buffer.emitOpError("names no fuel.constant_data: ")
                 << buffer.getConstantAttr();
        if (tensorByteSize(data.getValue().getType()) != bytes)
          return buffer.emitOpError("holds ")
                 << bytes << " bytes, but constant " << buffer.getConstantAttr()
                 << " has " << *tensorByteSize(data.getValue().getType());
      }
      continue;
    }
    if (isa<BufferViewOp>(op))
      continue;
    if (auto launch = dyn_cast<LaunchOp>(op)) {
      if (failed(verifyDeps(launch, launch.getAfter(), commandIndex)))
        return failure();
      std::optional<DeviceAttr> device;
      for (auto [i, v] : llvm::enumerate(launch->getOperands())) {
        bool written = i >= launch.getInputs().size();
        FailureOr<BufferRange> range = checkBinding(launch, v, written);
        if (failed(range))
          return failure();
        DeviceAttr d = range->root.getDevice();
        if (device && *device != d)
          return launch.emitOpError("binds buffers on ")
                 << device->str() << " and " << d.str();
        device = d;
      }
      ExecutableOp exe;
      if (module && !lookupProgramKernel(module, launch.getKernel(), &exe))
        return launch.emitOpError("names no kernel of a fuel.executable: ")
               << launch.getKernel();
      if (exe && device && exe.getDevice() != *device)
        return launch.emitOpError("binds buffers on ")
               << device->str() << ", but its kernel runs on "
               << exe.getDevice().str();
      ++commandIndex;
      continue;
    }
    if (auto transfer = dyn_cast<TransferOp>(op)) {
      if (failed(verifyDeps(transfer, transfer.getAfter(), commandIndex)) ||
          failed(checkBinding(transfer, transfer.getSource(), false)) ||
          failed(checkBinding(transfer, transfer.getTarget(), true)))
        return failure();
      ++commandIndex;
      continue;
    }
    return op.emitOpError("is not an op of a host program");
  }
  if (failed(verifyDense(*this, inputs, "input")) ||
      failed(verifyDense(*this, outputs, "output")))
    return failure();
  return success();
}
