//===- OutlineKernels.cpp - Nodes and host ops become kernel dispatches ---===//
//
// fuel-outline-kernels (docs/LOWERING.md, "Outlining"): the first lowering
// stage. Every placed node of a planned function becomes a `fuel.dispatch`
// of a kernel in the `fuel.executable` of its device: a generated kernel is
// a function of the executable's kernel module holding the node's body in
// the memref-signature, tensor-body form the CPU schedules expect; a library
// kernel is a `fuel.library_kernel` with the shim's integer params. Host ops
// are compiled as CPU kernels the same way. Structurally equal kernels are
// shared, keyed by their printed form.
//
//===----------------------------------------------------------------------===//

#include "fuel/Lowering/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Planning/PlanExport.h"
#include "fuel/Planning/ValueFlow.h"
#include "fuel/Target/KernelRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <string>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELOUTLINEKERNELSPASS
#include "fuel/Lowering/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-outline-kernels"

using namespace mlir;
using namespace mlir::fuel;
namespace target = ::fuel::target;

/// The executable of `device`: `cpu`, `cuda_0`, `vulkan_1`.
static std::string executableName(DeviceAttr device) {
  std::string name = device.str();
  std::replace(name.begin(), name.end(), ':', '_');
  return name;
}

/// "cpu", "cuda" or "vulkan".
static std::string backendName(DeviceAttr device) {
  return stringifyDeviceKind(device.getKind()).str();
}

/// The op's name without its dialect: `tensor.pad` → `pad`.
static StringRef bareOpName(Operation *op) {
  return op->getName().stripDialect();
}

/// True for a tensor op fuel compiles as a host kernel.
static bool isHostKernelOp(Operation *op) {
  return isa<tensor::PadOp, tensor::ConcatOp, tensor::InsertSliceOp,
             tensor::GenerateOp, tensor::FromElementsOp, linalg::FillOp>(op);
}

/// True for a top-level scalar computation a kernel clones where it reads
/// it: pure, without regions, with no shaped operand or result.
static bool isScalarOp(Operation *op) {
  if (op->getNumRegions() != 0 || !isPure(op))
    return false;
  auto shaped = [](Type t) { return isa<ShapedType>(t); };
  return llvm::none_of(op->getOperandTypes(), shaped) &&
         llvm::none_of(op->getResultTypes(), shaped);
}

/// True for a static, ranked tensor type.
static bool isStaticTensor(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape();
}

/// The binding type of a tensor: a memref of its shape and element type,
/// identity layout.
static MemRefType bindingType(Type tensorType) {
  auto ranked = cast<RankedTensorType>(tensorType);
  return MemRefType::get(ranked.getShape(), ranked.getElementType());
}

namespace {

/// How a kernel reads one value its body uses.
struct Binding {
  enum class Kind { Bind, CloneEmpty, CloneScalar };
  Kind kind = Kind::Bind;
  /// The value the cloned body uses (a node's block argument, or the host
  /// op's operand).
  Value placeholder;
  /// Bind: the function-level value bound (a dispatch operand).
  /// CloneScalar: the function-level scalar to clone.
  Value value;
  /// Bind: views re-made inside the kernel on the bound value, in order
  /// (a folded strided slice and the views after it).
  SmallVector<Operation *, 2> replay;
};

/// A generated kernel to build: what it reads, what it yields and what it
/// is.
struct KernelSpec {
  SmallVector<Binding> bindings;
  SmallVector<Type> resultTypes;
  /// Clones the body into the kernel at the builder, with the placeholders
  /// mapped; returns the values written to the outputs, in order.
  std::function<SmallVector<Value>(OpBuilder &, IRMapping &)> cloneBody;
  std::string kernelId;
  std::string opKind;
  std::string schedule;
  uint64_t revision = 0;
  /// The symbol prefix: `matmul`, `host_pad`.
  std::string prefix;
};

/// The shared state of one pass run: the executables and their kernels.
class Outliner {
public:
  Outliner(ModuleOp module, const target::KernelRegistry &registry)
      : module(module), ctx(module.getContext()), registry(registry) {}

  /// Outlines every node and host op of `func`. Reports every error it
  /// finds; fails when there was one.
  LogicalResult outlineFunction(func::FuncOp func);

  /// Moves the executables to the start of the module, in device order.
  void finish();

  unsigned numDispatches = 0;
  unsigned numKernels = 0;

private:
  struct Executable {
    ExecutableOp op;
    /// The next kernel number.
    unsigned next = 0;
    /// Kernel name by dedup key (the kernel's printed form).
    std::map<std::string, std::string> shared;
  };

  Executable &getExecutable(DeviceAttr device);
  SymbolRefAttr kernelRef(DeviceAttr device, StringRef kernel);

  LogicalResult outlineNode(NodeOp node);
  LogicalResult outlineGeneratedNode(NodeOp node, DeviceAttr device,
                                     CandidateAttr winner,
                                     const target::KernelRecord &record);
  LogicalResult outlineLibraryNode(NodeOp node, DeviceAttr device,
                                   CandidateAttr winner,
                                   const target::KernelRecord &record);
  LogicalResult outlineHostOp(Operation *op);

