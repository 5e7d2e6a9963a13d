//===- PlanBuffers.cpp - Functions become host programs -------------------===//
//
// fuel-plan-buffers: every function of outlined, scheduled IR becomes a
// `fuel.program` (docs/LOWERING.md, "Buffers" and "Host program"). The walk
// gives each tensor value a logical buffer and a byte range in it (views
// share their source's bytes), records the live interval of each
// intermediate in command order, lets the IR-free planner (BufferPlan.h)
// pack the intermediates into one arena per device, and emits the buffers
// and the commands with the dependencies their byte ranges imply.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelProgram.h"
#include "fuel/Lowering/Passes.h"
#include "fuel/Planner/BufferPlan.h"
#include "fuel/Planner/CommandDeps.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/ValueFlow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <map>
#include <numeric>

#define DEBUG_TYPE "fuel-plan-buffers"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELPLANBUFFERSPASS
#include "fuel/Lowering/Passes.h.inc"
} // namespace mlir::fuel

using namespace mlir;
using namespace mlir::fuel;

namespace {

//===----------------------------------------------------------------------===//
// The kernels a dispatch names
//===----------------------------------------------------------------------===//

/// What the program needs to know of a dispatched kernel.
struct KernelInfo {
  DeviceAttr device;
  SmallVector<int64_t, 3> grid{1, 1, 1};
  std::string opKind, kernelId, source;
  int64_t revision = 0;
  int64_t workspaceBytes = 0;
  /// Per result: the input it may overwrite in place, or -1.
  SmallVector<int64_t> inPlace;
};

template <typename T> T attrOr(Operation *op, StringRef name, T fallback) {
  if constexpr (std::is_same_v<T, int64_t>) {
    if (auto a = op->getAttrOfType<IntegerAttr>(name))
      return a.getInt();
  } else {
    if (auto a = op->getAttrOfType<StringAttr>(name))
      return a.str();
  }
  return fallback;
}

/// The op kind of a library kernel id "cpu.openblas.matmul_f32": the last
/// segment without its dtype suffix.
std::string opKindOfKernelId(StringRef id) {
  StringRef last = id.rsplit('.').second;
  if (last.empty())
    last = id;
  return last.rsplit('_').first.str();
}

FailureOr<KernelInfo> lookupKernel(DispatchOp dispatch) {
  ExecutableOp executable = dispatch.getExecutable();
  Operation *kernel = dispatch.getKernelOp();
  if (!executable || !kernel)
    return dispatch.emitOpError("names ")
           << dispatch.getKernel()
           << ", which is not a kernel of a fuel.executable";
  KernelInfo info;
  info.device = executable.getDevice();
  if (auto lib = dyn_cast<LibraryKernelOp>(kernel)) {
    info.kernelId = lib.getKernelId().str();
    // The winner's source: the second segment of the kernel id
    // ("cpu.openblas.matmul_f32" -> "openblas").
    info.source =
        StringRef(info.kernelId).split('.').second.split('.').first.str();
    info.opKind = opKindOfKernelId(info.kernelId);
    info.grid.assign(lib.getGrid().begin(), lib.getGrid().end());
    info.revision = int64_t(lib.getRevision());
    info.workspaceBytes = int64_t(lib.getWorkspace());
    return info;
  }
  auto func = dyn_cast<func::FuncOp>(kernel);
  if (!func)
    return dispatch.emitOpError("names ")
           << dispatch.getKernel()
           << ", which is neither a kernel function nor a library "
           << "kernel";
  info.kernelId = attrOr<std::string>(func, kernel_attr::kKernelId, "");
  info.opKind = attrOr<std::string>(func, kernel_attr::kOpKind, "");
  info.source = "generated";
  info.revision = attrOr<int64_t>(func, kernel_attr::kRevision, 0);
  info.workspaceBytes = attrOr<int64_t>(func, kernel_attr::kWorkspaceBytes, 0);
  if (auto grid =
          func->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroups)) {
    if (grid.size() != 3)
      return func.emitOpError("'fuel.workgroups' must hold three sizes");
    info.grid.assign(grid.asArrayRef().begin(), grid.asArrayRef().end());
  }
  if (auto inPlace =
          func->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kInPlace)) {
    if (inPlace.size() != dispatch->getNumResults())
      return func.emitOpError("'fuel.in_place' must have one entry per "
                              "result");
    info.inPlace.assign(inPlace.asArrayRef().begin(),
                        inPlace.asArrayRef().end());
  }
  return info;
}

