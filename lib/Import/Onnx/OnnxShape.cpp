//===- OnnxShape.cpp - ONNX shape, data-movement and constant ops ---------===//
//
// Reshape, Flatten, Squeeze, Unsqueeze (views), Transpose (linalg.transpose),
// Concat (tensor.concat, a host op), Split and Slice (tensor.extract_slice),
// Gather with constant indices (slices and a concat), Expand, Identity, and
// the ops that only exist at import time: Shape, Size, Constant,
// ConstantOfShape and Cast. On inputs known at import time every one of them
// folds, so int64 shape arithmetic (Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape) becomes constants before anything is built.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "OnnxGeometry.h"
#include "OnnxNodeContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::fuel::onnx;
namespace oi = ::fuel::onnx_import;

namespace {

int64_t product(ArrayRef<int64_t> xs) {
  int64_t n = 1;
  for (int64_t x : xs)
    n *= x;
  return n;
}

/// The same value with another shape (a view at run time).
LogicalResult setReshaped(NodeContext &nc, ArrayRef<int64_t> shape) {
  nc.setOutput(0, nc.reshaped(nc.input(0), shape));
  return success();
}

LogicalResult lowerReshape(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  auto target = nc.constInts(1, "the shape");
  if (failed(target))
    return failure();
  bool allowZero = nc.getInt("allowzero", 0) != 0;
  SmallVector<int64_t> shape;
  int64_t infer = -1, known = 1;
  for (size_t k = 0; k < target->size(); ++k) {
    int64_t d = (*target)[k];
    if (d == 0 && !allowZero) {
      if (k >= x.shape.size())
        return nc.error() << "shape entry " << k
                          << " is 0 (copy) beyond the input's rank";
      d = x.shape[k];
    }
    if (d == -1) {
      if (infer >= 0)
        return nc.error() << "the shape has more than one -1";
      infer = k;
      shape.push_back(1);
      continue;
    }
    if (d < 0)
      return nc.error() << "shape entry " << k << " is " << d;
    shape.push_back(d);
    known *= d;
  }
  int64_t total = x.numElements();
  if (infer >= 0) {
    if (known == 0 || total % known)
      return nc.error() << "cannot infer the -1 dimension: " << total
                        << " elements do not divide by " << known;
    shape[infer] = total / known;
  }
  if (product(shape) != total)
    return nc.error() << "the shape holds " << product(shape)
                      << " elements but the input has " << total;
  return setReshaped(nc, shape);
}

LogicalResult lowerFlatten(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size(), axis = nc.getInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return nc.error() << "axis is outside [-rank, rank]";
  ArrayRef<int64_t> s(x.shape);
  return setReshaped(
      nc, {product(s.take_front(axis)), product(s.drop_front(axis))});
}

/// Reads `axes` (input 1, or all when absent for Squeeze) normalised.
FailureOr<SmallVector<int64_t>> axesInput(NodeContext &nc, int64_t rank) {
  SmallVector<int64_t> axes;
  if (!nc.hasInput(1))
    return axes;
  auto a = nc.constInts(1, "axes");
  if (failed(a))
    return failure();
  for (int64_t v : *a) {
    auto n = normalizeAxis(v, rank);
    if (!n) {
      (void)(nc.error() << "axis " << v << " is outside rank " << rank);
      return failure();
    }
    axes.push_back(*n);
  }
  return axes;
}

LogicalResult lowerSqueeze(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  auto axes = axesInput(nc, x.shape.size());
  if (failed(axes))
    return failure();
  SmallVector<int64_t> shape;
  for (size_t d = 0; d < x.shape.size(); ++d) {
    bool drop = axes->empty() ? x.shape[d] == 1 : llvm::is_contained(*axes, d);
    if (drop && x.shape[d] != 1)
      return nc.error() << "dimension " << d << " is " << x.shape[d]
                        << ", not 1";
    if (!drop)
      shape.push_back(x.shape[d]);
  }
  return setReshaped(nc, shape);
}

LogicalResult lowerUnsqueeze(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  if (!nc.hasInput(1))
    return nc.error() << "axes are required";
  int64_t outRank = x.shape.size() + nc.input(1).numElements();
  auto axes = axesInput(nc, outRank);
  if (failed(axes))
    return failure();
  SmallVector<int64_t> shape;
  size_t next = 0;
  for (int64_t d = 0; d < outRank; ++d) {
    if (llvm::is_contained(*axes, d))
      shape.push_back(1);
    else if (next < x.shape.size())
      shape.push_back(x.shape[next++]);
    else
      return nc.error() << "axes repeat";
  }
  return setReshaped(nc, shape);
}

LogicalResult lowerTranspose(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size();
  std::vector<int64_t> perm;
  if (auto p = nc.getInts("perm"))
    perm = *p;
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  std::vector<int64_t> sorted = perm;
  llvm::sort(sorted);
  for (int64_t d = 0; d < rank; ++d)
    if (int64_t(sorted.size()) != rank || sorted[d] != d)
      return nc.error() << "perm is not a permutation of the input's " << rank
                        << " dimensions";
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(x.shape[p]);
  if (x.isConst() && !x.value) {
    SmallVector<int64_t> inStrides = stridesOf(x.shape);
    SmallVector<int64_t> outStrides = stridesOf(shape);
    OnnxValue t = nc.remapConst(x, shape, [&](int64_t k) {
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d)
        src += ((k / outStrides[d]) % shape[d]) * inStrides[perm[d]];
      return src;
    });
    nc.setOutput(0, t);
    return success();
  }
  nc.setOutput(0, nc.runtime(nc.transpose(nc.materialize(x), perm), x.type));
  return success();
}