  /// Decides how the kernel about to run at `reader` reads `value` (used in
  /// the body as `placeholder`). With `foldStrided`, a strided slice on
  /// the way is re-made inside the kernel; otherwise it is materialised on
  /// `device` first.
  FailureOr<Binding> bind(Value placeholder, Value value, bool foldStrided,
                          DeviceAttr device, Operation *reader);
  /// `value` as a contiguous tensor on `device`: the first strided slice of
  /// its view chain (after its last copy) materialised by a host kernel,
  /// the views after it re-made before `reader`.
  FailureOr<Value> contiguous(Value value, DeviceAttr device,
                              Operation *reader);
  /// The host-kernel dispatch that materialises `slice` on `device`,
  /// created once, right after the slice.
  FailureOr<Value> materializeSlice(tensor::ExtractSliceOp slice,
                                    DeviceAttr device);
  /// The kernel for `spec` in the executable of `device`: built, then
  /// shared with an equal one when there is one. Returns its name.
  FailureOr<std::string> buildKernel(const KernelSpec &spec, DeviceAttr device,
                                     Location loc, Operation *errorAt);
  /// Builds the function of `spec` at the end of `kernels`.
  FailureOr<func::FuncOp> buildKernelFunc(const KernelSpec &spec,
                                          ModuleOp kernels, Location loc,
                                          Operation *errorAt);
  /// The spec of a host kernel computing `op` on `device` (its operands and
  /// the values its regions capture are what it reads).
  FailureOr<KernelSpec> hostSpec(Operation *op, DeviceAttr device);
  /// Creates the dispatch of `kernel` before `at`.
  DispatchOp createDispatch(Operation *at, DeviceAttr device, StringRef kernel,
                            ArrayRef<Binding> bindings, TypeRange results,
                            std::optional<int64_t> node,
                            std::optional<int64_t> predictedNs);

  ModuleOp module;
  MLIRContext *ctx;
  const target::KernelRegistry &registry;
  std::map<DeviceAttr, Executable> executables;
  /// Materialised strided slices, by (slice, device).
  std::map<std::pair<Operation *, DeviceAttr>, Value> materialized;
  /// The device each strided slice of the current function is made on
  /// when nothing folds it (its source's device).
  llvm::DenseMap<Operation *, DeviceAttr> sliceDevices;
};

} // namespace

Outliner::Executable &Outliner::getExecutable(DeviceAttr device) {
  Executable &exe = executables[device];
  if (!exe.op) {
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    exe.op = ExecutableOp::create(b, module.getLoc(), executableName(device),
                                  device);
  }
  return exe;
}

SymbolRefAttr Outliner::kernelRef(DeviceAttr device, StringRef kernel) {
  return SymbolRefAttr::get(StringAttr::get(ctx, executableName(device)),
                            {FlatSymbolRefAttr::get(ctx, kernel)});
}

void Outliner::finish() {
  // Reverse device order, each moved to the front: device order at the end.
  for (auto it = executables.rbegin(); it != executables.rend(); ++it)
    it->second.op->moveBefore(&module.getBody()->front());
}

//===----------------------------------------------------------------------===//
// Bindings and strided slices
//===----------------------------------------------------------------------===//

/// Clones the scalar `v` and the scalar ops it is computed from into the
/// kernel at `b`; fails with an error at `reader` when it is not computed
/// from constants alone.
static FailureOr<Value> cloneScalar(OpBuilder &b, Value v, IRMapping &map,
                                    Operation *reader) {
  if (Value known = map.lookupOrNull(v))
    return known;
  Operation *def = v.getDefiningOp();
  if (!def || !isScalarOp(def)) {
    InFlightDiagnostic diag = reader->emitError()
                              << "reads the scalar " << v.getType() << " ";
    if (!def)
      diag << "of a function argument";
    else
      diag << "computed by '" << def->getName() << "'";
    diag << ", which is not a constant: kernels take no scalar bindings";
    return failure();
  }
  for (Value operand : def->getOperands())
    if (failed(cloneScalar(b, operand, map, reader)))
      return failure();
  b.clone(*def, map);
  return map.lookup(v);
}

FailureOr<Binding> Outliner::bind(Value placeholder, Value value,
                                  bool foldStrided, DeviceAttr device,
                                  Operation *reader) {
  Binding binding;
  binding.placeholder = placeholder;
  binding.value = value;
  if (!isa<ShapedType>(value.getType())) {
    binding.kind = Binding::Kind::CloneScalar;
    return binding;
  }
  if (!isStaticTensor(value.getType()))
    return reader->emitError()
           << "reads " << value.getType()
           << ", which is not a static ranked tensor: it cannot be bound";
  FlowTrace trace = traceToRoot(value);
  bool copied = llvm::any_of(trace.chain, llvm::IsaPred<CopyOp>);
  // A tensor.empty has no contents to move: a kernel makes its own.
  if (!copied && isa_and_nonnull<tensor::EmptyOp>(trace.root.getDefiningOp())) {
    binding.kind = Binding::Kind::CloneEmpty;
    return binding;
  }
  // The views after the last copy are re-made where the value is read.
  unsigned first = 0;
  for (unsigned i = 0; i < trace.chain.size(); ++i)
    if (isa<CopyOp>(trace.chain[i]))
      first = i + 1;
  std::optional<unsigned> strided;
  for (unsigned i = first; i < trace.chain.size() && !strided; ++i)
    if (isStridedSlice(trace.chain[i]))
      strided = i;
  if (!strided)
    return binding;
  ArrayRef<Operation *> tail = ArrayRef(trace.chain).drop_front(*strided);
  bool replayable = llvm::all_of(
      tail, [](Operation *op) { return op->getNumOperands() == 1; });
  if (foldStrided && replayable) {
    binding.value = tail.front()->getOperand(0);
    binding.replay.assign(tail.begin(), tail.end());
    return binding;
  }
  FailureOr<Value> made = contiguous(value, device, reader);
  if (failed(made))
    return failure();
  binding.value = *made;
  return binding;
}

