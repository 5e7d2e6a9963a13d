//===- OnnxNodeContext.cpp - The node an op family lowers -----------------===//
//
// See OnnxNodeContext.h: a node context's inputs, attributes and outputs, its
// errors and unsupported uses, and the IR it builds for the op families; the
// shape and attribute helpers they share.
//
//===----------------------------------------------------------------------===//

#include "OnnxNodeContext.h"
#include "OnnxGeometry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::fuel::onnx;
namespace oi = ::fuel::onnx_import;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

bool ConstData::isSplat() const {
  int64_t n = size();
  for (int64_t k = 1; k < n; ++k)
    if (isFloat ? !(f[k] == f[0] || (f[k] != f[k] && f[0] != f[0]))
                : i[k] != i[0])
      return false;
  return n > 0;
}

int64_t OnnxValue::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::optional<SmallVector<int64_t>>
mlir::fuel::onnx::broadcastShapes(ArrayRef<SmallVector<int64_t>> shapes) {
  std::vector<std::vector<int64_t>> in;
  for (const auto &s : shapes)
    in.emplace_back(s.begin(), s.end());
  auto out = oi::broadcastShapes(in);
  if (!out)
    return std::nullopt;
  return SmallVector<int64_t>(out->begin(), out->end());
}

std::optional<int64_t> mlir::fuel::onnx::normalizeAxis(int64_t axis,
                                                       int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

SmallVector<int64_t> mlir::fuel::onnx::stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t j = int64_t(shape.size()) - 2; j >= 0; --j)
    s[j] = s[j + 1] * shape[j + 1];
  return s;
}