//===----------------------------------------------------------------------===//
// Logical buffers and commands
//===----------------------------------------------------------------------===//

enum class Kind { Input, Output, Constant, Arena };

/// A buffer of the program before it is emitted.
struct Logical {
  Kind kind = Kind::Arena;
  DeviceAttr device;
  RankedTensorType type;
  uint64_t bytes = 0;
  int64_t index = 0;            ///< Input and Output.
  std::string name;             ///< Input and Output.
  FlatSymbolRefAttr constant;   ///< Constant.
  unsigned first = 0, last = 0; ///< Arena: live interval (commands).
  std::optional<unsigned> inPlaceOf;
  BufferOp op;
};

/// Where a tensor value's bytes are: a logical buffer and a range in it.
/// A constant value has no single buffer (one per reading device): then
/// `constantRoot` is the constant and `logical` is unused.
struct Ref {
  int logical = -1;
  Value constantRoot;
  uint64_t offset = 0;
  RankedTensorType type;
  uint64_t bytes = 0;
};

//===----------------------------------------------------------------------===//
// Names of the inputs and outputs
//===----------------------------------------------------------------------===//

/// The argument and result attribute the ONNX importer sets to the graph
/// input's and output's name (docs/ONNX.md).
constexpr StringLiteral kOnnxNameAttr = "onnx.name";

/// The first name in `loc`: a NameLoc's, looked for inside fused locations
/// (in order) and call sites (the callee, then the caller); empty if none.
std::string locationName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    if (!name.getName().empty())
      return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations())
      if (std::string s = locationName(l); !s.empty())
        return s;
  }
  if (auto call = dyn_cast<CallSiteLoc>(loc)) {
    if (std::string s = locationName(call.getCallee()); !s.empty())
      return s;
    return locationName(call.getCaller());
  }
  return "";
}

/// The name of argument `i` in the executable: its `onnx.name`, else the
/// name of its location, else "arg<i>".
std::string inputName(func::FuncOp func, unsigned i) {
  if (auto name = func.getArgAttrOfType<StringAttr>(i, kOnnxNameAttr))
    if (!name.getValue().empty())
      return name.str();
  if (std::string s = locationName(func.getArgument(i).getLoc()); !s.empty())
    return s;
  return "arg" + std::to_string(i);
}

/// The name of result `i` in the executable: its `onnx.name`, else
/// "result<i>" (a result has no location of its own).
std::string outputName(func::FuncOp func, unsigned i) {
  if (auto name = func.getResultAttrOfType<StringAttr>(i, kOnnxNameAttr))
    if (!name.getValue().empty())
      return name.str();
  return "result" + std::to_string(i);
}

struct Command {
  Operation *origin = nullptr; ///< The dispatch or copy, or null.
  bool isLaunch = true;
  SymbolRefAttr kernel;
  KernelInfo info;
  std::optional<int64_t> node, predictedNs;
  SmallVector<Ref> reads, writes; ///< Resolved (no constantRoot).
  SmallVector<int64_t> deps;
};

class Builder {
public:
  Builder(func::FuncOp func, ModuleOp module, unsigned &constantCounter,
          llvm::DenseMap<Attribute, FlatSymbolRefAttr> &constantNames)
      : func(func), module(module), ctx(func.getContext()),
        constantCounter(constantCounter), constantNames(constantNames) {}

