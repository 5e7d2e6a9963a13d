//===- PlanState.cpp - What planning passes share -------------------------===//
//
// Reading the stamped topology and configuration, translating between the
// fuel attributes and the planner's structs, and the context's kernel
// registry.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/PlanState.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Target/KernelRegistry.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <limits>

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

FailureOr<PlanContext> mlir::fuel::readPlanContext(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module && isa<ModuleOp>(op))
    module = cast<ModuleOp>(op);
  PlanContext ctx;
  if (module) {
    ctx.topologyAttr =
        module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
    ctx.config =
        module->getAttrOfType<PlanConfigAttr>(FuelDialect::kConfigAttrName);
  }
  auto missing = [&](StringRef name) {
    return op->emitError() << "the enclosing module has no '" << name
                           << "'; run fuel-attach-topology (or fuel-plan) "
                              "first";
  };
  if (!ctx.topologyAttr)
    return missing(FuelDialect::kTopologyAttrName);
  if (!ctx.config)
    return missing(FuelDialect::kConfigAttrName);
  ctx.topology = ctx.topologyAttr.toPlan();
  for (const plan::DeviceInfo &info : ctx.topology.devices)
    ctx.devices.push_back(info.device);
  llvm::sort(ctx.devices);
  return ctx;
}

std::optional<PlanContext>
mlir::fuel::planContextFor(func::FuncOp func,
                           llvm::function_ref<void()> signalFailure) {
  if (func.isExternal() || func.getBody().front().getOps<NodeOp>().empty())
    return std::nullopt;
  FailureOr<PlanContext> ctx = readPlanContext(func);
  if (failed(ctx)) {
    signalFailure();
    return std::nullopt;
  }
  return std::move(*ctx);
}

/// Clamps an unsigned figure into the attribute's signed field.
static int64_t toSigned(uint64_t v) {
  return v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
             ? std::numeric_limits<int64_t>::max()
             : static_cast<int64_t>(v);
}

plan::CouplingAdjustment mlir::fuel::toPlan(CouplingAttr attr) {
  plan::CouplingAdjustment adj;
  adj.otherNode = attr.getNode();
  if (DeviceAttr d = attr.getConditionDevice())
    adj.condition = toPlan(d);
  else
    adj.condition = toPlan(*attr.getConditionBackend());
  adj.deltaNs = attr.getDeltaNs();
  return adj;
}

plan::Candidate mlir::fuel::toPlan(CandidateAttr attr) {
  plan::Candidate c;
  c.kernelId = attr.getKernelId().str();
  for (Attribute cap : attr.getCaps())
    c.caps.push_back(cast<StringAttr>(cap).getValue().str());
  c.device = toPlan(attr.getDevice());
  c.precision = attr.getPrecision().toPlan();
  CostAttr cost = attr.getCost();
  c.cost = {static_cast<uint64_t>(std::max<int64_t>(cost.getFlops(), 0)),
            static_cast<uint64_t>(std::max<int64_t>(cost.getBytes(), 0)),
            cost.getOverheadNs()};
  c.timeNs = attr.getTimeNs();
  c.timeSource = attr.getTimeSource() == TimeSource::measured
                     ? plan::TimeSource::Measured
                     : plan::TimeSource::Static;
  c.noiseNs = attr.getNoiseNs();
  c.staticTimeNs = attr.getStaticTimeNs();
  c.hostBytes = static_cast<uint64_t>(attr.getHostBytes());
  c.deviceBytes = static_cast<uint64_t>(attr.getDeviceBytes());
  c.inboundTransferNs = attr.getTransferNs();
  for (NamedAttribute p : attr.getParams()) {
    std::string value;
    if (auto s = dyn_cast<StringAttr>(p.getValue()))
      value = s.getValue().str();
    else
      llvm::raw_string_ostream(value) << p.getValue();
    c.params.emplace_back(p.getName().str(), std::move(value));
  }
  for (Attribute a : attr.getCoupling())
    c.couplings.push_back(toPlan(cast<CouplingAttr>(a)));
  c.kernelSource = attr.getSource().str();
  c.revisionHash = attr.getRevision();
  c.registryPriority = attr.getPriority();
  c.fallback = attr.getFallback();
  return c;
}