const OnnxAttr *mlir::fuel::onnx::findAttribute(const Node &node,
                                                StringRef name) {
  for (const OnnxAttr &a : node.attributes)
    if (a.name == name)
      return &a;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(Importer &importer, const Node &node, Location loc)
    : node(node), b(importer.b), loc(loc), ctx(importer.ctx),
      importer(importer) {}

bool NodeContext::hasInput(unsigned i) const {
  return i < node.inputs.size() && !node.inputs[i].empty();
}

const OnnxValue &NodeContext::input(unsigned i) const {
  return importer.values.find(node.inputs[i])->second;
}

bool NodeContext::wantsOutput(unsigned i) const {
  return i < node.outputs.size() && !node.outputs[i].empty();
}

void NodeContext::setOutput(unsigned i, OnnxValue value) {
  if (!wantsOutput(i))
    return;
  checkShape(value.shape);
  value.name = node.outputs[i];
  importer.values[node.outputs[i]] = std::move(value);
}

const OnnxAttr *NodeContext::attr(StringRef name) const {
  return findAttribute(node, name);
}

int64_t NodeContext::getInt(StringRef name, int64_t dflt) const {
  const OnnxAttr *a = attr(name);
  return a ? a->i : dflt;
}

float NodeContext::getFloat(StringRef name, float dflt) const {
  const OnnxAttr *a = attr(name);
  return a ? a->f : dflt;
}

std::string NodeContext::getString(StringRef name, StringRef dflt) const {
  const OnnxAttr *a = attr(name);
  return a ? a->s : dflt.str();
}

std::optional<std::vector<int64_t>> NodeContext::getInts(StringRef name) const {
  const OnnxAttr *a = attr(name);
  if (!a)
    return std::nullopt;
  return a->ints;
}

FailureOr<int64_t> NodeContext::getAxis(int64_t dflt, int64_t rank) {
  std::optional<int64_t> axis = normalizeAxis(getInt("axis", dflt), rank);
  if (!axis)
    return error() << "axis is outside the input's rank " << rank;
  return *axis;
}

/// The most elements one tensor of an imported model may hold (2^40): far
/// beyond any device, small enough that element and byte counts never
/// overflow.
static constexpr int64_t kMaxTensorElements = int64_t(1) << 40;

bool NodeContext::checkShape(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  bool ok = true;
  for (int64_t d : shape) {
    if (d < 0 || (d > 0 && n > kMaxTensorElements / d)) {
      ok = false;
      break;
    }
    n *= d;
  }
  if (ok)
    return true;
  if (!shapeRefused) {
    InFlightDiagnostic diag = error();
    diag << "shape [";
    llvm::interleave(shape, diag, ", ");
    diag << "] is not a static shape fuel imports (a negative dimension, or "
            "more than 2^40 elements)";
  }
  shapeRefused = true;
  return false;
}

InFlightDiagnostic NodeContext::error() {
  return emitError(loc) << "node '" << node.name << "' (" << node.opType
                        << "): ";
}

LogicalResult NodeContext::unsupported(const Twine &reason) {
  importer.unsupportedList.push_back(
      "node '" + node.name + "' (" + node.opType + ", opset " +
      std::to_string(importer.opset) + "): " + reason.str());
  importer.nodeUnsupported = true;
  return failure();
}

LogicalResult NodeContext::requireFloat(unsigned i) {
  const OnnxValue &v = input(i);
  if (v.type == oi::kFloat)
    return success();
  return unsupported(Twine("input '") + node.inputs[i] + "' is " +
                     oi::dataTypeName(v.type) + "; only FLOAT is supported");
}

FailureOr<std::vector<int64_t>> NodeContext::constInts(unsigned i,
                                                       StringRef what) {
  const OnnxValue &v = input(i);
  if (!v.isConst() || v.data->isFloat) {
    (void)unsupported(Twine(what) + " ('" + node.inputs[i] +
                      "') must be an integer tensor known at import time "
                      "(an initializer, a folded input or folded shape "
                      "arithmetic)");
    return failure();
  }
  return v.data->i;
}

Type NodeContext::elementType(int32_t t) {
  switch (t) {
  case oi::kFloat:
    return Float32Type::get(ctx);
  case oi::kDouble:
    return Float64Type::get(ctx);
  case oi::kFloat16:
    return Float16Type::get(ctx);
  case oi::kInt64:
    return IntegerType::get(ctx, 64);
  case oi::kInt32:
    return IntegerType::get(ctx, 32);
  case oi::kInt8:
  case oi::kUint8:
    return IntegerType::get(ctx, 8);
  case oi::kBool:
    return IntegerType::get(ctx, 1);
  default:
    return {};
  }
}

RankedTensorType NodeContext::tensorType(ArrayRef<int64_t> shape, Type elem) {
  return RankedTensorType::get(shape, elem);
}

Value NodeContext::emptyTensor(ArrayRef<int64_t> shape, Type elem) {
  return tensor::EmptyOp::create(b, loc, shape, elem);
}

Value NodeContext::filled(ArrayRef<int64_t> shape, float value) {
  Type f32 = b.getF32Type();
  Value init = emptyTensor(shape, f32);
  Value scalar =
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value)).getResult();
  return linalg::FillOp::create(b, loc, ValueRange{scalar}, ValueRange{init})
      .getResult(0);
}

OnnxValue NodeContext::runtime(Value v, int32_t type) {
  OnnxValue out;
  auto t = cast<RankedTensorType>(v.getType());
  out.shape.assign(t.getShape().begin(), t.getShape().end());
  out.type = type;
  out.value = v;
  return out;
}

OnnxValue NodeContext::constant(ConstData data, ArrayRef<int64_t> shape,
                                int32_t type) {
  OnnxValue out;
  out.shape.assign(shape.begin(), shape.end());
  out.type = type;
  out.data = std::make_shared<const ConstData>(std::move(data));
  return out;
}