FailureOr<Value> Outliner::contiguous(Value value, DeviceAttr device,
                                      Operation *reader) {
  FlowTrace trace = traceToRoot(value);
  unsigned first = 0;
  for (unsigned i = 0; i < trace.chain.size(); ++i)
    if (isa<CopyOp>(trace.chain[i]))
      first = i + 1;
  for (unsigned i = first; i < trace.chain.size(); ++i) {
    if (!isStridedSlice(trace.chain[i]))
      continue;
    FailureOr<Value> made =
        materializeSlice(cast<tensor::ExtractSliceOp>(trace.chain[i]), device);
    if (failed(made))
      return failure();
    // Re-make the views after the slice on the materialised value.
    IRMapping map;
    map.map(trace.chain[i]->getResult(0), *made);
    OpBuilder b(reader);
    Value current = *made;
    for (Operation *view : ArrayRef(trace.chain).drop_front(i + 1))
      current = b.clone(*view, map)->getResult(0);
    return current;
  }
  return value;
}

FailureOr<Value> Outliner::materializeSlice(tensor::ExtractSliceOp slice,
                                            DeviceAttr device) {
  auto key = std::make_pair(slice.getOperation(), device);
  auto it = materialized.find(key);
  if (it != materialized.end())
    return it->second;
  FailureOr<KernelSpec> spec = hostSpec(slice, device);
  if (failed(spec))
    return failure();
  FailureOr<std::string> kernel =
      buildKernel(*spec, device, slice.getLoc(), slice);
  if (failed(kernel))
    return failure();
  Operation *next = slice->getNextNode();
  DispatchOp dispatch =
      createDispatch(next, device, *kernel, spec->bindings, spec->resultTypes,
                     std::nullopt, std::nullopt);
  Value made = dispatch.getResult(0);
  materialized[key] = made;
  return made;
}

//===----------------------------------------------------------------------===//
// Building kernels
//===----------------------------------------------------------------------===//

/// Makes the ops that yield `result` write it into `out`, the output tensor
/// (a kernel writes each output completely, in place). The destination
/// chain is followed from the op yielding `result` through destination-style
/// ops used once (a fill, an insert_slice chain): where it ends, a
/// `tensor.empty` becomes `out`, a splat constant becomes a fill of `out`,
/// a `linalg.fill` used elsewhere too is re-made on `out`, and any other
/// value is copied into `out` first. A payload that reads a `tensor.empty`
/// destination is an error at `errorAt`.
static LogicalResult writeInPlace(OpBuilder &b, Value result, Value out,
                                  unsigned index, Operation *errorAt) {
  auto opResult = dyn_cast<OpResult>(result);
  if (!opResult)
    return success(); // a bound value written out as it is
  auto dps = dyn_cast<DestinationStyleOpInterface>(opResult.getOwner());
  if (!dps || !dps.hasPureTensorSemantics())
    return success(); // computed into a temporary, then materialised
  OpOperand *init = dps.getTiedOpOperand(opResult);
  OpBuilder::InsertionGuard guard(b);
  while (true) {
    Operation *owner = init->getOwner();
    Operation *def = init->get().getDefiningOp();
    Location loc = owner->getLoc();
    b.setInsertionPoint(owner);
    if (init->get() == out)
      return success();
    if (isa_and_nonnull<tensor::EmptyOp>(def)) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(owner);
      if (linalgOp && linalgOp.payloadUsesValueFromOperand(init))
        return errorAt->emitError()
               << "result #" << index << " is computed by '" << owner->getName()
               << "', whose payload reads its destination, a tensor.empty: "
                  "the output would start undefined";
      init->set(out);
      return success();
    }
    auto next = dyn_cast_or_null<DestinationStyleOpInterface>(def);
    if (next && next.hasPureTensorSemantics() && init->get().hasOneUse()) {
      init = next.getTiedOpOperand(cast<OpResult>(init->get()));
      continue;
    }
    if (auto fill = dyn_cast_or_null<linalg::FillOp>(def)) {
      auto filled =
          linalg::FillOp::create(b, loc, fill.getInputs(), ValueRange{out});
      init->set(filled.getResult(0));
      return success();
    }
    if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (dense && dense.isSplat()) {
        Value scalar = arith::ConstantOp::create(
            b, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
        auto filled = linalg::FillOp::create(b, loc, scalar, ValueRange{out});
        init->set(filled.getResult(0));
        return success();
      }
    }
    auto copied = linalg::CopyOp::create(b, loc, ValueRange{init->get()},
                                         ValueRange{out});
    init->set(copied.getResult(0));
    return success();
  }
}