LogicalResult lowerConcat(NodeContext &nc) {
  const OnnxValue &first = nc.input(0);
  int64_t rank = first.shape.size();
  auto axis = normalizeAxis(nc.getInt("axis", 0), rank);
  if (!axis)
    return nc.error() << "axis is outside the inputs' rank " << rank;
  SmallVector<int64_t> shape(first.shape);
  shape[*axis] = 0;
  bool allConst = true;
  SmallVector<const OnnxValue *> ins;
  for (unsigned i = 0; i < nc.numInputs(); ++i) {
    const OnnxValue &v = nc.input(i);
    if (int64_t(v.shape.size()) != rank || v.type != first.type)
      return nc.error() << "inputs differ in rank or element type";
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && v.shape[d] != first.shape[d])
        return nc.error() << "inputs differ in dimension " << d;
    shape[*axis] += v.shape[*axis];
    allConst &= v.isConst() && !v.value;
    ins.push_back(&v);
  }
  if (allConst) {
    int64_t outer = product(ArrayRef<int64_t>(shape).take_front(*axis));
    int64_t inner = product(ArrayRef<int64_t>(shape).drop_front(*axis + 1));
    ConstData out;
    out.isFloat = first.data->isFloat;
    for (int64_t o = 0; o < outer; ++o)
      for (const OnnxValue *v : ins) {
        int64_t chunk = v->shape[*axis] * inner;
        for (int64_t k = 0; k < chunk; ++k) {
          int64_t s = o * chunk + k;
          if (out.isFloat)
            out.f.push_back(v->data->f[s]);
          else
            out.i.push_back(v->data->i[s]);
        }
      }
    nc.setOutput(0, nc.constant(std::move(out), shape, first.type));
    return success();
  }
  SmallVector<Value> values;
  for (const OnnxValue *v : ins)
    if (v->numElements() > 0)
      values.push_back(nc.materialize(*v));
  Value r =
      values.size() == 1
          ? values[0]
          : tensor::ConcatOp::create(nc.b, nc.loc, *axis, values).getResult();
  nc.setOutput(0, nc.runtime(r, first.type));
  return success();
}