/// A blob name made of the ONNX name's letters, digits, '_' and '.'.
static std::string blobName(StringRef name) {
  std::string s;
  for (char c : name)
    s += (isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') ? c
                                                                          : '_';
  if (s.empty() || isdigit(static_cast<unsigned char>(s[0])))
    s = "onnx_" + s;
  return s;
}

Value NodeContext::materialize(const OnnxValue &v) {
  if (v.value)
    return v.value;
  Type elem = elementType(v.type);
  auto type = tensorType(v.shape, elem);
  const ConstData &d = *v.data;
  TypedAttr attr;
  if (d.isSplat() || d.size() == 0) {
    if (isa<FloatType>(elem))
      attr = DenseElementsAttr::get(
          type, FloatAttr::get(elem, d.size() ? d.at(0) : 0.0).getValue());
    else
      attr = DenseElementsAttr::get(
          type, IntegerAttr::get(elem, d.size() ? d.intAt(0) : 0).getValue());
  } else if (elem.isF32()) {
    // Weights: a dense_resource blob, never printed inline (SEMANTICS §5).
    attr = DenseResourceElementsAttr::get(
        type, blobName(v.name.empty() ? "constant" : v.name),
        HeapAsmResourceBlob::allocateAndCopyInferAlign<float>(d.f));
  } else if (elem.isInteger(64)) {
    attr = DenseResourceElementsAttr::get(
        type, blobName(v.name.empty() ? "constant" : v.name),
        HeapAsmResourceBlob::allocateAndCopyInferAlign<int64_t>(d.i));
  } else if (auto it = dyn_cast<IntegerType>(elem)) {
    SmallVector<APInt> ints;
    for (int64_t x : d.i)
      ints.push_back(APInt(it.getWidth(), x, /*isSigned=*/true,
                           /*implicitTrunc=*/true));
    attr = DenseElementsAttr::get(type, ints);
  } else {
    SmallVector<APFloat> fs;
    for (float x : d.f) {
      APFloat a(x);
      bool lost;
      a.convert(cast<FloatType>(elem).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &lost);
      fs.push_back(a);
    }
    attr = DenseElementsAttr::get(type, fs);
  }
  Value c = arith::ConstantOp::create(b, loc, attr).getResult();
  // Constants are materialised once per name.
  if (!v.name.empty()) {
    auto it = importer.values.find(v.name);
    if (it != importer.values.end() && it->second.data == v.data)
      it->second.value = c;
  }
  return c;
}

Value NodeContext::elementwise(ArrayRef<const OnnxValue *> inputs,
                               ArrayRef<int64_t> outShape, Type outElem,
                               PayloadFn body) {
  // Kernels of rank 0 are not lowered: compute over [1] and view it.
  if (outShape.empty())
    return reshape(elementwise(inputs, {1}, outElem, body), {});
  int64_t rank = outShape.size();
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  // For each input: its block argument index, or -1 for a splat constant.
  SmallVector<int64_t> argOf;
  for (const OnnxValue *in : inputs) {
    if (in->isConst() && !in->value && in->data->isSplat()) {
      argOf.push_back(-1);
      continue;
    }
    argOf.push_back(operands.size());
    operands.push_back(materialize(*in));
    int64_t r = in->shape.size();
    SmallVector<AffineExpr> exprs;
    for (int64_t j = 0; j < r; ++j) {
      int64_t d = rank - r + j;
      if (in->shape[j] == 1 && outShape[d] != 1)
        exprs.push_back(getAffineConstantExpr(0, ctx));
      else
        exprs.push_back(getAffineDimExpr(d, ctx));
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value init = emptyTensor(outShape, outElem);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, operands, ValueRange{init}, maps,
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> scalars;
        for (auto [k, in] : llvm::enumerate(inputs)) {
          if (argOf[k] >= 0) {
            scalars.push_back(args[argOf[k]]);
            continue;
          }
          Type elem = elementType(in->type);
          TypedAttr a;
          if (isa<FloatType>(elem))
            a = FloatAttr::get(elem, in->data->at(0));
          else
            a = IntegerAttr::get(elem, in->data->intAt(0));
          scalars.push_back(arith::ConstantOp::create(nb, l, a).getResult());
        }
        Value r = body(nb, l, scalars);
        linalg::YieldOp::create(nb, l, r);
      });
  return op.getResult(0);
}

Value NodeContext::reduce(
    Value in, ArrayRef<int64_t> axes, float init,
    std::function<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto type = cast<RankedTensorType>(in.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iters;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    iters.push_back(reduced ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
    if (!reduced) {
      outShape.push_back(type.getDimSize(d));
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
  }
  Value acc = filled(outShape, init);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                 AffineMap::get(rank, 0, outExprs, ctx)};
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{acc.getType()}, ValueRange{in}, ValueRange{acc}, maps,
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, combine(nb, l, args[1], args[0]));
      });
  return op.getResult(0);
}

