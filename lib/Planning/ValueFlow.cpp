//===- ValueFlow.cpp - Where values live and who reads them ---------------===//
//
// The value-flow model of ValueFlow.h and the residency rules it applies.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/ValueFlow.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

FlowOpKind mlir::fuel::classifyFlowOp(Operation *op) {
  if (isa<NodeOp>(op))
    return FlowOpKind::Node;
  if (isViewOp(op))
    return FlowOpKind::View;
  if (isa<CopyOp>(op))
    return FlowOpKind::Copy;
  if (isa<arith::ConstantOp>(op))
    return FlowOpKind::Constant;
  if (isa<func::ReturnOp>(op))
    return FlowOpKind::Return;
  return FlowOpKind::Host;
}

FlowTrace mlir::fuel::traceToRoot(Value v) {
  FlowTrace trace;
  while (Operation *def = v.getDefiningOp()) {
    Value source;
    if (auto copy = dyn_cast<CopyOp>(def))
      source = copy.getSource();
    else
      source = getViewSource(def);
    if (!source)
      break;
    trace.chain.push_back(def);
    v = source;
  }
  std::reverse(trace.chain.begin(), trace.chain.end());
  trace.root = v;
  return trace;
}

Value mlir::fuel::rootValue(Value v) { return traceToRoot(v).root; }

const FlowRoot *ValueFlow::lookup(Value v) const {
  auto it = rootIndex.find(v);
  return it == rootIndex.end() ? nullptr : &roots[it->second];
}

SmallVector<plan::Device, 4>
ValueFlow::readDevices(const FlowRoot &root) const {
  SmallVector<plan::Device, 4> devices;
  for (unsigned r : root.readers)
    if (const std::optional<plan::Device> &d = readers[r].device)
      devices.push_back(*d);
  llvm::sort(devices);
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  return devices;
}

/// The placement of `node`, or std::nullopt when it is not placed.
static std::optional<plan::Device> placementOf(NodeOp node) {
  if (auto placed = dyn_cast_or_null<DeviceAttr>(node.getPlacementAttr()))
    return toPlan(placed);
  return std::nullopt;
}

ValueFlow mlir::fuel::collectFlow(func::FuncOp func) {
  ValueFlow flow;
  PlanConfigAttr config;
  if (auto module = func->getParentOfType<ModuleOp>())
    config =
        module->getAttrOfType<PlanConfigAttr>(FuelDialect::kConfigAttrName);
  plan::Device fallback = defaultResidency(config);
  Block &block = func.getBody().front();

  auto addRoot = [&](Value v, RootKind kind, NodeOp node,
                     std::optional<plan::Device> device) {
    if (!isa<ShapedType>(v.getType()))
      return; // scalars travel by value
    flow.rootIndex[v] = flow.roots.size();
    FlowRoot root;
    root.value = v;
    root.kind = kind;
    root.node = node;
    root.bytes = valueBytes(v.getType());
    root.device = device;
    flow.roots.push_back(std::move(root));
  };
  auto read = [&](OpOperand &use, FlowOpKind reader, NodeOp node,
                  std::optional<plan::Device> device) {
    if (!isa<ShapedType>(use.get().getType()))
      return; // scalars travel by value, free
    FlowTrace trace = traceToRoot(use.get());
    auto it = flow.rootIndex.find(trace.root);
    if (it == flow.rootIndex.end())
      return; // defined outside the body: not part of its flow
    flow.roots[it->second].readers.push_back(flow.readers.size());
    flow.readers.push_back(
        {&use, reader, node, it->second, device, std::move(trace.chain)});
  };

  for (BlockArgument arg : block.getArguments())
    addRoot(arg, RootKind::Argument, {},
            argumentResidency(func, arg.getArgNumber(), fallback));
  for (Operation &op : block) {
    FlowOpKind kind = classifyFlowOp(&op);
    flow.kinds[&op] = kind;
    switch (kind) {
    case FlowOpKind::Node: {
      auto node = cast<NodeOp>(op);
      std::optional<plan::Device> placed = placementOf(node);
      flow.nodes.push_back(node);
      for (OpOperand &use : op.getOpOperands())
        read(use, kind, node, placed);
      for (Value result : op.getResults())
        addRoot(result, RootKind::Node, node, placed);
      break;
    }
    case FlowOpKind::View:
    case FlowOpKind::Copy:
      break; // transparent
    case FlowOpKind::Constant:
      for (Value result : op.getResults())
        addRoot(result, RootKind::Constant, {}, std::nullopt);
      break;
    case FlowOpKind::Return:
      for (OpOperand &use : op.getOpOperands())
        read(use, kind, {},
             resultResidency(func, use.getOperandNumber(), fallback));
      break;
    case FlowOpKind::Host:
      // A host op runs on the host: it reads and makes its tensors there.
      for (OpOperand &use : op.getOpOperands())
        read(use, kind, {}, plan::Device::cpu());
      for (Value result : op.getResults())
        addRoot(result, RootKind::Host, {}, plan::Device::cpu());
      break;
    }
  }
  return flow;
}

plan::Device mlir::fuel::defaultResidency(PlanConfigAttr config) {
  if (config)
    if (DeviceAttr d = config.getPinnedDevice())
      return toPlan(d);
  return plan::Device::cpu();
}

/// The device of a `fuel.residency` entry of `attrs`, or `fallback`.
static plan::Device residencyIn(DictionaryAttr attrs, plan::Device fallback) {
  if (attrs)
    if (auto d = attrs.getAs<DeviceAttr>(FuelDialect::kResidencyAttrName))
      return toPlan(d);
  return fallback;
}

plan::Device mlir::fuel::argumentResidency(func::FuncOp func, unsigned index,
                                           plan::Device fallback) {
  return residencyIn(func.getArgAttrDict(index), fallback);
}

plan::Device mlir::fuel::resultResidency(func::FuncOp func, unsigned index,
                                         plan::Device fallback) {
  return residencyIn(func.getResultAttrDict(index), fallback);
}

LogicalResult mlir::fuel::verifyResidencies(func::FuncOp func,
                                            ArrayRef<plan::Device> devices) {
  auto check = [&](DictionaryAttr attrs, StringRef what,
                   unsigned index) -> LogicalResult {
    if (!attrs)
      return success();
    auto d = attrs.getAs<DeviceAttr>(FuelDialect::kResidencyAttrName);
    if (!d || llvm::is_contained(devices, toPlan(d)))
      return success();
    return emitFunctionError(func)
           << "residency of " << what << " #" << index << " is " << d.str()
           << ", which is not a device of the topology";
  };
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (failed(check(func.getArgAttrDict(i), "argument", i)))
      return failure();
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (failed(check(func.getResultAttrDict(i), "result", i)))
      return failure();
  return success();
}
