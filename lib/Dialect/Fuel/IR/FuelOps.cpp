//===- FuelOps.cpp - Operations of the fuel dialect -----------------------===//
//
// Custom assembly and verifiers of `fuel.node`, `fuel.yield` and `fuel.copy`.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"

#include <unordered_map>

using namespace mlir;
using namespace mlir::fuel;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `cpu`, `cuda:0`: a device printed bare inside an op.
static ParseResult parseBareDevice(OpAsmParser &parser, DeviceAttr &device) {
  FailureOr<DeviceAttr> parsed = DeviceAttr::parseBare(parser);
  if (failed(parsed))
    return failure();
  device = *parsed;
  return success();
}

static void printBareDevice(OpAsmPrinter &printer, Operation *,
                            DeviceAttr device) {
  device.printBare(printer);
}

/// A placement: a bare device, or any other placement attribute in full.
static ParseResult parsePlacement(OpAsmParser &parser,
                                  PlacementAttrInterface &placement) {
  SMLoc loc = parser.getCurrentLocation();
  Attribute attr;
  OptionalParseResult parsed = parser.parseOptionalAttribute(attr);
  if (parsed.has_value()) {
    if (failed(*parsed))
      return failure();
    placement = dyn_cast<PlacementAttrInterface>(attr);
    if (!placement)
      return parser.emitError(loc)
             << "expected a placement (a device such as 'cpu' or 'cuda:0'), "
                "got "
             << attr;
    return success();
  }
  DeviceAttr device;
  if (parseBareDevice(parser, device))
    return failure();
  placement = device;
  return success();
}

static void printPlacement(OpAsmPrinter &printer,
                           PlacementAttrInterface placement) {
  if (auto device = dyn_cast<DeviceAttr>(placement))
    device.printBare(printer);
  else
    printer.printAttribute(placement);
}

#define GET_OP_CLASSES
#include "fuel/Dialect/Fuel/IR/FuelOps.cpp.inc"

//===----------------------------------------------------------------------===//
// NodeOp
//===----------------------------------------------------------------------===//

void NodeOp::build(OpBuilder &builder, OperationState &state,
                   TypeRange resultTypes, ValueRange inputs, int64_t id,
                   OpKind kind) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Properties &props = state.getOrAddProperties<Properties>();
  props.id = builder.getI64IntegerAttr(id);
  props.kind = OpKindAttr::get(builder.getContext(), kind);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

YieldOp NodeOp::getYield() {
  return dyn_cast<YieldOp>(getBodyBlock().getTerminator());
}

DecisionAttr NodeOp::getDecision() {
  if (AlternativeSetAttr alternatives = getAlternativesAttr())
    return alternatives.getDecision();
  return {};
}