  LogicalResult run();

private:
  FailureOr<Ref> tensorRef(Operation *at, Value v, Type type);
  /// `ref` as read on `device`: a constant gets its buffer there.
  Ref resolve(const Ref &ref, DeviceAttr device);
  unsigned addLogical(Logical l) {
    logicals.push_back(std::move(l));
    return logicals.size() - 1;
  }
  void noteRead(const Ref &ref, unsigned command) {
    Logical &l = logicals[ref.logical];
    if (l.kind == Kind::Arena)
      l.last = std::max(l.last, command);
  }
  LogicalResult visitDispatch(DispatchOp dispatch);
  LogicalResult visitView(Operation *op);
  LogicalResult visitCopy(CopyOp copy);
  LogicalResult visitConstant(arith::ConstantOp constant);
  LogicalResult visitReturn(func::ReturnOp ret);
  void computeDependencies();
  LogicalResult emit();
  Value materialize(OpBuilder &b, const Ref &ref);

  func::FuncOp func;
  ModuleOp module;
  MLIRContext *ctx;
  unsigned &constantCounter;
  llvm::DenseMap<Attribute, FlatSymbolRefAttr> &constantNames;

  std::vector<Logical> logicals;
  std::vector<Command> commands;
  llvm::DenseMap<Value, Ref> refs;
  /// Constant buffers by (constant value, device).
  std::map<std::pair<const void *, const void *>, unsigned> constantBuffers;
  /// Logical buffers that an output took over.
  llvm::DenseMap<unsigned, unsigned> outputOf;
  /// Views emitted, by (logical, offset, type).
  std::map<std::tuple<int, uint64_t, const void *>, Value> views;
};

FailureOr<Ref> Builder::tensorRef(Operation *at, Value v, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  std::optional<uint64_t> bytes = tensorByteSize(type);
  if (!tensor || !bytes)
    return at->emitOpError("has a tensor of type ")
           << type << ", which has no static byte size";
  (void)v;
  Ref r;
  r.type = tensor;
  r.bytes = *bytes;
  return r;
}

Ref Builder::resolve(const Ref &ref, DeviceAttr device) {
  if (!ref.constantRoot)
    return ref;
  auto key = std::make_pair(ref.constantRoot.getAsOpaquePointer(),
                            device.getAsOpaquePointer());
  auto it = constantBuffers.find(key);
  unsigned index;
  if (it != constantBuffers.end()) {
    index = it->second;
  } else {
    auto constant = ref.constantRoot.getDefiningOp<arith::ConstantOp>();
    Attribute value = constant.getValue();
    FlatSymbolRefAttr &name = constantNames[value];
    if (!name) {
      std::string sym = "cst_" + std::to_string(constantCounter++);
      OpBuilder b(func);
      ConstantDataOp::create(b, constant.getLoc(), sym,
                             cast<ElementsAttr>(value));
      name = FlatSymbolRefAttr::get(ctx, sym);
    }
    Logical l;
    l.kind = Kind::Constant;
    l.device = device;
    l.type = cast<RankedTensorType>(ref.constantRoot.getType());
    l.bytes = *tensorByteSize(l.type);
    l.constant = name;
    index = addLogical(l);
    constantBuffers[key] = index;
  }
  Ref r = ref;
  r.constantRoot = {};
  r.logical = index;
  return r;
}