/// Re-writes the host op `op` (already mapped through `map`) in destination
/// style on a fresh `tensor.empty`, so that writeInPlace makes it write its
/// output in place: `tensor.pad` with a uniform pad value as a fill and an
/// insert_slice, `tensor.concat` as insert_slices, `tensor.generate` as a
/// `linalg.generic` over the output's indices, `tensor.from_elements` as
/// `tensor.insert`s. Returns null when `op` keeps its own form (a pad value
/// that depends on the indices).
static Value decomposeHostOp(OpBuilder &b, Operation *op, IRMapping &map) {
  Location loc = op->getLoc();
  auto emptyLike = [&](Type type) {
    auto ranked = cast<RankedTensorType>(type);
    return tensor::EmptyOp::create(b, loc, ranked.getShape(),
                                   ranked.getElementType())
        .getResult();
  };
  auto index = [&](int64_t i) { return OpFoldResult(b.getIndexAttr(i)); };
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    Value value = pad.getConstantPaddingValue();
    if (!value)
      return {};
    if (llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic))
      return {};
    // A constant yielded from inside the region is re-made outside it.
    if (value.getParentRegion() == &pad.getRegion())
      value = b.clone(*value.getDefiningOp())->getResult(0);
    Value fill =
        linalg::FillOp::create(b, loc, map.lookupOrDefault(value),
                               ValueRange{emptyLike(pad.getResultType())})
            .getResult(0);
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (auto [low, size] :
         llvm::zip_equal(pad.getStaticLow(), pad.getSourceType().getShape())) {
      offsets.push_back(index(low));
      sizes.push_back(index(size));
      strides.push_back(index(1));
    }
    return tensor::InsertSliceOp::create(b, loc, map.lookup(pad.getSource()),
                                         fill, offsets, sizes, strides);
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    Value dest = emptyLike(concat.getResultType());
    int64_t dim = concat.getDim(), offset = 0;
    for (Value input : concat.getInputs()) {
      auto type = cast<RankedTensorType>(input.getType());
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        offsets.push_back(index(d == dim ? offset : 0));
        sizes.push_back(index(type.getDimSize(d)));
        strides.push_back(index(1));
      }
      dest = tensor::InsertSliceOp::create(b, loc, map.lookup(input), dest,
                                           offsets, sizes, strides);
      offset += type.getDimSize(dim);
    }
    return dest;
  }
  if (auto generate = dyn_cast<tensor::GenerateOp>(op)) {
    auto type = cast<RankedTensorType>(generate.getType());
    AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{type}, ValueRange{}, ValueRange{emptyLike(type)},
        ArrayRef<AffineMap>{identity}, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange) {
          Block &body = generate.getBody().front();
          IRMapping inner = map;
          for (auto [d, arg] : llvm::enumerate(body.getArguments()))
            inner.map(arg, linalg::IndexOp::create(nb, nloc, d));
          for (Operation &nested : body.without_terminator())
            nb.clone(nested, inner);
          Value yielded = inner.lookupOrDefault(
              cast<tensor::YieldOp>(body.getTerminator()).getValue());
          linalg::YieldOp::create(nb, nloc, yielded);
        });
    return generic.getResult(0);
  }
  if (auto elements = dyn_cast<tensor::FromElementsOp>(op)) {
    auto type = cast<RankedTensorType>(elements.getType());
    Value dest = emptyLike(type);
    SmallVector<int64_t> strides = computeStrides(type.getShape());
    for (auto [i, element] : llvm::enumerate(elements.getElements())) {
      SmallVector<Value> indices;
      for (int64_t pos : delinearize(static_cast<int64_t>(i), strides))
        indices.push_back(arith::ConstantIndexOp::create(b, loc, pos));
      dest =
          tensor::InsertOp::create(b, loc, map.lookup(element), dest, indices);
    }
    return dest;
  }
  return {};
}