// Syntax:
//   fuel.node <id> <kind> (<operands>) : <function-type>
//       [pin <placement>] [kernel "<kernel id>"] [on <placement>] [destructive]
//       [coupling [...]] [alternatives <attr>] [attributes {...}] <region>
ParseResult NodeOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  Properties &props = result.getOrAddProperties<Properties>();

  int64_t id;
  SMLoc idLoc = parser.getCurrentLocation();
  if (parser.parseInteger(id))
    return failure();
  if (id < 0)
    return parser.emitError(idLoc)
           << "node id must be non-negative, got " << id;
  props.id = IntegerAttr::get(IntegerType::get(ctx, 64), id);

  OpKind kind;
  if (parseOpKindKeyword(parser, kind))
    return failure();
  props.kind = OpKindAttr::get(ctx, kind);

  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SMLoc operandsLoc = parser.getCurrentLocation();
  FunctionType fnType;
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parser.parseColonType(fnType) ||
      parser.resolveOperands(operands, fnType.getInputs(), operandsLoc,
                             result.operands))
    return failure();
  result.addTypes(fnType.getResults());

  // Optional clauses, in any order, each at most once.
  llvm::SmallDenseSet<StringRef, 8> seen;
  while (true) {
    SMLoc clauseLoc = parser.getCurrentLocation();
    StringRef clause;
    if (failed(parser.parseOptionalKeyword(
            &clause, {"pin", "kernel", "on", "destructive", "coupling",
                      "alternatives", "next_best"})))
      break;
    if (!seen.insert(clause).second)
      return parser.emitError(clauseLoc)
             << "'" << clause << "' is given more than once";
    if (clause == "pin" || clause == "on") {
      PlacementAttrInterface placement;
      if (parsePlacement(parser, placement))
        return failure();
      (clause == "pin" ? props.pin : props.placement) = placement;
    } else if (clause == "kernel") {
      std::string id;
      if (parser.parseString(&id))
        return failure();
      props.kernel = StringAttr::get(ctx, id);
    } else if (clause == "destructive") {
      props.destructive = UnitAttr::get(ctx);
    } else if (clause == "next_best") {
      // next_best <device> (<signed delta> ns)
      FailureOr<DeviceAttr> device = DeviceAttr::parseBare(parser);
      int64_t delta = 0;
      if (failed(device) || parser.parseLParen())
        return failure();
      (void)parser.parseOptionalPlus();
      if (parser.parseInteger(delta) || parser.parseKeyword("ns") ||
          parser.parseRParen())
        return failure();
      props.next_best_device = *device;
      props.next_best_delta_ns =
          IntegerAttr::get(IntegerType::get(ctx, 64), delta);
    } else if (clause == "coupling") {
      if (parser.parseAttribute(props.coupling))
        return failure();
    } else if (parser.parseAttribute(props.alternatives)) {
      return failure();
    }
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  return parser.parseRegion(*body, /*arguments=*/{},
                            /*enableNameShadowing=*/false);
}

void NodeOp::print(OpAsmPrinter &p) {
  p << ' ' << getIdAttr().getInt() << ' ' << stringifyOpKind(getKind()) << " (";
  p << getInputs() << ") : ";
  p.printFunctionalType(getInputs().getTypes(), getResultTypes());
  if (PlacementAttrInterface pin = getPinAttr()) {
    p << " pin ";
    printPlacement(p, pin);
  }
  if (StringAttr kernel = getKernelAttr()) {
    p << " kernel ";
    p.printString(kernel.getValue());
  }
  if (PlacementAttrInterface placement = getPlacementAttr()) {
    p << " on ";
    printPlacement(p, placement);
  }
  if (getDestructive())
    p << " destructive";
  if (ArrayAttr coupling = getCouplingAttr()) {
    p << " coupling ";
    p.printAttribute(coupling);
  }
  if (DeviceAttr next = getNextBestDeviceAttr()) {
    p << " next_best ";
    next.printBare(p);
    IntegerAttr deltaAttr = getNextBestDeltaNsAttr();
    int64_t delta = deltaAttr ? deltaAttr.getInt() : 0;
    p << " (" << (delta >= 0 ? "+" : "") << delta << " ns)";
  }
  if (AlternativeSetAttr alternatives = getAlternativesAttr()) {
    p << " alternatives ";
    p.printAttribute(alternatives);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), getAttributeNames());
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true,
                /*printBlockTerminators=*/true);
}