LogicalResult Builder::visitDispatch(DispatchOp dispatch) {
  FailureOr<KernelInfo> info = lookupKernel(dispatch);
  if (failed(info))
    return failure();
  Command c;
  c.origin = dispatch;
  c.kernel = dispatch.getKernelAttr();
  c.info = *info;
  if (auto node = dispatch->getAttrOfType<IntegerAttr>("node"))
    c.node = node.getInt();
  if (auto ns = dispatch->getAttrOfType<IntegerAttr>("predicted_ns"))
    c.predictedNs = ns.getInt();
  unsigned index = commands.size();
  for (Value operand : dispatch->getOperands()) {
    auto it = refs.find(operand);
    if (it == refs.end())
      return dispatch.emitOpError("reads a value that is not a tensor of the "
                                  "function");
    Ref r = resolve(it->second, info->device);
    if (logicals[r.logical].device != info->device)
      return dispatch.emitOpError("runs on ")
             << info->device.str() << " but reads a tensor on "
             << logicals[r.logical].device.str();
    noteRead(r, index);
    c.reads.push_back(r);
  }
  for (auto [i, result] : llvm::enumerate(dispatch->getResults())) {
    FailureOr<Ref> r = tensorRef(dispatch, result, result.getType());
    if (failed(r))
      return failure();
    Logical l;
    l.kind = Kind::Arena;
    l.device = info->device;
    l.type = r->type;
    l.bytes = r->bytes;
    l.first = l.last = index;
    if (i < info->inPlace.size() && info->inPlace[i] >= 0) {
      int64_t operand = info->inPlace[i];
      if (operand >= int64_t(c.reads.size()))
        return dispatch.emitOpError("kernel lets result ")
               << i << " overwrite input " << operand << " of "
               << c.reads.size();
      const Ref &in = c.reads[operand];
      // Only a whole arena buffer can be handed over.
      if (logicals[in.logical].kind == Kind::Arena && in.offset == 0 &&
          in.bytes == logicals[in.logical].bytes)
        l.inPlaceOf = in.logical;
    }
    r->logical = addLogical(l);
    refs[result] = *r;
    c.writes.push_back(*r);
  }
  commands.push_back(std::move(c));
  return success();
}

/// The byte offset of a contiguous slice of a static row-major tensor, or
/// nullopt for any other slice.
static std::optional<uint64_t> contiguousSliceOffset(tensor::ExtractSliceOp s) {
  // The same contiguity rule as planning's (NodeAnalysis.h).
  if (isStridedSlice(s))
    return std::nullopt;
  RankedTensorType source = s.getSourceType();
  ArrayRef<int64_t> shape = source.getShape();
  ArrayRef<int64_t> offsets = s.getStaticOffsets();
  int64_t rank = shape.size();
  uint64_t linear = 0, stride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    linear += uint64_t(offsets[i]) * stride;
    stride *= uint64_t(shape[i]);
  }
  return linear * *elementByteSize(source.getElementType());
}

LogicalResult Builder::visitView(Operation *op) {
  Value source = isa<tensor::BitcastOp>(op)
                     ? cast<tensor::BitcastOp>(op).getSource()
                     : getViewSource(op);
  auto it = refs.find(source);
  if (it == refs.end())
    return op->emitOpError("views a value that is not a tensor of the "
                           "function");
  FailureOr<Ref> r =
      tensorRef(op, op->getResult(0), op->getResult(0).getType());
  if (failed(r))
    return failure();
  uint64_t offset = 0;
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    std::optional<uint64_t> o = contiguousSliceOffset(slice);
    if (!o)
      return op->emitOpError("is a strided slice, which fuel-outline-kernels "
                             "folds into its reader or materialises");
    offset = *o;
  }
  Ref view = it->second;
  view.offset += offset;
  view.type = r->type;
  view.bytes = r->bytes;
  refs[op->getResult(0)] = view;
  return success();
}

LogicalResult Builder::visitCopy(CopyOp copy) {
  auto it = refs.find(copy.getSource());
  if (it == refs.end())
    return copy.emitOpError("copies a value that is not a tensor of the "
                            "function");
  Ref src = resolve(it->second, copy.getFrom());
  if (logicals[src.logical].device != copy.getFrom())
    return copy.emitOpError("copies from ")
           << copy.getFrom().str() << " a tensor on "
           << logicals[src.logical].device.str();
  FailureOr<Ref> dst = tensorRef(copy, copy.getResult(), copy.getType());
  if (failed(dst))
    return failure();
  unsigned index = commands.size();
  noteRead(src, index);
  Logical l;
  l.kind = Kind::Arena;
  l.device = copy.getTo();
  l.type = dst->type;
  l.bytes = dst->bytes;
  l.first = l.last = index;
  dst->logical = addLogical(l);
  refs[copy.getResult()] = *dst;
  Command c;
  c.origin = copy;
  c.isLaunch = false;
  c.reads.push_back(src);
  c.writes.push_back(*dst);
  commands.push_back(std::move(c));
  return success();
}