/// A strided box of `x` along every dimension: offsets, sizes and (positive
/// or negative) steps. Folds for a constant; otherwise an extract_slice
/// (positive steps only).
LogicalResult setBox(NodeContext &nc, unsigned out, const OnnxValue &x,
                     ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                     ArrayRef<int64_t> steps) {
  int64_t rank = x.shape.size();
  if (x.isConst() && !x.value) {
    SmallVector<int64_t> inStrides = stridesOf(x.shape);
    SmallVector<int64_t> outStrides = stridesOf(sizes);
    OnnxValue v = nc.remapConst(x, sizes, [&](int64_t k) {
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d)
        src += (offsets[d] + ((k / outStrides[d]) % sizes[d]) * steps[d]) *
               inStrides[d];
      return src;
    });
    nc.setOutput(out, v);
    return success();
  }
  if (llvm::is_contained(sizes, 0)) {
    // An empty result reads nothing: an empty constant.
    ConstData none;
    none.isFloat = x.isConst() ? x.data->isFloat : x.type == oi::kFloat;
    nc.setOutput(out, nc.constant(std::move(none), sizes, x.type));
    return success();
  }
  if (llvm::any_of(steps, [](int64_t s) { return s < 0; })) {
    // A reversed slice is no view: a tensor.generate (a host op) reading
    // element offset + step * i of each dimension.
    Value src = nc.materialize(x);
    auto type = nc.tensorType(sizes, nc.elementType(x.type));
    Value r =
        tensor::GenerateOp::create(
            nc.b, nc.loc, type, ValueRange{},
            [&](OpBuilder &b, Location l, ValueRange idx) {
              SmallVector<Value> at;
              for (int64_t d = 0; d < rank; ++d) {
                Value step = arith::ConstantIndexOp::create(b, l, steps[d]);
                Value off = arith::ConstantIndexOp::create(b, l, offsets[d]);
                Value scaled = arith::MulIOp::create(b, l, idx[d], step);
                at.push_back(arith::AddIOp::create(b, l, off, scaled));
              }
              Value e = tensor::ExtractOp::create(b, l, src, at);
              tensor::YieldOp::create(b, l, e);
            })
            .getResult();
    nc.setOutput(out, nc.runtime(r, x.type));
    return success();
  }
  nc.setOutput(
      out,
      nc.runtime(nc.slice(nc.materialize(x), offsets, sizes, steps), x.type));
  return success();
}

LogicalResult lowerSlice(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size();
  auto starts = nc.constInts(1, "starts");
  auto ends = nc.constInts(2, "ends");
  if (failed(starts) || failed(ends))
    return failure();
  std::vector<int64_t> axes, steps;
  if (nc.hasInput(3)) {
    auto a = nc.constInts(3, "axes");
    if (failed(a))
      return failure();
    axes = *a;
  } else {
    for (size_t k = 0; k < starts->size(); ++k)
      axes.push_back(k);
  }
  if (nc.hasInput(4)) {
    auto s = nc.constInts(4, "steps");
    if (failed(s))
      return failure();
    steps = *s;
  } else {
    steps.assign(starts->size(), 1);
  }
  if (ends->size() != starts->size() || axes.size() != starts->size() ||
      steps.size() != starts->size())
    return nc.error() << "starts, ends, axes and steps differ in length";
  SmallVector<int64_t> offsets(rank, 0), sizes(x.shape), strides(rank, 1);
  for (size_t k = 0; k < axes.size(); ++k) {
    auto a = normalizeAxis(axes[k], rank);
    if (!a)
      return nc.error() << "axis " << axes[k] << " is outside rank " << rank;
    if (steps[k] == 0)
      return nc.error() << "a step is 0";
    oi::SliceBounds sb =
        oi::sliceBounds(x.shape[*a], (*starts)[k], (*ends)[k], steps[k]);
    offsets[*a] = sb.offset;
    sizes[*a] = sb.size;
    strides[*a] = sb.step;
  }
  return setBox(nc, 0, x, offsets, sizes, strides);
}

