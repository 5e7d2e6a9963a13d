//===- NodeAnalysis.cpp - What the planner needs to know about an op ------===//
//
// Classification of kernel-bearing ops into the op kinds of SEMANTICS §4,
// with their shape figures, op params and dtypes key, and the view rules
// the strided-input preference reads. Every linalg header the planning
// passes need is confined to this file.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/NodeAnalysis.h"

#include "fuel/Planner/Numbers.h"
#include "fuel/Planning/ValueFlow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuel;
using PlanKind = ::fuel::plan::OpKind;

uint32_t NodeFacts::sizeClass() const {
  return ::fuel::plan::sizeClass(kind, sizeFigures).value_or(0);
}

std::string mlir::fuel::dtypeName(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

/// Bytes of one element of `type` (rounded up to whole bytes).
static uint64_t elementBytes(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (type.isIntOrIndexOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * elementBytes(complex.getElementType());
  return 8; // index and other scalars
}

/// Product of static extents, saturating; dynamic extents count as 1.
static uint64_t product(ArrayRef<int64_t> extents) {
  uint64_t p = 1;
  for (int64_t e : extents)
    p = ::fuel::plan::satMulU(p, e < 0 ? 1 : static_cast<uint64_t>(e));
  return p;
}

/// Number of elements of a tensor type; 1 for scalars.
static uint64_t elementCount(Type type) {
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    return product(ranked.getShape());
  return 1;
}

uint64_t mlir::fuel::valueBytes(Type type) {
  return ::fuel::plan::satMulU(elementCount(type), elementBytes(type));
}

/// Product of the loop ranges at `dims`.
static uint64_t loopProduct(ArrayRef<int64_t> ranges, ArrayRef<unsigned> dims) {
  uint64_t p = 1;
  for (unsigned d : dims)
    p = ::fuel::plan::satMulU(p, ranges[d] < 0 ? 1 : ranges[d]);
  return p;
}

/// The function of a scalar payload op ("add", "exp", ...): the op's name
/// without its dialect, with the float/int suffix of arith ops dropped.
static std::string payloadFunction(Operation *op) {
  StringRef name = op->getName().stripDialect();
  return llvm::StringSwitch<std::string>(name)
      .Cases({"addf", "addi"}, "add")
      .Cases({"subf", "subi"}, "sub")
      .Cases({"mulf", "muli"}, "mul")
      .Cases({"divf", "divsi", "divui"}, "div")
      .Cases({"maximumf", "maxnumf", "maxsi", "maxui"}, "max")
      .Cases({"minimumf", "minnumf", "minsi", "minui"}, "min")
      .Case("negf", "neg")
      .Cases({"cmpf", "cmpi"}, "cmp")
      .Default(name.str());
}

/// The payload's function: the single non-terminator op of `block` named
/// by payloadFunction(), "copy" for an empty payload, and the names joined
/// by '+' for a fused payload (e.g. "mul+add").
static std::string blockFunction(Block &block) {
  std::string fn;
  for (Operation &op : block.without_terminator()) {
    if (isa<arith::ConstantOp>(op))
      continue;
    if (!fn.empty())
      fn += '+';
    fn += payloadFunction(&op);
  }
  return fn.empty() ? "copy" : fn;
}

/// Number of scalar ops per iteration of a payload (at least 1).
static uint64_t blockOps(Block &block) {
  uint64_t n = 0;
  for (Operation &op : block.without_terminator())
    if (!isa<arith::ConstantOp>(op))
      ++n;
  return std::max<uint64_t>(n, 1);
}

/// Prints integers as "[a, b]".
static std::string intList(ArrayRef<int64_t> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << ']';
  return s;
}

/// Reads a dense integer attribute (strides, dilations) into `out`.
static SmallVector<int64_t, 2> denseInts(Attribute attr) {
  SmallVector<int64_t, 2> out;
  if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr))
    for (const APInt &v : dense.getValues<APInt>())
      out.push_back(v.getSExtValue());
  return out;
}

/// The elementwise function of a named elementwise linalg op, or empty.
static std::string namedElementwiseFunction(Operation *op) {
  if (auto ew = dyn_cast<linalg::ElementwiseOp>(op))
    return linalg::stringifyElementwiseKind(ew.getKind()).str();
  if (isa<linalg::FillOp>(op))
    return "fill";
  if (isa<linalg::CopyOp>(op))
    return "copy";
  if (isa<linalg::BroadcastOp>(op))
    return "broadcast";
  if (isa<linalg::GenericOp, linalg::MapOp>(op))
    return "";
  // Named unary and binary ops (linalg.add, linalg.exp, ...).
  return op->getName().stripDialect().str();
}