FailureOr<func::FuncOp> Outliner::buildKernelFunc(const KernelSpec &spec,
                                                  ModuleOp kernels,
                                                  Location loc,
                                                  Operation *errorAt) {
  SmallVector<Type> argTypes;
  for (const Binding &binding : spec.bindings)
    if (binding.kind == Binding::Kind::Bind)
      argTypes.push_back(bindingType(binding.value.getType()));
  unsigned numInputs = argTypes.size();
  for (Type result : spec.resultTypes)
    argTypes.push_back(bindingType(result));

  OpBuilder b = OpBuilder::atBlockEnd(kernels.getBody());
  auto func = func::FuncOp::create(b, loc, "__kernel",
                                   FunctionType::get(ctx, argTypes, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto fail = [&]() -> FailureOr<func::FuncOp> {
    func.erase();
    return failure();
  };

  IRMapping map;
  unsigned arg = 0;
  for (const Binding &binding : spec.bindings) {
    switch (binding.kind) {
    case Binding::Kind::Bind: {
      Value t = bufferization::ToTensorOp::create(
          b, loc, binding.value.getType(), entry->getArgument(arg++),
          /*restrict=*/true, /*writable=*/false);
      IRMapping views;
      views.map(binding.value, t);
      for (Operation *view : binding.replay)
        t = b.clone(*view, views)->getResult(0);
      map.map(binding.placeholder, t);
      break;
    }
    case Binding::Kind::CloneEmpty: {
      auto type = cast<RankedTensorType>(binding.placeholder.getType());
      map.map(binding.placeholder,
              tensor::EmptyOp::create(b, loc, type.getShape(),
                                      type.getElementType()));
      break;
    }
    case Binding::Kind::CloneScalar: {
      IRMapping scalars;
      FailureOr<Value> v = cloneScalar(b, binding.value, scalars, errorAt);
      if (failed(v))
        return fail();
      map.map(binding.placeholder, *v);
      break;
    }
    }
  }
  SmallVector<Value> outs;
  for (auto [i, type] : llvm::enumerate(spec.resultTypes))
    outs.push_back(bufferization::ToTensorOp::create(
        b, loc, type, entry->getArgument(numInputs + i), /*restrict=*/true,
        /*writable=*/true));

  SmallVector<Value> results = spec.cloneBody(b, map);
  for (auto [i, result] : llvm::enumerate(results))
    if (failed(writeInPlace(b, result, outs[i], i, errorAt)))
      return fail();
  for (auto [i, result] : llvm::enumerate(results))
    bufferization::MaterializeInDestinationOp::create(
        b, loc, Type(), result, entry->getArgument(numInputs + i),
        /*restrict=*/true, /*writable=*/true);
  func::ReturnOp::create(b, loc);

  // Drop what the in-place rewrite left unused (the original destinations).
  SmallVector<Operation *> ops = llvm::map_to_vector(
      llvm::reverse(*entry), [](Operation &op) { return &op; });
  for (Operation *op : ops)
    if (isOpTriviallyDead(op))
      op->erase();

  func->setAttr(kernel_attr::kKernelId, StringAttr::get(ctx, spec.kernelId));
  func->setAttr(kernel_attr::kOpKind, StringAttr::get(ctx, spec.opKind));
  func->setAttr(kernel_attr::kRevision,
                IntegerAttr::get(IntegerType::get(ctx, 64),
                                 static_cast<int64_t>(spec.revision)));
  func->setAttr(kernel_attr::kSchedule, StringAttr::get(ctx, spec.schedule));
  return func;
}

FailureOr<std::string> Outliner::buildKernel(const KernelSpec &spec,
                                             DeviceAttr device, Location loc,
                                             Operation *errorAt) {
  Executable &exe = getExecutable(device);
  ModuleOp kernels = exe.op.getOrCreateKernelModule();
  // A shared kernel keeps the location of its first use.
  FailureOr<func::FuncOp> func = buildKernelFunc(spec, kernels, loc, errorAt);
  if (failed(func))
    return failure();
  // The dedup key: the kernel as printed under its temporary name, without
  // locations, with every region and attribute in full whatever the
  // command line's printing flags say. Equal payloads, types, winners and
  // schedules print equal.
  std::string key;
  {
    llvm::raw_string_ostream os(key);
    OpPrintingFlags flags;
    flags.useLocalScope()
        .assumeVerified()
        .enableDebugInfo(false)
        .skipRegions(false)
        .elideLargeElementsAttrs(std::numeric_limits<int64_t>::max())
        .printGenericOpForm(false);
    func->print(os, flags);
  }
  auto [it, inserted] = exe.shared.try_emplace(std::move(key));
  if (!inserted) {
    func->erase();
    return it->second;
  }
  it->second = spec.prefix + "_" + std::to_string(exe.next++);
  func->setSymName(it->second);
  ++numKernels;
  return it->second;
}

DispatchOp Outliner::createDispatch(Operation *at, DeviceAttr device,
                                    StringRef kernel,
                                    ArrayRef<Binding> bindings,
                                    TypeRange results,
                                    std::optional<int64_t> node,
                                    std::optional<int64_t> predictedNs) {
  SmallVector<Value> operands;
  for (const Binding &binding : bindings)
    if (binding.kind == Binding::Kind::Bind)
      operands.push_back(binding.value);
  OpBuilder b(at);
  auto i64 = [&](std::optional<int64_t> v) -> IntegerAttr {
    return v ? b.getI64IntegerAttr(*v) : IntegerAttr();
  };
  ++numDispatches;
  return DispatchOp::create(b, at->getLoc(), results, kernelRef(device, kernel),
                            operands, i64(node), i64(predictedNs));
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

LogicalResult Outliner::outlineNode(NodeOp node) {
  auto device = dyn_cast_or_null<DeviceAttr>(node.getPlacementAttr());
  if (!device)
    return node.emitError() << "node " << node.getId()
                            << " is not placed (no 'on' clause): run "
                               "fuel-plan before outlining";
  if (!node.getAlternativesAttr())
    return node.emitError() << "node " << node.getId()
                            << " has no alternatives: its kernel is unknown";
  CandidateAttr winner = getWinner(node);
  if (!winner)
    return node.emitError()
           << "node " << node.getId() << " has no candidate on its device "
           << device.str();
  const target::KernelRecord *record = registry.find(winner.getKernelId());
  if (!record)
    return node.emitError()
           << "node " << node.getId() << ": the winner's kernel '"
           << winner.getKernelId() << "' is not in the kernel registry";
  if (record->lowering.empty())
    return node.emitError() << "node " << node.getId() << ": kernel '"
                            << record->id << "' has no lowering";
  for (Type type : node->getResultTypes())
    if (!isStaticTensor(type))
      return node.emitError() << "node " << node.getId() << " yields " << type
                              << ", which is not a static ranked tensor";
  if (record->source == target::KernelSource::Generated)
    return outlineGeneratedNode(node, device, winner, *record);
  return outlineLibraryNode(node, device, winner, *record);
}

LogicalResult
Outliner::outlineGeneratedNode(NodeOp node, DeviceAttr device,
                               CandidateAttr winner,
                               const target::KernelRecord &record) {
  ArrayAttr caps = winner.getCaps();
  bool foldStrided = caps && llvm::any_of(caps, [](Attribute cap) {
                       auto s = dyn_cast<StringAttr>(cap);
                       return s && s.getValue() == "strided_input";
                     });
  KernelSpec spec;
  Block &body = node.getBodyBlock();
  for (auto [arg, operand] :
       llvm::zip_equal(body.getArguments(), node.getInputs())) {
    FailureOr<Binding> binding = bind(arg, operand, foldStrided, device, node);
    if (failed(binding))
      return failure();
    spec.bindings.push_back(std::move(*binding));
  }
  spec.resultTypes = llvm::to_vector(node->getResultTypes());
  spec.cloneBody = [&body](OpBuilder &b, IRMapping &map) {
    for (Operation &op : body.without_terminator())
      b.clone(op, map);
    SmallVector<Value> results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(map.lookupOrDefault(v));
    return results;
  };
  spec.kernelId = winner.getKernelId().str();
  spec.opKind = stringifyOpKind(node.getKind()).str();
  spec.schedule = record.lowering;
  spec.revision = winner.getRevision();
  spec.prefix = spec.opKind;
  FailureOr<std::string> kernel =
      buildKernel(spec, device, node.getLoc(), node);
  if (failed(kernel))
    return failure();
  DispatchOp dispatch =
      createDispatch(node, device, *kernel, spec.bindings, spec.resultTypes,
                     node.getId(), winner.getTimeNs());
  node->replaceAllUsesWith(dispatch->getResults());
  node->erase();
  return success();
}

namespace {
/// What a library GEMM entry computes (kernels/shims, ShimABI.h): C =
/// op(A)·op(B), row-major, per batch entry when batched.
struct GemmShape {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  bool transA = false, transB = false;
};
} // namespace

/// The loop positions `map`'s results name, or std::nullopt when a result
/// is not a plain loop dimension.
static std::optional<SmallVector<unsigned, 3>> resultDims(AffineMap map) {
  SmallVector<unsigned, 3> dims;
  for (AffineExpr e : map.getResults()) {
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return std::nullopt;
    dims.push_back(d.getPosition());
  }
  return dims;
}

/// The GEMM `root` computes, or an error (at `node`, naming `kernelId`)
/// when the shim cannot express it: an f32 contraction with one M, N and K
/// loop (and at most one batch loop), operands in row-major order or
/// transposed, a destination that is a zero fill.
static FailureOr<GemmShape> analyzeGemm(NodeOp node, StringRef kernelId,
                                        bool batchedEntry) {
  auto refuse = [&](const Twine &why) {
    return node.emitError()
           << "node " << node.getId() << ": kernel '" << kernelId
           << "' cannot express this node: " << why;
  };
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(getNodeRoot(node));
  if (!linalgOp || linalgOp.getNumDpsInputs() != 2 ||
      linalgOp.getNumDpsInits() != 1 || node->getNumResults() != 1)
    return refuse("not a two-input, one-output linalg contraction");
  if (!linalg::isaContractionOpInterface(linalgOp))
    return refuse("not a contraction");
  Type f32 = Float32Type::get(node.getContext());
  for (OpOperand &operand : linalgOp->getOpOperands())
    if (getElementTypeOrSelf(operand.get().getType()) != f32)
      return refuse("the shim computes in f32 only");
  for (Operation &op : linalgOp.getBlock()->without_terminator())
    if (!isa<arith::MulFOp, arith::AddFOp>(op))
      return refuse("the payload is not a multiply-add");
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(linalgOp);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return refuse("not one M, N and K dimension");
  if (dims->batch.size() != (batchedEntry ? 1u : 0u))
    return refuse(batchedEntry ? "the batched entry needs a batch dimension"
                               : "a batch dimension needs the batched entry");
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  std::optional<unsigned> b;
  if (!dims->batch.empty())
    b = dims->batch[0];

  GemmShape shape;
  shape.m = ranges[m];
  shape.n = ranges[n];
  shape.k = ranges[k];
  if (b)
    shape.batch = ranges[*b];
  auto maps = linalgOp.getIndexingMapsArray();
  auto a = resultDims(maps[0]), bm = resultDims(maps[1]),
       c = resultDims(maps[2]);
  if (!a || !bm || !c)
    return refuse("an operand is not indexed by plain loop dimensions");
  // A batch loop indexes every operand (inferContractionDims); the shim
  // needs it outermost.
  if (b) {
    for (SmallVector<unsigned, 3> *d : {&*a, &*bm, &*c}) {
      if (d->empty() || d->front() != *b)
        return refuse("the batch dimension is not outermost");
      d->erase(d->begin());
    }
  }
  using Dims = SmallVector<unsigned, 3>;
  if (*c != Dims{m, n})
    return refuse("the result is not row-major M×N");
  if (*a == Dims{m, k})
    shape.transA = false;
  else if (*a == Dims{k, m})
    shape.transA = true;
  else
    return refuse("A is neither M×K nor K×M");
  if (*bm == Dims{k, n})
    shape.transB = false;
  else if (*bm == Dims{n, k})
    shape.transB = true;
  else
    return refuse("B is neither K×N nor N×K");

  // beta = 0: the destination must be a fill of zero.
  Value init = linalgOp.getDpsInits()[0];
  auto fill = init.getDefiningOp<linalg::FillOp>();
  auto zero = fill ? fill.getInputs()[0].getDefiningOp<arith::ConstantOp>()
                   : arith::ConstantOp();
  auto value = zero ? dyn_cast<FloatAttr>(zero.getValue()) : FloatAttr();
  if (!value || !value.getValue().isZero())
    return refuse("the shim computes C = op(A)·op(B) with beta 0, and the "
                  "destination is not a zero fill");
  for (Value input : linalgOp.getDpsInputs())
    if (!isa<BlockArgument>(input))
      return refuse("an input is not a node operand");
  return shape;
}

/// Rows per workgroup of a row-blocked `sgemm`: at most 8 blocks of at
/// least 16 rows, a multiple of 8, never more than M. Fixed at compile
/// time from M alone, so results do not depend on the runtime's pool size.
static int64_t rowsPerWorkgroup(int64_t m) {
  int64_t rows = std::max<int64_t>(
      16, static_cast<int64_t>(llvm::alignTo(llvm::divideCeil(m, 8), 8)));
  return std::max<int64_t>(1, std::min(rows, m));
}

LogicalResult Outliner::outlineLibraryNode(NodeOp node, DeviceAttr device,
                                           CandidateAttr winner,
                                           const target::KernelRecord &record) {
  bool batchedEntry = node.getKind() == OpKind::batch_matmul;
  if (node.getKind() != OpKind::matmul && !batchedEntry)
    return node.emitError()
           << "node " << node.getId() << ": library kernel '" << record.id
           << "' of op kind '" << stringifyOpKind(node.getKind())
           << "' has no shim convention";
  FailureOr<GemmShape> gemm = analyzeGemm(node, record.id, batchedEntry);
  if (failed(gemm))
    return failure();
  const GemmShape &g = *gemm;
  int64_t lda = g.transA ? g.m : g.k;
  int64_t ldb = g.transB ? g.k : g.n;
  int64_t ldc = g.n;
  SmallVector<int64_t> params, grid;
  if (!batchedEntry) {
    int64_t rows = rowsPerWorkgroup(g.m);
    params = {g.m, g.n, g.k, lda, ldb, ldc, g.transA, g.transB, rows};
    grid = {static_cast<int64_t>(llvm::divideCeil(g.m, rows)), 1, 1};
  } else {
    params = {g.batch, g.m,       g.n,       g.k,       lda,      ldb,
              ldc,     g.m * g.k, g.k * g.n, g.m * g.n, g.transA, g.transB};
    grid = {g.batch, 1, 1};
  }
  for (int64_t p : params)
    if (p < 0 || p > int64_t{UINT32_MAX})
      return node.emitError() << "node " << node.getId() << ": kernel '"
                              << record.id << "' needs the param " << p
                              << ", outside the 32-bit push constants";

  // Bindings [A, B] in the root's input order, then C.
  auto root = cast<linalg::LinalgOp>(getNodeRoot(node));
  SmallVector<Binding> bindings;
  for (Value input : root.getDpsInputs()) {
    auto arg = cast<BlockArgument>(input);
    FailureOr<Binding> binding = bind(arg, node.getInputs()[arg.getArgNumber()],
                                      /*foldStrided=*/false, device, node);
    if (failed(binding))
      return failure();
    if (binding->kind != Binding::Kind::Bind)
      return node.emitError()
             << "node " << node.getId() << ": kernel '" << record.id
             << "' reads an operand with no contents";
    bindings.push_back(std::move(*binding));
  }

  Executable &exe = getExecutable(device);
  std::string key;
  {
    llvm::raw_string_ostream os(key);
    os << record.id << '\0' << record.lowering << '\0' << winner.getRevision()
       << '\0' << record.workspaceBytes;
    for (int64_t p : params)
      os << ',' << p;
    for (int64_t p : grid)
      os << ';' << p;
  }
  auto [it, inserted] = exe.shared.try_emplace(std::move(key));
  if (inserted) {
    it->second = winner.getSource().str() + "_" +
                 stringifyOpKind(node.getKind()).str() + "_" +
                 std::to_string(exe.next++);
    OpBuilder b = OpBuilder::atBlockEnd(&exe.op.getBodyBlock());
    LibraryKernelOp::create(b, node.getLoc(), it->second, record.id,
                            winner.getSource(), record.lowering, grid, params,
                            static_cast<int64_t>(record.workspaceBytes),
                            static_cast<int64_t>(winner.getRevision()));
    ++numKernels;
  }
  DispatchOp dispatch =
      createDispatch(node, device, it->second, bindings, node->getResultTypes(),
                     node.getId(), winner.getTimeNs());
  node->replaceAllUsesWith(dispatch->getResults());
  node->erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Host ops
//===----------------------------------------------------------------------===//

FailureOr<KernelSpec> Outliner::hostSpec(Operation *op, DeviceAttr device) {
  KernelSpec spec;
  // What the op reads: its operands, then the values its regions capture.
  llvm::SetVector<Value> reads;
  reads.insert(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), reads);
  for (Value v : reads) {
    FailureOr<Binding> binding = bind(v, v, /*foldStrided=*/false, device, op);
    if (failed(binding))
      return failure();
    spec.bindings.push_back(std::move(*binding));
  }
  for (Type type : op->getResultTypes())
    if (!isStaticTensor(type))
      return op->emitError() << "cannot be lowered: it yields " << type
                             << ", which is not a static ranked tensor";
  spec.resultTypes = llvm::to_vector(op->getResultTypes());
  spec.cloneBody = [op](OpBuilder &b, IRMapping &map) {
    if (Value made = decomposeHostOp(b, op, map))
      return SmallVector<Value>{made};
    return SmallVector<Value>(b.clone(*op, map)->getResults());
  };
  std::string backend = backendName(device);
  spec.prefix = "host_" + bareOpName(op).str();
  spec.kernelId = backend + ".generated." + spec.prefix;
  spec.opKind = "host";
  spec.schedule = "kernels/schedules/" +
                  std::string(target::scheduleFolder(toPlan(device).kind)) +
                  "/host.mlir";
  // No registry record: the revision names the kernel and its schedule.
  std::string text = spec.kernelId + '\0' + spec.schedule;
  spec.revision = llvm::xxh3_64bits(StringRef(text));
  return spec;
}

LogicalResult Outliner::outlineHostOp(Operation *op) {
  DeviceAttr cpu = DeviceAttr::getHost(ctx);
  FailureOr<KernelSpec> spec = hostSpec(op, cpu);
  if (failed(spec))
    return failure();
  FailureOr<std::string> kernel = buildKernel(*spec, cpu, op->getLoc(), op);
  if (failed(kernel))
    return failure();
  DispatchOp dispatch =
      createDispatch(op, cpu, *kernel, spec->bindings, spec->resultTypes,
                     std::nullopt, std::nullopt);
  op->replaceAllUsesWith(dispatch->getResults());
  op->erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

/// The device a strided slice is made on when no kernel folds it: where
/// its source lives (the target of the last copy on the way, else the
/// root's device; `cpu` for a constant or an unplaced root).
static DeviceAttr sliceDevice(const ValueFlow &flow, Operation *slice,
                              MLIRContext *ctx) {
  FlowTrace trace = traceToRoot(slice->getOperand(0));
  for (Operation *op : llvm::reverse(trace.chain))
    if (auto copy = dyn_cast<CopyOp>(op))
      return copy.getTo();
  if (const FlowRoot *root = flow.lookup(trace.root))
    if (root->device)
      return fromPlan(ctx, *root->device);
  return DeviceAttr::getHost(ctx);
}

LogicalResult Outliner::outlineFunction(func::FuncOp func) {
  if (func.isExternal())
    return success();
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "cannot be lowered: the function has "
                            << func.getBody().getBlocks().size()
                            << " blocks; planned functions have one";
  ValueFlow flow = collectFlow(func);
  Block &block = func.getBody().front();
  sliceDevices.clear();
  materialized.clear();
  for (Operation &op : block)
    if (isStridedSlice(&op))
      sliceDevices[&op] = sliceDevice(flow, &op, ctx);

  bool failed = false;
  SmallVector<Operation *> ops =
      llvm::map_to_vector(block, [](Operation &op) { return &op; });
  for (Operation *op : ops) {
    auto kind = flow.kinds.find(op);
    if (kind == flow.kinds.end())
      continue; // made by this pass
    switch (kind->second) {
    case FlowOpKind::Node:
      failed |= mlir::failed(outlineNode(cast<NodeOp>(op)));
      continue;
    case FlowOpKind::View:
    case FlowOpKind::Copy:
    case FlowOpKind::Constant:
    case FlowOpKind::Return:
      continue;
    case FlowOpKind::Host:
      break;
    }
    // Re-made where read (tensor.empty), cloned where read (scalars) or a
    // view the flow does not list (tensor.bitcast: same bytes).
    if (isa<tensor::EmptyOp, tensor::BitcastOp>(op) || isScalarOp(op))
      continue;
    if (isa<DispatchOp>(op))
      continue; // outlined already (a materialised slice)
    if (isHostKernelOp(op)) {
      failed |= mlir::failed(outlineHostOp(op));
      continue;
    }
    if (isa<func::CallOp>(op)) {
      op->emitError() << "cannot be lowered: calls are not outlined (inline "
                         "the callee first)";
      failed = true;
      continue;
    }
    op->emitError() << "cannot be lowered: '" << op->getName()
                    << "' is not a node, view, copy, constant or host op "
                       "fuel compiles";
    failed = true;
  }
  if (failed)
    return failure();

  // Drop what no kernel reads any more: views, empties, scalars and
  // constants whose readers were outlined. Dispatches and copies stay.
  auto eraseDead = [&block]() {
    SmallVector<Operation *> reversed = llvm::map_to_vector(
        llvm::reverse(block), [](Operation &op) { return &op; });
    for (Operation *op : reversed) {
      if (!op->use_empty() || isa<DispatchOp, CopyOp>(op))
        continue;
      if (isViewOp(op) ||
          isa<tensor::EmptyOp, tensor::BitcastOp, arith::ConstantOp>(op) ||
          isScalarOp(op))
        op->erase();
    }
  };
  eraseDead();

  // Strided slices still read by views, copies or the return are
  // materialised where their source lives.
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (!isStridedSlice(&op) || op.use_empty())
      continue;
    auto slice = cast<tensor::ExtractSliceOp>(op);
    FailureOr<Value> made = materializeSlice(slice, sliceDevices.lookup(&op));
    if (mlir::failed(made))
      return failure();
    slice.getResult().replaceAllUsesWith(*made);
  }
  eraseDead();

  for (Operation &op : block)
    if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      return empty.emitError()
             << "cannot be lowered: a tensor.empty read outside a kernel "
                "(by '"
             << (*empty->user_begin())->getName() << "') has no contents";
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct OutlineKernelsPass
    : public mlir::fuel::impl::FuelOutlineKernelsPassBase<OutlineKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Outliner outliner(module, getKernelRegistry(module.getContext()));
    bool failed = false;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      failed |= mlir::failed(outliner.outlineFunction(func));
    outliner.finish();
    numDispatches += outliner.numDispatches;
    numKernels += outliner.numKernels;
    if (failed)
      signalPassFailure();
  }
};
} // namespace