LogicalResult lowerSplit(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axis = nc.getAxis(0, rank);
  if (failed(axis))
    return failure();
  int64_t dim = x.shape[*axis], parts = nc.numOutputs();
  if (parts < 1)
    return nc.error() << "has no outputs";
  std::vector<int64_t> split;
  if (nc.hasInput(1)) {
    auto s = nc.constInts(1, "split");
    if (failed(s))
      return failure();
    split = *s;
  } else {
    // Equal parts; the last one smaller when the dimension does not divide.
    int64_t each = (dim + parts - 1) / parts;
    for (int64_t p = 0; p < parts; ++p)
      split.push_back(std::max<int64_t>(0, std::min(each, dim - p * each)));
  }
  // Each size within the dimension before adding, so that sizes from the
  // model cannot overflow the sum.
  int64_t sum = 0;
  for (int64_t s : split) {
    if (s < 0 || s > dim)
      return nc.error() << "split size " << s << " is outside dimension "
                        << *axis << " (" << dim << ")";
    sum += s;
  }
  if (int64_t(split.size()) != parts || sum != dim)
    return nc.error() << "split sizes do not add up to dimension " << *axis
                      << " (" << dim << ") over " << parts << " outputs";
  int64_t at = 0;
  for (int64_t p = 0; p < parts; ++p) {
    SmallVector<int64_t> offsets(rank, 0), sizes(x.shape), steps(rank, 1);
    offsets[*axis] = at;
    sizes[*axis] = split[p];
    at += split[p];
    if (nc.wantsOutput(p) && failed(setBox(nc, p, x, offsets, sizes, steps)))
      return failure();
  }
  return success();
}

LogicalResult lowerGather(NodeContext &nc) {
  const OnnxValue &x = nc.input(0), &idx = nc.input(1);
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axis = nc.getAxis(0, rank);
  if (failed(axis))
    return failure();
  auto indices = nc.constInts(1, "the indices");
  if (failed(indices))
    return failure();
  int64_t dim = x.shape[*axis];
  std::vector<int64_t> norm;
  for (int64_t i : *indices) {
    if (i < -dim || i >= dim)
      return nc.error() << "index " << i << " is outside dimension " << *axis
                        << " of size " << dim;
    norm.push_back(i < 0 ? i + dim : i);
  }
  SmallVector<int64_t> shape(x.shape.begin(), x.shape.begin() + *axis);
  shape.append(idx.shape.begin(), idx.shape.end());
  shape.append(x.shape.begin() + *axis + 1, x.shape.end());
  int64_t inner = product(ArrayRef<int64_t>(x.shape).drop_front(*axis + 1));
  int64_t count = norm.size();
  if (x.isConst() && !x.value) {
    OnnxValue v = nc.remapConst(x, shape, [&](int64_t k) {
      int64_t in = k % inner, rest = k / inner;
      int64_t j = rest % count, outer = rest / count;
      return (outer * dim + norm[j]) * inner + in;
    });
    nc.setOutput(0, v);
    return success();
  }
  // One slice per index, concatenated along the axis, viewed as `shape`.
  Value src = nc.materialize(x);
  SmallVector<Value> parts;
  SmallVector<int64_t> sizes(x.shape), steps(rank, 1);
  sizes[*axis] = 1;
  for (int64_t i : norm) {
    SmallVector<int64_t> offsets(rank, 0);
    offsets[*axis] = i;
    parts.push_back(nc.slice(src, offsets, sizes, steps));
  }
  Value r;
  if (parts.empty()) {
    SmallVector<int64_t> empty(x.shape);
    empty[*axis] = 0;
    r = nc.emptyTensor(empty, nc.elementType(x.type));
  } else {
    r = parts.size() == 1
            ? parts[0]
            : tensor::ConcatOp::create(nc.b, nc.loc, *axis, parts).getResult();
  }
  nc.setOutput(0, nc.runtime(nc.reshape(r, shape), x.type));
  return success();
}

/// The most elements an Expand of a constant is folded to.
constexpr int64_t kMaxFoldedExpandElements = int64_t(1) << 16;