/// True when every indexing map of `op` suits an elementwise op: outputs
/// use the identity, inputs a broadcast (a projected permutation keeping
/// the loop order, where a unit dimension may also be indexed by 0, as in
/// `(d0, d1) -> (0, d1)` for a tensor<1xNxf32>).
static bool hasElementwiseMaps(linalg::LinalgOp op) {
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (op.isDpsInit(&operand)) {
      if (!map.isIdentity())
        return false;
      continue;
    }
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
    auto shaped = dyn_cast<ShapedType>(operand.get().getType());
    int64_t last = -1;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      // A 0 broadcasts a unit dimension; reading element 0 of a longer
      // dimension is a slice, not a broadcast.
      if (isa<AffineConstantExpr>(e)) {
        if (!shaped || shaped.getDimSize(i) != 1)
          return false;
        continue;
      }
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || static_cast<int64_t>(d.getPosition()) <= last)
        return false;
      last = d.getPosition();
    }
  }
  return true;
}

bool mlir::fuel::isPoolingOp(Operation *op) {
  return op->getName().getStringRef().starts_with("linalg.pooling_");
}

bool mlir::fuel::isKernelBearing(Operation *op) {
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return softmax.hasPureTensorSemantics();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureTensorSemantics();
}

std::optional<PlanKind> mlir::fuel::classifyKernelOp(Operation *op) {
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    if (!softmax.hasPureTensorSemantics())
      return std::nullopt;
    return PlanKind::Softmax;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return std::nullopt;
  if (isa<linalg::TransposeOp>(op))
    return PlanKind::Transpose;
  if (isPoolingOp(op))
    return PlanKind::Pool;
  if (isa<linalg::ReduceOp>(op))
    return PlanKind::Reduce;
  if (linalg::isaContractionOpInterface(linalgOp)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(linalgOp);
    if (succeeded(dims) && !dims->m.empty() && !dims->n.empty() &&
        !dims->k.empty())
      return dims->batch.empty() ? PlanKind::Matmul : PlanKind::BatchMatmul;
    return PlanKind::Generic;
  }
  if (linalg::isaConvolutionOpInterface(linalgOp)) {
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(linalgOp);
    if (succeeded(dims) && dims->outputImage.size() == 2 &&
        dims->filterLoop.size() == 2)
      return PlanKind::Conv2d;
    return PlanKind::Generic;
  }
  unsigned reductions = linalgOp.getNumReductionLoops();
  if (reductions > 0)
    return PlanKind::Reduce;
  if (hasElementwiseMaps(linalgOp))
    return PlanKind::Elementwise;
  return PlanKind::Generic;
}

/// Dtypes key of a destination-style op: element types of the inputs, then
/// of the results.
static ::fuel::plan::DtypesKey dtypesOf(ValueRange inputs, TypeRange results) {
  ::fuel::plan::DtypesKey key;
  for (Value v : inputs)
    key.inputs.push_back(dtypeName(v.getType()));
  for (Type t : results)
    key.outputs.push_back(dtypeName(t));
  return key;
}

FailureOr<NodeFacts> mlir::fuel::analyzeKernelOp(Operation *op) {
  std::optional<PlanKind> kind = classifyKernelOp(op);
  if (!kind)
    return failure();
  return analyzeKernelOp(op, *kind);
}