CandidateAttr mlir::fuel::fromPlan(MLIRContext *ctx, const plan::Candidate &c) {
  SmallVector<Attribute> caps;
  for (const std::string &cap : c.caps)
    caps.push_back(StringAttr::get(ctx, cap));
  SmallVector<NamedAttribute> params;
  for (const auto &[key, value] : c.params)
    params.push_back(
        NamedAttribute(StringAttr::get(ctx, key), StringAttr::get(ctx, value)));
  SmallVector<Attribute> couplings;
  for (const plan::CouplingAdjustment &adj : c.couplings) {
    Attribute condition;
    if (const auto *d = std::get_if<plan::Device>(&adj.condition))
      condition = fromPlan(ctx, *d);
    else
      condition = DeviceKindAttr::get(
          ctx, fromPlan(std::get<plan::DeviceKind>(adj.condition)));
    couplings.push_back(CouplingAttr::get(ctx, DeviceAttr(), adj.otherNode,
                                          condition, adj.deltaNs));
  }
  DeviceAttr device = fromPlan(ctx, c.device);
  return CandidateAttr::get(
      ctx, c.kernelId, c.kernelSource, device.getKind(), device,
      ArrayAttr::get(ctx, caps), PrecisionAttr::fromPlan(ctx, c.precision),
      CostAttr::get(ctx, toSigned(c.cost.flops), toSigned(c.cost.bytes),
                    c.cost.overheadNs),
      c.timeNs,
      c.timeSource == plan::TimeSource::Measured ? TimeSource::measured
                                                 : TimeSource::static_,
      c.measured() ? c.noiseNs : 0, c.measured() ? c.staticTimeNs : 0,
      toSigned(c.hostBytes), toSigned(c.deviceBytes), c.inboundTransferNs,
      DictionaryAttr::get(ctx, params), ArrayAttr::get(ctx, couplings),
      c.revisionHash, c.registryPriority, c.fallback);
}

std::vector<plan::Candidate> mlir::fuel::toPlan(AlternativeSetAttr set) {
  std::vector<plan::Candidate> out;
  out.reserve(set.getCandidates().size());
  for (CandidateAttr c : set.getCandidates())
    out.push_back(toPlan(c));
  return out;
}

AlternativeSetAttr
mlir::fuel::buildAlternatives(MLIRContext *ctx, DecisionAttr decision,
                              ArrayRef<plan::Candidate> cands) {
  SmallVector<CandidateAttr> attrs;
  attrs.reserve(cands.size());
  for (const plan::Candidate &c : cands)
    attrs.push_back(fromPlan(ctx, c));
  return AlternativeSetAttr::get(ctx, decision, attrs);
}

plan::DecisionContext mlir::fuel::toPlan(DecisionAttr attr) {
  plan::DecisionContext d;
  d.op = toPlan(attr.getOpKind());
  std::string dtype;
  llvm::raw_string_ostream(dtype) << attr.getDtype();
  d.principalDtype = dtype;
  d.sizeClass = static_cast<uint32_t>(attr.getSizeClass());
  d.decisionDevice = toPlan(attr.getDevice());
  return d;
}

InFlightDiagnostic mlir::fuel::emitFunctionError(Operation *func) {
  return mlir::emitError(func->getLoc());
}

InFlightDiagnostic mlir::fuel::emitFunctionRemark(Operation *func) {
  return mlir::emitRemark(func->getLoc());
}

LogicalResult mlir::fuel::emitPlanError(Operation *op, llvm::Error error,
                                        StringRef prefix) {
  std::string message = llvm::toString(std::move(error));
  // A function can hold a whole model: report at its location only.
  if (isa<FunctionOpInterface>(op))
    return emitFunctionError(op) << prefix << message;
  return op->emitError() << prefix << message;
}

AlternativeSetAttr mlir::fuel::requireAlternatives(NodeOp node) {
  AlternativeSetAttr set = node.getAlternativesAttr();
  if (!set)
    node.emitError() << describeNode(node)
                     << " has no alternatives; run fuel-enumerate-candidates "
                        "(or fuel-plan) first";
  return set;
}

std::string mlir::fuel::describeNode(NodeOp node) {
  return "node " + std::to_string(node.getIdAttr().getInt()) + " (" +
         stringifyOpKind(node.getKind()).str() + ")";
}

void mlir::fuel::setKernelRegistry(
    MLIRContext *ctx, const ::fuel::target::KernelRegistry *registry) {
  ctx->getOrLoadDialect<FuelDialect>()->setKernelRegistry(registry);
}

const ::fuel::target::KernelRegistry &
mlir::fuel::getKernelRegistry(MLIRContext *ctx) {
  // Passes run in a context with the fuel dialect loaded: they declare it as
  // a dependency, and their input holds fuel ops.
  if (auto *dialect = ctx->getLoadedDialect<FuelDialect>())
    if (const ::fuel::target::KernelRegistry *registry =
            dialect->getKernelRegistry())
      return *registry;
  return ::fuel::target::KernelRegistry::get();
}