LogicalResult lowerExpand(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  auto target = nc.constInts(1, "the shape");
  if (failed(target))
    return failure();
  auto shape = broadcastShapes(
      {x.shape, SmallVector<int64_t>(target->begin(), target->end())});
  if (!shape)
    return nc.error() << "the input does not broadcast to the shape";
  // Folding copies every output element on the host: only for the small
  // tensors of shape arithmetic. A larger broadcast is a kernel, whatever
  // size its shape names (an Expand may name any size; folding it would
  // take time and memory in proportion).
  int64_t outElements = 1;
  for (int64_t d : *shape)
    if (d > 0)
      outElements = d > kMaxFoldedExpandElements / outElements
                        ? kMaxFoldedExpandElements + 1
                        : outElements * d;
  if (x.isConst() && !x.value && outElements <= kMaxFoldedExpandElements) {
    SmallVector<int64_t> outStrides = stridesOf(*shape);
    SmallVector<int64_t> inStrides = stridesOf(x.shape);
    int64_t off = shape->size() - x.shape.size();
    nc.setOutput(0, nc.remapConst(x, *shape, [&](int64_t k) {
      int64_t src = 0;
      for (size_t j = 0; j < x.shape.size(); ++j)
        if (x.shape[j] != 1)
          src += ((k / outStrides[off + j]) % (*shape)[off + j]) * inStrides[j];
      return src;
    }));
    return success();
  }
  nc.setOutput(0, nc.runtime(nc.broadcastTo(x, *shape), x.type));
  return success();
}

LogicalResult lowerShape(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size();
  int64_t start = nc.getInt("start", 0), end = nc.getInt("end", rank);
  auto clampAxis = [&](int64_t a) {
    if (a < 0)
      a += rank;
    return std::max<int64_t>(0, std::min(a, rank));
  };
  start = clampAxis(start);
  end = clampAxis(end);
  ConstData d;
  d.isFloat = false;
  for (int64_t k = start; k < end; ++k)
    d.i.push_back(x.shape[k]);
  int64_t n = d.i.size();
  nc.setOutput(0, nc.constant(std::move(d), {n}, oi::kInt64));
  return success();
}

LogicalResult lowerSize(NodeContext &nc) {
  ConstData d;
  d.isFloat = false;
  d.i.push_back(nc.input(0).numElements());
  nc.setOutput(0, nc.constant(std::move(d), {}, oi::kInt64));
  return success();
}

/// A constant from a tensor attribute's data.
OnnxValue fromTensor(NodeContext &nc,
                     const ::fuel::onnx_import::TensorData &t) {
  ConstData d;
  d.isFloat = !t.floats.empty() || t.type == oi::kFloat ||
              t.type == oi::kDouble || t.type == oi::kFloat16;
  d.f = t.floats;
  d.i = t.ints;
  return nc.constant(
      std::move(d), SmallVector<int64_t>(t.dims.begin(), t.dims.end()), t.type);
}

bool importableType(int32_t t) {
  return t == oi::kFloat || t == oi::kInt64 || t == oi::kInt32 ||
         t == oi::kBool || t == oi::kDouble || t == oi::kFloat16 ||
         t == oi::kInt8 || t == oi::kUint8;
}

std::string checkConstant(const Node &n) {
  if (n.attributes.size() != 1)
    return "exactly one value attribute is expected";
  const OnnxAttr &a = n.attributes[0];
  if (a.name == "value" && a.t && !importableType(a.t->type))
    return std::string("a value of type ") +
           ::fuel::onnx_import::dataTypeName(a.t->type) + " is not supported";
  if (a.name == "value" || a.name == "value_float" ||
      a.name == "value_floats" || a.name == "value_int" ||
      a.name == "value_ints")
    return "";
  return "attribute '" + a.name + "' is not supported";
}

LogicalResult lowerConstant(NodeContext &nc) {
  const OnnxAttr &a = nc.node.attributes[0];
  ConstData d;
  SmallVector<int64_t> shape;
  int32_t type = oi::kFloat;
  if (a.name == "value") {
    nc.setOutput(0, fromTensor(nc, *a.t));
    return success();
  }
  if (a.name == "value_float") {
    d.f = {a.f};
  } else if (a.name == "value_floats") {
    d.f = a.floats;
    shape = {int64_t(a.floats.size())};
  } else if (a.name == "value_int") {
    d.isFloat = false;
    d.i = {a.i};
    type = oi::kInt64;
  } else {
    d.isFloat = false;
    d.i = a.ints;
    shape = {int64_t(a.ints.size())};
    type = oi::kInt64;
  }
  nc.setOutput(0, nc.constant(std::move(d), shape, type));
  return success();
}