Value NodeContext::reshape(Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  auto target = RankedTensorType::get(shape, type.getElementType());
  auto all = [](int64_t rank) {
    ReassociationIndices r;
    for (int64_t k = 0; k < rank; ++k)
      r.push_back(k);
    return SmallVector<ReassociationIndices>{r};
  };
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, target, v,
                                         SmallVector<ReassociationIndices>{})
        .getResult();
  if (shape.empty())
    return tensor::CollapseShapeOp::create(b, loc, target, v,
                                           SmallVector<ReassociationIndices>{})
        .getResult();
  // One collapse or expand when the dimensions group contiguously.
  if (auto re = getReassociationIndicesForReshape(type, target)) {
    if (type.getRank() > target.getRank())
      return tensor::CollapseShapeOp::create(b, loc, target, v, *re)
          .getResult();
    return tensor::ExpandShapeOp::create(b, loc, target, v, *re).getResult();
  }
  Value flat = v;
  if (type.getRank() != 1)
    flat = tensor::CollapseShapeOp::create(b, loc, v, all(type.getRank()))
               .getResult();
  if (shape.size() == 1)
    return flat;
  return tensor::ExpandShapeOp::create(b, loc, target, flat, all(shape.size()))
      .getResult();
}

Value NodeContext::transpose(Value v, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = emptyTensor(shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, v, init, perm)->getResult(0);
}

Value NodeContext::slice(Value v, ArrayRef<int64_t> offsets,
                         ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides) {
  auto ofr = [&](ArrayRef<int64_t> xs) {
    SmallVector<OpFoldResult> r;
    for (int64_t x : xs)
      r.push_back(b.getIndexAttr(x));
    return r;
  };
  return tensor::ExtractSliceOp::create(b, loc, v, ofr(offsets), ofr(sizes),
                                        ofr(strides))
      .getResult();
}

OnnxValue NodeContext::remapConst(const OnnxValue &in, ArrayRef<int64_t> shape,
                                  llvm::function_ref<int64_t(int64_t)> source) {
  ConstData out;
  out.isFloat = in.data->isFloat;
  if (!checkShape(shape))
    return constant(std::move(out), {0}, in.type);
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  for (int64_t k = 0; k < n; ++k) {
    int64_t s = source(k);
    if (out.isFloat)
      out.f.push_back(in.data->f[s]);
    else
      out.i.push_back(in.data->i[s]);
  }
  return constant(std::move(out), shape, in.type);
}

OnnxValue NodeContext::reshaped(const OnnxValue &v, ArrayRef<int64_t> shape) {
  OnnxValue out;
  out.type = v.type;
  out.shape.assign(shape.begin(), shape.end());
  if (v.isConst() && !v.value) {
    out.data = v.data;
    // A different name, so that its materialisation is not v's.
    out.name = v.name.empty() ? "" : v.name + ".reshaped";
    return out;
  }
  out.value = reshape(materialize(v), shape);
  return out;
}

Value NodeContext::broadcastTo(const OnnxValue &v, ArrayRef<int64_t> shape) {
  if (ArrayRef<int64_t>(v.shape) == shape)
    return materialize(v);
  return elementwise(
      {&v}, shape, elementType(v.type),
      [](OpBuilder &, Location, ArrayRef<Value> a) { return a[0]; });
}