LogicalResult Builder::visitConstant(arith::ConstantOp constant) {
  if (!isa<RankedTensorType>(constant.getType()))
    return success(); // Scalars travel inside kernels.
  if (!isa<DenseElementsAttr, DenseResourceElementsAttr>(constant.getValue()))
    return constant.emitOpError("holds data that is neither dense nor "
                                "dense_resource");
  FailureOr<Ref> r = tensorRef(constant, constant, constant.getType());
  if (failed(r))
    return failure();
  r->constantRoot = constant.getResult();
  refs[constant.getResult()] = *r;
  return success();
}

LogicalResult Builder::visitReturn(func::ReturnOp ret) {
  PlanConfigAttr config =
      module->getAttrOfType<PlanConfigAttr>(FuelDialect::kConfigAttrName);
  ::fuel::plan::Device fallback = defaultResidency(config);
  SmallVector<std::pair<unsigned, Ref>> copyOuts;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    auto it = refs.find(value);
    if (it == refs.end())
      return ret.emitOpError("returns a value that is not a tensor of the "
                             "function");
    DeviceAttr device = fromPlan(ctx, resultResidency(func, i, fallback));
    Ref r = resolve(it->second, device);
    Logical &source = logicals[r.logical];
    if (source.device != device)
      return ret.emitOpError("returns result ")
             << i << " on " << source.device.str() << ", but it must end on "
             << device.str();
    Logical out;
    out.kind = Kind::Output;
    out.device = device;
    out.type = r.type;
    out.bytes = r.bytes;
    out.index = i;
    out.name = outputName(func, i);
    // Caller-bound: the whole of a buffer a command writes, not yet taken
    // by another output.
    bool direct = source.kind == Kind::Arena && r.offset == 0 &&
                  r.bytes == source.bytes && !outputOf.count(r.logical);
    if (direct) {
      // The intermediate becomes (a view of) the output buffer.
      unsigned target = r.logical;
      RankedTensorType viewType = source.type;
      source = out;
      source.type = r.type;
      (void)viewType;
      outputOf[target] = i;
      continue;
    }
    copyOuts.push_back({addLogical(out), r});
  }
  for (auto &[outIndex, src] : copyOuts) {
    Command c;
    c.isLaunch = false;
    unsigned index = commands.size();
    noteRead(src, index);
    c.reads.push_back(src);
    Ref dst;
    dst.logical = outIndex;
    dst.type = logicals[outIndex].type;
    dst.bytes = logicals[outIndex].bytes;
    c.writes.push_back(dst);
    commands.push_back(std::move(c));
  }
  return success();
}

/// Bytes in one address space: an arena of a device, or a buffer of its
/// own (input, output, constant).
void Builder::computeDependencies() {
  // A byte range of an arena is one of its device's, at the buffer's
  // offset; any other buffer is a memory space of its own.
  auto range = [&](const Ref &r) {
    const Logical &l = logicals[r.logical];
    uint64_t base = 0;
    const void *space = &l;
    if (l.kind == Kind::Arena) {
      space = l.device.getAsOpaquePointer();
      BufferOp op = l.op;
      base = op ? uint64_t(*op.getOffset()) : 0;
    }
    return ::fuel::plan::ByteRange{uint64_t(uintptr_t(space)), base + r.offset,
                                   base + r.offset + r.bytes};
  };
  std::vector<::fuel::plan::CommandAccess> accesses(commands.size());
  for (auto [i, c] : llvm::enumerate(commands)) {
    for (const Ref &r : c.reads)
      accesses[i].reads.push_back(range(r));
    for (const Ref &r : c.writes)
      accesses[i].writes.push_back(range(r));
  }
  // Every conflicting earlier command, then a transitive reduction
  // (CommandDeps.h).
  std::vector<SmallVector<int64_t, 4>> deps =
      ::fuel::plan::commandDependencies(accesses);
  for (auto [c, d] : llvm::zip_equal(commands, deps))
    c.deps.assign(d.begin(), d.end());
}