LogicalResult lowerConstantOfShape(NodeContext &nc) {
  auto shape = nc.constInts(0, "the shape");
  if (failed(shape))
    return failure();
  for (int64_t d : *shape)
    if (d < 0)
      return nc.error() << "a dimension is negative";
  ConstData d;
  int32_t type = oi::kFloat;
  double value = 0;
  if (const OnnxAttr *a = nc.attr("value")) {
    if (!a->t || (a->t->floats.size() + a->t->ints.size()) != 1)
      return nc.error() << "value must be a one-element tensor";
    type = a->t->type;
    d.isFloat = !a->t->floats.empty();
    value = d.isFloat ? a->t->floats[0] : double(a->t->ints[0]);
  }
  int64_t n = product(*shape);
  if (n > (int64_t(1) << 26))
    return nc.error() << "the constant has " << n
                      << " elements, more than fuel folds";
  if (d.isFloat)
    d.f.assign(n, float(value));
  else
    d.i.assign(n, int64_t(value));
  nc.setOutput(
      0, nc.constant(std::move(d),
                     SmallVector<int64_t>(shape->begin(), shape->end()), type));
  return success();
}

LogicalResult lowerCast(NodeContext &nc) {
  const OnnxValue &x = nc.input(0);
  int32_t to = nc.getInt("to", 0);
  if (!importableType(to))
    return nc.unsupported(Twine("casts to ") +
                          ::fuel::onnx_import::dataTypeName(to));
  if (x.type == to) {
    nc.setOutput(0, x);
    return success();
  }
  if (!x.isConst() || x.value)
    return nc.unsupported(Twine("a cast from ") +
                          ::fuel::onnx_import::dataTypeName(x.type) + " to " +
                          ::fuel::onnx_import::dataTypeName(to) +
                          " of a tensor not known at import time");
  bool toFloat = to == oi::kFloat || to == oi::kDouble || to == oi::kFloat16;
  ConstData d;
  d.isFloat = toFloat;
  for (int64_t k = 0; k < x.data->size(); ++k) {
    double v = x.data->at(k);
    if (toFloat)
      d.f.push_back(float(v));
    else if (to == oi::kBool)
      d.i.push_back(v != 0);
    else if (x.data->isFloat)
      d.i.push_back(std::isfinite(v) ? int64_t(std::trunc(v)) : 0);
    else
      d.i.push_back(x.data->i[k]);
  }
  nc.setOutput(0, nc.constant(std::move(d), x.shape, to));
  return success();
}

LogicalResult lowerIdentity(NodeContext &nc) {
  nc.setOutput(0, nc.input(0));
  return success();
}

} // namespace

void mlir::fuel::onnx::registerShapeOps(std::vector<OpEntry> &table) {
  table.push_back({"Reshape", lowerReshape});
  table.push_back({"Flatten", lowerFlatten});
  table.push_back({"Squeeze", lowerSqueeze});
  table.push_back({"Unsqueeze", lowerUnsqueeze});
  table.push_back({"Transpose", lowerTranspose});
  table.push_back({"Concat", lowerConcat});
  table.push_back({"Split", lowerSplit});
  table.push_back({"Slice", lowerSlice});
  table.push_back({"Gather", lowerGather});
  table.push_back({"Expand", lowerExpand});
  table.push_back({"Shape", lowerShape});
  table.push_back({"Size", lowerSize});
  table.push_back({"Constant", lowerConstant, checkConstant});
  table.push_back({"ConstantOfShape", lowerConstantOfShape});
  table.push_back({"Cast", lowerCast});
  table.push_back({"Identity", lowerIdentity});
}