/// Checks that node ids are unique among the nodes of a block, once per block
/// and in linear time (SEMANTICS §1). fuel plans single-block functions (the
/// planner rejects any other shape), so for every planned function this is
/// uniqueness within the function.
///
/// Every node walks back to the previous node of its block; only the first
/// node of a block goes on, scanning the block's ops once and recording ids
/// in a hash map. The walks back stop at the previous node, so together with
/// the one scan each op of a block is visited a bounded number of times: the
/// verifier costs O(ops) per block instead of O(nodes^2) for a per-node scan.
static LogicalResult verifyUniqueNodeIds(NodeOp self) {
  // A node not yet inserted into a block has no siblings to clash with.
  if (!self->getBlock())
    return success();
  for (Operation *prev = self->getPrevNode(); prev; prev = prev->getPrevNode())
    if (isa<NodeOp>(prev))
      return success();

  // std::unordered_map, not DenseMap: every int64 is a valid id, including
  // the values DenseMap reserves as its empty and tombstone keys.
  std::unordered_map<int64_t, Operation *> firstById;
  bool ok = true;
  for (Operation &op : *self->getBlock()) {
    auto node = dyn_cast<NodeOp>(op);
    if (!node)
      continue;
    int64_t id = node.getIdAttr().getInt();
    auto [it, inserted] = firstById.try_emplace(id, &op);
    if (inserted)
      continue;
    InFlightDiagnostic diag = node.emitOpError()
                              << "id " << id
                              << " is not unique within its function";
    diag.attachNote(it->second->getLoc()) << "first used here";
    ok = false;
  }
  return success(ok);
}

LogicalResult NodeOp::verify() {
  int64_t id = getIdAttr().getInt();
  if (id < 0)
    return emitOpError() << "id must be non-negative, got " << id;
  if (DeviceAttr next = getNextBestDeviceAttr()) {
    auto placed = dyn_cast_or_null<DeviceAttr>(getPlacementAttr());
    if (!placed)
      return emitOpError() << "has 'next_best' but no placement ('on')";
    if (placed == next)
      return emitOpError() << "next best device " << next.str()
                           << " is its own placement";
  }
  Region &body = getBody();
  if (body.empty())
    return emitOpError() << "needs a body block";
  Block &block = body.front();
  if (block.getNumArguments() != getNumOperands())
    return emitOpError() << "body has " << block.getNumArguments()
                         << " block arguments but the node has "
                         << getNumOperands()
                         << " operands; each operand maps to one argument";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(block.getArguments(), getInputs()))) {
    auto [arg, input] = pair;
    if (arg.getType() != input.getType())
      return emitOpError() << "block argument #" << index << " has type "
                           << arg.getType() << " but operand #" << index
                           << " has type " << input.getType();
  }
  auto yield =
      dyn_cast_or_null<YieldOp>(block.empty() ? nullptr : &block.back());
  if (!yield)
    return emitOpError() << "body must end in 'fuel.yield'";
  if (yield.getNumOperands() != getNumResults())
    return emitOpError() << "body yields " << yield.getNumOperands()
                         << " values but the node has " << getNumResults()
                         << " results";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(yield.getOperandTypes(), getResultTypes()))) {
    auto [yielded, declared] = pair;
    if (yielded != declared)
      return emitOpError() << "body yields " << yielded << " as value #"
                           << index << " but result #" << index << " has type "
                           << declared;
  }
  if (PlacementAttrInterface pin = getPinAttr()) {
    PlacementAttrInterface placement = getPlacementAttr();
    auto placed =
        placement ? dyn_cast_or_null<DeviceAttr>(placement.getSingleDevice())
                  : DeviceAttr();
    if (placed && !pin.admits(placed))
      return emitOpError() << "is placed on '" << placed.str()
                           << "' but pinned to " << pin;
  }
  if (StringAttr kernel = getKernelAttr())
    if (failed(verifyKernelIdShape([&] { return emitOpError(); },
                                   kernel.getValue())))
      return failure();
  if (ArrayAttr coupling = getCouplingAttr())
    for (auto [index, entry] : llvm::enumerate(coupling))
      if (!cast<CouplingAttr>(entry).getOn())
        return emitOpError() << "coupling entry #" << index
                             << " needs 'on = <device>': the device of this "
                                "node it applies to";
  return verifyUniqueNodeIds(*this);
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  if (getFrom() == getTo())
    return emitOpError() << "copies between identical devices: source and "
                            "target are both '"
                         << getFrom().str() << "'";
  return success();
}