FailureOr<NodeFacts> mlir::fuel::analyzeKernelOp(Operation *op,
                                                 PlanKind knownKind) {
  if (!isKernelBearing(op))
    return failure();
  std::optional<PlanKind> kind = knownKind;
  for (Type t : op->getResultTypes())
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && !shaped.hasStaticShape())
      return failure();
  for (Type t : op->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && !shaped.hasStaticShape())
      return failure();

  NodeFacts facts;
  facts.kind = *kind;
  auto &q = facts.costQuery;
  auto param = [&](StringRef key, std::string value) {
    facts.params.emplace_back(key.str(), std::move(value));
  };

  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    auto type = cast<RankedTensorType>(softmax.getInput().getType());
    uint64_t elements = elementCount(type);
    int64_t dim = softmax.getDimension();
    uint64_t axis = type.getDimSize(dim);
    facts.sizeFigures = {elements, axis};
    q.dims = {axis ? elements / axis : 0, axis};
    q.elementBytes = elementBytes(type);
    param("dimension", std::to_string(dim));
    facts.dtypes = dtypesOf(softmax.getInput(), op->getResultTypes());
    facts.principalType = type.getElementType();
    return facts;
  }

  auto linalgOp = cast<linalg::LinalgOp>(op);
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  SmallVector<Value> inputs = linalgOp.getDpsInputs();
  facts.dtypes = dtypesOf(inputs, op->getResultTypes());
  Type principal =
      inputs.empty() ? op->getResult(0).getType() : inputs.front().getType();
  q.elementBytes = elementBytes(principal);
  facts.principalType = getElementTypeOrSelf(principal);
  uint64_t outputElements = 0, inputElements = 0;
  for (Type t : op->getResultTypes())
    outputElements = ::fuel::plan::satAddU(outputElements, elementCount(t));
  for (Value v : inputs)
    if (isa<ShapedType>(v.getType()))
      inputElements =
          ::fuel::plan::satAddU(inputElements, elementCount(v.getType()));
  SmallVector<unsigned> all = llvm::to_vector(
      llvm::seq<unsigned>(0, static_cast<unsigned>(ranges.size())));
  uint64_t iterations = loopProduct(ranges, all);

  switch (*kind) {
  case PlanKind::Matmul:
  case PlanKind::BatchMatmul: {
    FailureOr<linalg::ContractionDimensions> inferred =
        linalg::inferContractionDims(linalgOp);
    if (failed(inferred))
      return failure(); // a known kind the op does not have
    linalg::ContractionDimensions &dims = *inferred;
    uint64_t m = loopProduct(ranges, dims.m), n = loopProduct(ranges, dims.n),
             k = loopProduct(ranges, dims.k);
    if (*kind == PlanKind::Matmul) {
      facts.sizeFigures = {m, n, k};
    } else {
      uint64_t b = loopProduct(ranges, dims.batch);
      facts.sizeFigures = {b, m, n, k};
    }
    q.dims.assign(facts.sizeFigures.begin(), facts.sizeFigures.end());
    break;
  }
  case PlanKind::Conv2d: {
    FailureOr<linalg::ConvolutionDimensions> inferred =
        linalg::inferConvolutionDims(linalgOp);
    if (failed(inferred) || inferred->outputImage.size() != 2 ||
        inferred->filterLoop.size() != 2)
      return failure();
    linalg::ConvolutionDimensions &dims = *inferred;
    uint64_t n = loopProduct(ranges, dims.batch);
    uint64_t oh = ranges[dims.outputImage[0]];
    uint64_t ow = ranges[dims.outputImage[1]];
    uint64_t oc = ::fuel::plan::satMulU(loopProduct(ranges, dims.outputChannel),
                                        loopProduct(ranges, dims.depth));
    uint64_t ic = loopProduct(ranges, dims.inputChannel);
    uint64_t kh = ranges[dims.filterLoop[0]];
    uint64_t kw = ranges[dims.filterLoop[1]];
    facts.sizeFigures = {n, oh, ow, oc, ic, kh, kw};
    q.dims.assign(facts.sizeFigures.begin(), facts.sizeFigures.end());
    if (dims.strides.size() == 2) {
      q.strideH = dims.strides[0];
      q.strideW = dims.strides[1];
    }
    if (dims.dilations.size() == 2) {
      q.dilationH = dims.dilations[0];
      q.dilationW = dims.dilations[1];
    }
    param("dilations", intList({static_cast<int64_t>(q.dilationH),
                                static_cast<int64_t>(q.dilationW)}));
    param("strides", intList({static_cast<int64_t>(q.strideH),
                              static_cast<int64_t>(q.strideW)}));
    break;
  }
  case PlanKind::Pool: {
    StringRef name = op->getName().getStringRef();
    std::string pool = name.contains("_max")   ? "max"
                       : name.contains("_min") ? "min"
                       : name.contains("_sum") ? "sum"
                                               : "avg";
    // The window is the shape-only second input.
    uint64_t window = inputs.size() > 1 ? elementCount(inputs[1].getType()) : 1;
    uint64_t in = inputs.empty() ? 0 : elementCount(inputs[0].getType());
    facts.sizeFigures = {outputElements, window};
    q.dims = {outputElements, window, in};
    q.function = pool;
    param("pool", pool);
    if (auto strides = denseInts(op->getAttr("strides")); !strides.empty())
      param("strides", intList(strides));
    if (auto dil = denseInts(op->getAttr("dilations")); !dil.empty())
      param("dilations", intList(dil));
    break;
  }
  case PlanKind::Reduce: {
    uint64_t reduced = 1, kept = 1;
    for (auto [i, it] : llvm::enumerate(linalgOp.getIteratorTypesArray())) {
      uint64_t r = ranges[i] < 0 ? 1 : ranges[i];
      if (it == utils::IteratorType::reduction)
        reduced = ::fuel::plan::satMulU(reduced, r);
      else
        kept = ::fuel::plan::satMulU(kept, r);
    }
    facts.sizeFigures = {iterations, reduced};
    q.dims = {kept, reduced};
    q.function = blockFunction(*linalgOp.getBlock());
    param("combiner", q.function);
    break;
  }
  case PlanKind::Elementwise: {
    std::string fn = namedElementwiseFunction(op);
    if (fn.empty())
      fn = blockFunction(*linalgOp.getBlock());
    facts.sizeFigures = {outputElements};
    q.dims = {outputElements, inputElements};
    q.function = fn;
    param("fn", fn);
    break;
  }
  case PlanKind::Transpose: {
    auto transpose = dyn_cast<linalg::TransposeOp>(op);
    if (!transpose)
      return failure();
    facts.sizeFigures = {outputElements};
    q.dims = {outputElements};
    param("permutation", intList(transpose.getPermutation()));
    break;
  }
  case PlanKind::Generic:
  case PlanKind::Softmax: {
    facts.sizeFigures = {outputElements};
    q.dims = {iterations, blockOps(*linalgOp.getBlock()), inputElements,
              outputElements};
    break;
  }
  }
  llvm::stable_sort(facts.params, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  return facts;
}