Value Builder::materialize(OpBuilder &b, const Ref &ref) {
  Logical &l = logicals[ref.logical];
  if (ref.offset == 0 && ref.type == l.type)
    return l.op.getResult();
  auto key =
      std::make_tuple(ref.logical, ref.offset, ref.type.getAsOpaquePointer());
  Value &view = views[key];
  if (!view)
    view = BufferViewOp::create(b, func.getLoc(), ref.type, l.op.getResult(),
                                b.getI64IntegerAttr(ref.offset))
               .getResult();
  return view;
}

LogicalResult Builder::emit() {
  // Pack the intermediates.
  std::vector<DeviceAttr> devices;
  auto deviceIndex = [&](DeviceAttr d) {
    auto it = llvm::find(devices, d);
    if (it != devices.end())
      return unsigned(it - devices.begin());
    devices.push_back(d);
    return unsigned(devices.size() - 1);
  };
  // Every device that holds a buffer or runs a command, in device order.
  for (const Logical &l : logicals)
    deviceIndex(l.device);
  for (const Command &c : commands)
    if (c.isLaunch)
      deviceIndex(c.info.device);
  llvm::sort(devices, [](DeviceAttr a, DeviceAttr b) { return a < b; });
  if (devices.empty())
    devices.push_back(DeviceAttr::getHost(ctx));

  std::vector<::fuel::plan::BufferRequest> requests;
  std::vector<unsigned> requestOf(logicals.size(), ~0u);
  for (auto [i, l] : llvm::enumerate(logicals)) {
    if (l.kind != Kind::Arena)
      continue;
    requestOf[i] = requests.size();
    ::fuel::plan::BufferRequest r;
    r.device = deviceIndex(l.device);
    r.size = l.bytes;
    r.firstUse = l.first;
    r.lastUse = l.last;
    requests.push_back(r);
  }
  for (auto [i, l] : llvm::enumerate(logicals))
    if (l.kind == Kind::Arena && l.inPlaceOf &&
        logicals[*l.inPlaceOf].kind == Kind::Arena)
      requests[requestOf[i]].inPlaceOf = requestOf[*l.inPlaceOf];
  llvm::Expected<::fuel::plan::BufferPlan> plan =
      ::fuel::plan::planBuffers(requests, devices.size());
  if (!plan)
    return func.emitOpError("buffer planning failed: ")
           << llvm::toString(plan.takeError());

  OpBuilder b(func);
  auto program = ProgramOp::create(b, func.getLoc(), func.getSymName());
  b.setInsertionPointToStart(&program.getBodyBlock());
  Location loc = func.getLoc();
  for (auto [d, device] : llvm::enumerate(devices))
    ArenaOp::create(b, loc, device, b.getI64IntegerAttr(plan->arenaBytes[d]),
                    b.getI64IntegerAttr(plan->arenaAlignment[d]));

  // Buffers: inputs, outputs (both in index order), constants, arena slots.
  auto emitBuffer = [&](Logical &l, unsigned i) {
    OperationState state(loc, BufferOp::getOperationName());
    SmallVector<NamedAttribute> attrs;
    auto name = [&](StringRef n) { return StringAttr::get(ctx, n); };
    StringRef kind = l.kind == Kind::Input      ? "input"
                     : l.kind == Kind::Output   ? "output"
                     : l.kind == Kind::Constant ? "constant"
                                                : "arena";
    attrs.push_back({name("kind"), b.getStringAttr(kind)});
    attrs.push_back({name("device"), l.device});
    if (l.kind == Kind::Arena)
      attrs.push_back(
          {name("offset"), b.getI64IntegerAttr(plan->offsets[requestOf[i]])});
    if (l.kind == Kind::Input || l.kind == Kind::Output) {
      attrs.push_back({name("index"), b.getI64IntegerAttr(l.index)});
      attrs.push_back({name("tensor_name"), b.getStringAttr(l.name)});
    }
    if (l.kind == Kind::Constant)
      attrs.push_back({name("constant"), l.constant});
    state.addAttributes(attrs);
    state.addTypes(l.type);
    l.op = cast<BufferOp>(b.create(state));
  };
  std::vector<unsigned> order(logicals.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::stable_sort(order, [&](unsigned x, unsigned y) {
    const Logical &a = logicals[x], &c = logicals[y];
    return std::make_pair(int(a.kind), a.kind <= Kind::Output ? a.index : 0) <
           std::make_pair(int(c.kind), c.kind <= Kind::Output ? c.index : 0);
  });
  for (unsigned i : order)
    emitBuffer(logicals[i], i);

  computeDependencies();

  for (Command &c : commands) {
    SmallVector<Value> reads, writes;
    for (const Ref &r : c.reads)
      reads.push_back(materialize(b, r));
    for (const Ref &r : c.writes)
      writes.push_back(materialize(b, r));
    Location cloc = c.origin ? c.origin->getLoc() : loc;
    if (c.isLaunch) {
      auto launch = LaunchOp::create(
          b, cloc, c.kernel, reads, writes, b.getDenseI64ArrayAttr(c.info.grid),
          b.getDenseI64ArrayAttr(c.deps), /*node=*/IntegerAttr(),
          b.getStringAttr(c.info.opKind), b.getStringAttr(c.info.kernelId),
          b.getStringAttr(c.info.source), b.getI64IntegerAttr(c.info.revision),
          b.getI64IntegerAttr(c.info.workspaceBytes), IntegerAttr());
      if (c.node)
        launch.setNodeAttr(b.getI64IntegerAttr(*c.node));
      if (c.predictedNs)
        launch.setPredictedNsAttr(b.getI64IntegerAttr(*c.predictedNs));
    } else {
      auto transfer =
          TransferOp::create(b, cloc, reads[0], writes[0],
                             b.getDenseI64ArrayAttr(c.deps), IntegerAttr());
      if (c.origin)
        if (auto ns = c.origin->getAttrOfType<IntegerAttr>("predicted_ns"))
          transfer.setPredictedNsAttr(ns);
    }
  }
  return success();
}

LogicalResult Builder::run() {
  PlanConfigAttr config =
      module->getAttrOfType<PlanConfigAttr>(FuelDialect::kConfigAttrName);
  ::fuel::plan::Device fallback = defaultResidency(config);
  for (BlockArgument arg : func.getArguments()) {
    FailureOr<Ref> r = tensorRef(func, arg, arg.getType());
    if (failed(r))
      return failure();
    Logical l;
    l.kind = Kind::Input;
    l.device =
        fromPlan(ctx, argumentResidency(func, arg.getArgNumber(), fallback));
    l.type = r->type;
    l.bytes = r->bytes;
    l.index = arg.getArgNumber();
    l.name = inputName(func, arg.getArgNumber());
    r->logical = addLogical(l);
    refs[arg] = *r;
  }
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("must have a single block to become a program");
  for (Operation &op : func.getBody().front()) {
    LogicalResult result = success();
    if (auto dispatch = dyn_cast<DispatchOp>(op))
      result = visitDispatch(dispatch);
    else if (isViewOp(&op) || isa<tensor::BitcastOp>(op))
      result = visitView(&op);
    else if (auto copy = dyn_cast<CopyOp>(op))
      result = visitCopy(copy);
    else if (auto constant = dyn_cast<arith::ConstantOp>(op))
      result = visitConstant(constant);
    else if (auto ret = dyn_cast<func::ReturnOp>(op))
      result = visitReturn(ret);
    else if (isa<NodeOp>(op))
      result = op.emitOpError("is a node that fuel-outline-kernels has not "
                              "outlined");
    else
      result = op.emitOpError("cannot be part of a host program: only "
                              "dispatches, views, copies, constants and the "
                              "return can");
    if (failed(result))
      return failure();
  }
  if (failed(emit()))
    return failure();
  func.erase();
  return success();
}

struct PlanBuffersPass
    : public mlir::fuel::impl::FuelPlanBuffersPassBase<PlanBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> funcs;
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        funcs.push_back(func);
    unsigned constantCounter = 0;
    llvm::DenseMap<Attribute, FlatSymbolRefAttr> constantNames;
    for (func::FuncOp func : funcs) {
      Builder builder(func, module, constantCounter, constantNames);
      if (failed(builder.run()))
        return signalPassFailure();
    }
  }
};

} // namespace