Operation *mlir::fuel::getNodeRoot(NodeOp node) {
  YieldOp yield = node.getYield();
  if (!yield || yield.getValues().empty())
    return nullptr;
  return yield.getValues().front().getDefiningOp();
}

bool mlir::fuel::isViewOp(Operation *op) {
  return isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
             tensor::CollapseShapeOp, tensor::CastOp, tensor::ReshapeOp>(op);
}

Value mlir::fuel::getViewSource(Operation *op) {
  if (auto s = dyn_cast<tensor::ExtractSliceOp>(op))
    return s.getSource();
  if (auto e = dyn_cast<tensor::ExpandShapeOp>(op))
    return e.getSrc();
  if (auto c = dyn_cast<tensor::CollapseShapeOp>(op))
    return c.getSrc();
  if (auto c = dyn_cast<tensor::CastOp>(op))
    return c.getSource();
  if (auto r = dyn_cast<tensor::ReshapeOp>(op))
    return r.getSource();
  return {};
}

/// True when `slice` reads one contiguous block of its row-major source:
/// unit strides, static figures, and every dimension inside the first
/// partial one taken whole, every dimension outside it of size 1.
static bool isContiguousSlice(tensor::ExtractSliceOp slice) {
  auto source = slice.getSourceType();
  if (!source.hasStaticShape())
    return false;
  ArrayRef<int64_t> shape = source.getShape();
  ArrayRef<int64_t> sizes = slice.getStaticSizes();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  if (llvm::any_of(slice.getStaticOffsets(), ShapedType::isDynamic) ||
      llvm::any_of(sizes, ShapedType::isDynamic))
    return false;
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; }))
    return false;
  int64_t rank = shape.size();
  int64_t partial = -1;
  for (int64_t i = rank - 1; i >= 0; --i)
    if (sizes[i] != shape[i]) {
      partial = i;
      break;
    }
  for (int64_t i = 0; i < partial; ++i)
    if (sizes[i] != 1)
      return false;
  return true;
}

bool mlir::fuel::isStridedSlice(Operation *op) {
  auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(op);
  return slice && !isContiguousSlice(slice);
}

bool mlir::fuel::isNonContiguous(Value value) {
  return llvm::any_of(traceToRoot(value).chain, isStridedSlice);
}
