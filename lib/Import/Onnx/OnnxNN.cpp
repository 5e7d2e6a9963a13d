//===- OnnxNN.cpp - ONNX contractions, convolutions, pools, norms ---------===//
//
// MatMul and Gemm (linalg.matmul / linalg.batch_matmul, then one elementwise
// generic for alpha, beta and the bias), Softmax (linalg.softmax) and
// LogSoftmax, LayerNormalization and BatchNormalization (reductions and
// elementwise generics), Conv (linalg.conv_2d_nchw_fchw on a tensor.pad,
// groups as slices and a tensor.concat), MaxPool and AveragePool
// (linalg.pooling_nchw_max / _sum) and GlobalAveragePool. Each becomes ops
// fuel-form-nodes classifies as matmul, batch_matmul, conv2d, pool, softmax,
// reduce or elementwise (SEMANTICS §4).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "OnnxGeometry.h"
#include "OnnxNodeContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::fuel::onnx;
namespace oi = ::fuel::onnx_import;
using oi::Window;

namespace {

int64_t product(ArrayRef<int64_t> xs) {
  int64_t n = 1;
  for (int64_t x : xs)
    n *= x;
  return n;
}

Value f32(OpBuilder &b, Location l, double v) {
  return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v)).getResult();
}

/// C = A·B for A [M, K] and B [K, N], into a zero-filled destination.
Value matmul2d(NodeContext &nc, Value a, Value b, int64_t m, int64_t n) {
  Value init = nc.filled({m, n}, 0.0f);
  return linalg::MatmulOp::create(nc.b, nc.loc, TypeRange{init.getType()},
                                  ValueRange{a, b}, ValueRange{init})
      .getResult(0);
}

/// `y` (f32) combined by `OpTy` with `other`, broadcast into `shape`.
template <typename OpTy>
Value combine(NodeContext &nc, Value y, const OnnxValue &other,
              ArrayRef<int64_t> shape) {
  OnnxValue yv = nc.runtime(y, oi::kFloat);
  return nc.elementwise({&yv, &other}, shape, nc.b.getF32Type(),
                        [](OpBuilder &b, Location l, ArrayRef<Value> a) {
                          return OpTy::create(b, l, a[0], a[1]).getResult();
                        });
}

/// A 2-D transpose of `v`: folded for a constant, else linalg.transpose.
OnnxValue transpose2d(NodeContext &nc, const OnnxValue &v) {
  int64_t r = v.shape[0], c = v.shape[1];
  if (v.isConst() && !v.value) {
    OnnxValue t = nc.remapConst(v, {c, r},
                                [&](int64_t k) { return (k % r) * c + k / r; });
    t.name = v.name.empty() ? "" : v.name + ".T";
    return t;
  }
  return nc.runtime(nc.transpose(nc.materialize(v), {1, 0}), v.type);
}

LogicalResult lowerMatMul(NodeContext &nc) {
  if (failed(nc.requireFloat(0)) || failed(nc.requireFloat(1)))
    return failure();
  OnnxValue a = nc.input(0), b = nc.input(1);
  if (a.shape.empty() || b.shape.empty())
    return nc.error() << "inputs must have rank 1 or more";
  bool aVec = a.shape.size() == 1, bVec = b.shape.size() == 1;
  if (aVec)
    a = nc.reshaped(a, {1, a.shape[0]});
  if (bVec)
    b = nc.reshaped(b, {b.shape[0], 1});
  int64_t ra = a.shape.size(), rb = b.shape.size();
  int64_t m = a.shape[ra - 2], k = a.shape[ra - 1], n = b.shape[rb - 1];
  if (b.shape[rb - 2] != k)
    return nc.error() << "inner dimensions differ (" << k << " and "
                      << b.shape[rb - 2] << ")";
  SmallVector<int64_t> batchA(a.shape.begin(), a.shape.end() - 2);
  SmallVector<int64_t> batchB(b.shape.begin(), b.shape.end() - 2);
  auto batch = broadcastShapes({batchA, batchB});
  if (!batch)
    return nc.error() << "batch dimensions do not broadcast";
  SmallVector<int64_t> outShape(*batch);
  outShape.append({m, n});
  Value r;
  if (batch->empty()) {
    r = matmul2d(nc, nc.materialize(a), nc.materialize(b), m, n);
  } else if (batchB.empty()) {
    // [..., M, K] x [K, N]: one matmul over the flattened rows.
    int64_t rows = product(*batch) * m;
    Value a2 = nc.reshape(nc.materialize(a), {rows, k});
    r = nc.reshape(matmul2d(nc, a2, nc.materialize(b), rows, n), outShape);
  } else {
    int64_t p = product(*batch);
    SmallVector<int64_t> fullA(*batch), fullB(*batch);
    fullA.append({m, k});
    fullB.append({k, n});
    Value a3 = nc.reshape(nc.broadcastTo(a, fullA), {p, m, k});
    Value b3 = nc.reshape(nc.broadcastTo(b, fullB), {p, k, n});
    Value init = nc.filled({p, m, n}, 0.0f);
    Value mm =
        linalg::BatchMatmulOp::create(nc.b, nc.loc, TypeRange{init.getType()},
                                      ValueRange{a3, b3}, ValueRange{init})
            .getResult(0);
    r = nc.reshape(mm, outShape);
  }
  SmallVector<int64_t> finalShape(*batch);
  if (!aVec)
    finalShape.push_back(m);
  if (!bVec)
    finalShape.push_back(n);
  nc.setOutput(0, nc.runtime(nc.reshape(r, finalShape), oi::kFloat));
  return success();
}

LogicalResult lowerGemm(NodeContext &nc) {
  for (unsigned i = 0; i < nc.numInputs(); ++i)
    if (nc.hasInput(i) && failed(nc.requireFloat(i)))
      return failure();
  OnnxValue a = nc.input(0), b = nc.input(1);
  if (a.shape.size() != 2 || b.shape.size() != 2)
    return nc.error() << "A and B must be matrices";
  if (nc.getInt("transA", 0))
    a = transpose2d(nc, a);
  if (nc.getInt("transB", 0))
    b = transpose2d(nc, b);
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  if (b.shape[0] != k)
    return nc.error() << "inner dimensions differ (" << k << " and "
                      << b.shape[0] << ")";
  float alpha = nc.getFloat("alpha", 1.0f), beta = nc.getFloat("beta", 1.0f);
  Value y = matmul2d(nc, nc.materialize(a), nc.materialize(b), m, n);
  bool bias = nc.hasInput(2) && beta != 0.0f;
  if (!bias && alpha == 1.0f) {
    nc.setOutput(0, nc.runtime(y, oi::kFloat));
    return success();
  }
  // alpha·(A·B) + beta·C in one elementwise generic.
  OnnxValue yv = nc.runtime(y, oi::kFloat);
  SmallVector<const OnnxValue *> ins = {&yv};
  if (bias) {
    const OnnxValue &c = nc.input(2);
    auto shape = broadcastShapes({c.shape, {m, n}});
    if (!shape || *shape != SmallVector<int64_t>{m, n})
      return nc.error() << "C does not broadcast to [" << m << ", " << n << "]";
    ins.push_back(&c);
  }
  Value r = nc.elementwise(
      ins, {m, n}, nc.b.getF32Type(),
      [&](OpBuilder &bb, Location l, ArrayRef<Value> v) -> Value {
        Value acc = v[0];
        if (alpha != 1.0f)
          acc = arith::MulFOp::create(bb, l, acc, f32(bb, l, alpha));
        if (v.size() > 1) {
          Value c = v[1];
          if (beta != 1.0f)
            c = arith::MulFOp::create(bb, l, c, f32(bb, l, beta));
          acc = arith::AddFOp::create(bb, l, acc, c);
        }
        return acc;
      });
  nc.setOutput(0, nc.runtime(r, oi::kFloat));
  return success();
}

/// The kept-dimension shape of `shape` reduced over `axes`.
SmallVector<int64_t> keptShape(ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> axes) {
  SmallVector<int64_t> s(shape);
  for (int64_t a : axes)
    s[a] = 1;
  return s;
}

Value addF(OpBuilder &b, Location l, Value acc, Value x) {
  return arith::AddFOp::create(b, l, acc, x);
}

LogicalResult lowerSoftmax(NodeContext &nc) {
  if (failed(nc.requireFloat(0)))
    return failure();
  const OnnxValue &x = nc.input(0);
  FailureOr<int64_t> axis = nc.getAxis(-1, x.shape.size());
  if (failed(axis))
    return failure();
  Value in = nc.materialize(x);
  if (nc.node.opType == "Softmax") {
    Value init = nc.emptyTensor(x.shape, nc.b.getF32Type());
    Value r = linalg::SoftmaxOp::create(nc.b, nc.loc, TypeRange{init.getType()},
                                        in, init, uint64_t(*axis))
                  .getResult()[0];
    nc.setOutput(0, nc.runtime(r, oi::kFloat));
    return success();
  }
  // LogSoftmax: x - max - log(sum(exp(x - max))).
  float ninf = -std::numeric_limits<float>::infinity();
  Value mx = nc.reduce(
      in, {*axis}, ninf, [](OpBuilder &b, Location l, Value acc, Value v) {
        return arith::MaximumFOp::create(b, l, acc, v).getResult();
      });
  SmallVector<int64_t> kept = keptShape(x.shape, {*axis});
  OnnxValue mxK = nc.runtime(nc.reshape(mx, kept), oi::kFloat);
  OnnxValue shifted = nc.runtime(
      nc.elementwise(
          {&x, &mxK}, x.shape, nc.b.getF32Type(),
          [](OpBuilder &b, Location l, ArrayRef<Value> a) {
            return arith::SubFOp::create(b, l, a[0], a[1]).getResult();
          }),
      oi::kFloat);
  Value sum = nc.reduce(shifted.value, {*axis}, 0.0f,
                        [](OpBuilder &b, Location l, Value acc, Value v) {
                          Value e = math::ExpOp::create(b, l, v);
                          return addF(b, l, acc, e);
                        });
  OnnxValue sumK = nc.runtime(nc.reshape(sum, kept), oi::kFloat);
  Value r =
      nc.elementwise({&shifted, &sumK}, x.shape, nc.b.getF32Type(),
                     [](OpBuilder &b, Location l, ArrayRef<Value> a) {
                       Value lg = math::LogOp::create(b, l, a[1]);
                       return arith::SubFOp::create(b, l, a[0], lg).getResult();
                     });
  nc.setOutput(0, nc.runtime(r, oi::kFloat));
  return success();
}

LogicalResult lowerLayerNorm(NodeContext &nc) {
  for (unsigned i = 0; i < nc.numInputs(); ++i)
    if (nc.hasInput(i) && failed(nc.requireFloat(i)))
      return failure();
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size();
  FailureOr<int64_t> axis = nc.getAxis(-1, rank);
  if (failed(axis))
    return failure();
  float eps = nc.getFloat("epsilon", 1e-5f);
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  SmallVector<int64_t> normShape(x.shape.begin() + *axis, x.shape.end());
  for (unsigned i = 1; i < nc.numInputs(); ++i) {
    if (!nc.hasInput(i))
      continue;
    auto s = broadcastShapes({nc.input(i).shape, normShape});
    if (!s || *s != normShape)
      return nc.error() << "scale and bias must broadcast to the normalised "
                           "dimensions";
  }
  double count = double(product(normShape));
  SmallVector<int64_t> kept = keptShape(x.shape, axes);
  Value in = nc.materialize(x);
  Value s = nc.reduce(in, axes, 0.0f, addF);
  OnnxValue sK = nc.runtime(nc.reshape(s, kept), oi::kFloat);
  OnnxValue d = nc.runtime(
      nc.elementwise(
          {&x, &sK}, x.shape, nc.b.getF32Type(),
          [&](OpBuilder &b, Location l, ArrayRef<Value> a) {
            Value mean = arith::DivFOp::create(b, l, a[1], f32(b, l, count));
            return arith::SubFOp::create(b, l, a[0], mean).getResult();
          }),
      oi::kFloat);
  Value q = nc.reduce(d.value, axes, 0.0f,
                      [](OpBuilder &b, Location l, Value acc, Value v) {
                        Value sq = arith::MulFOp::create(b, l, v, v);
                        return addF(b, l, acc, sq);
                      });
  OnnxValue qK = nc.runtime(nc.reshape(q, kept), oi::kFloat);
  auto invStd = [&](OpBuilder &b, Location l, Value sumSq) -> Value {
    Value var = arith::DivFOp::create(b, l, sumSq, f32(b, l, count));
    Value ve = arith::AddFOp::create(b, l, var, f32(b, l, eps));
    return math::RsqrtOp::create(b, l, ve);
  };
  SmallVector<const OnnxValue *> ins = {&d, &qK, &nc.input(1)};
  bool hasBias = nc.hasInput(2);
  if (hasBias)
    ins.push_back(&nc.input(2));
  Value y = nc.elementwise(
      ins, x.shape, nc.b.getF32Type(),
      [&](OpBuilder &b, Location l, ArrayRef<Value> a) -> Value {
        Value nv = arith::MulFOp::create(b, l, a[0], invStd(b, l, a[1]));
        Value r = arith::MulFOp::create(b, l, nv, a[2]);
        if (hasBias)
          r = arith::AddFOp::create(b, l, r, a[3]);
        return r;
      });
  nc.setOutput(0, nc.runtime(y, oi::kFloat));
  if (nc.wantsOutput(1))
    nc.setOutput(1, nc.runtime(nc.elementwise({&sK}, kept, nc.b.getF32Type(),
                                              [&](OpBuilder &b, Location l,
                                                  ArrayRef<Value> a) -> Value {
                                                return arith::DivFOp::create(
                                                    b, l, a[0],
                                                    f32(b, l, count));
                                              }),
                               oi::kFloat));
  if (nc.wantsOutput(2))
    nc.setOutput(2, nc.runtime(nc.elementwise({&qK}, kept, nc.b.getF32Type(),
                                              [&](OpBuilder &b, Location l,
                                                  ArrayRef<Value> a) {
                                                return invStd(b, l, a[0]);
                                              }),
                               oi::kFloat));
  return success();
}

std::string checkBatchNorm(const Node &n) {
  const OnnxAttr *t = findAttribute(n, "training_mode");
  if (t && t->i != 0)
    return "training_mode=1 is not supported (inference only)";
  if (n.outputs.size() > 1)
    return "the running mean and variance outputs are not supported";
  return "";
}

LogicalResult lowerBatchNorm(NodeContext &nc) {
  for (unsigned i = 0; i < 5; ++i)
    if (failed(nc.requireFloat(i)))
      return failure();
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size();
  if (rank < 2)
    return nc.error() << "the input must have rank 2 or more";
  int64_t c = x.shape[1];
  float eps = nc.getFloat("epsilon", 1e-5f);
  SmallVector<int64_t> pshape(rank - 1, 1);
  pshape[0] = c;
  SmallVector<OnnxValue> params;
  bool allConst = true;
  for (unsigned i = 1; i < 5; ++i) {
    const OnnxValue &p = nc.input(i);
    if (p.numElements() != c || p.shape.size() != 1)
      return nc.error() << "input " << i << " must have shape [" << c << "]";
    allConst &= p.isConst() && !p.value;
    params.push_back(nc.reshaped(p, pshape));
  }
  Value y;
  if (allConst) {
    // Folded: y = x·a + b with a = scale/sqrt(var+eps), b = B - mean·a.
    ConstData a, bb;
    for (int64_t k = 0; k < c; ++k) {
      double s = params[0].data->at(k) / std::sqrt(params[3].data->at(k) + eps);
      a.f.push_back(float(s));
      bb.f.push_back(float(params[1].data->at(k) - params[2].data->at(k) * s));
    }
    OnnxValue av = nc.constant(std::move(a), pshape, oi::kFloat);
    OnnxValue bv = nc.constant(std::move(bb), pshape, oi::kFloat);
    av.name = nc.node.inputs[1] + ".scale";
    bv.name = nc.node.inputs[2] + ".shift";
    y = nc.elementwise(
        {&x, &av, &bv}, x.shape, nc.b.getF32Type(),
        [](OpBuilder &b, Location l, ArrayRef<Value> v) {
          Value m = arith::MulFOp::create(b, l, v[0], v[1]);
          return arith::AddFOp::create(b, l, m, v[2]).getResult();
        });
  } else {
    y = nc.elementwise(
        {&x, &params[0], &params[1], &params[2], &params[3]}, x.shape,
        nc.b.getF32Type(),
        [&](OpBuilder &b, Location l, ArrayRef<Value> v) -> Value {
          Value d = arith::SubFOp::create(b, l, v[0], v[3]);
          Value ve = arith::AddFOp::create(b, l, v[4], f32(b, l, eps));
          Value rs = math::RsqrtOp::create(b, l, ve);
          Value n = arith::MulFOp::create(b, l, d, rs);
          Value sc = arith::MulFOp::create(b, l, n, v[1]);
          return arith::AddFOp::create(b, l, sc, v[2]);
        });
  }
  nc.setOutput(0, nc.runtime(y, oi::kFloat));
  return success();
}

/// Reads kernel_shape, strides, dilations, pads and auto_pad for the
/// spatial dimensions `inSpatial` and computes each window (OnnxGeometry.h).
LogicalResult windows(NodeContext &nc, ArrayRef<int64_t> inSpatial,
                      ArrayRef<int64_t> kernel, bool ceilMode,
                      SmallVector<Window> &out) {
  size_t s = inSpatial.size();
  auto strides = nc.getInts("strides").value_or(std::vector<int64_t>(s, 1));
  auto dil = nc.getInts("dilations").value_or(std::vector<int64_t>(s, 1));
  auto pads = nc.getInts("pads").value_or(std::vector<int64_t>(2 * s, 0));
  std::string autoPad = nc.getString("auto_pad", "NOTSET");
  if (strides.size() != s || dil.size() != s || pads.size() != 2 * s)
    return nc.error() << "strides, dilations and pads must have one entry "
                         "per spatial dimension (pads two)";
  for (size_t i = 0; i < s; ++i) {
    Window w;
    w.in = inSpatial[i];
    w.kernel = kernel[i];
    w.stride = strides[i];
    w.dilation = dil[i];
    w.padBegin = pads[i];
    w.padEnd = pads[i + s];
    std::string err = computeWindow(w, autoPad, ceilMode);
    if (!err.empty())
      return nc.error() << err;
    out.push_back(w);
  }
  return success();
}

/// `x` [N, C, H, W] padded with `value` by the windows' padding.
Value padSpatial(NodeContext &nc, Value x, ArrayRef<Window> ws, float value) {
  auto type = cast<RankedTensorType>(x.getType());
  bool any = false;
  SmallVector<OpFoldResult> low = {nc.b.getIndexAttr(0), nc.b.getIndexAttr(0)};
  SmallVector<OpFoldResult> high = low;
  SmallVector<int64_t> shape = {type.getDimSize(0), type.getDimSize(1)};
  for (const Window &w : ws) {
    low.push_back(nc.b.getIndexAttr(w.padBegin));
    high.push_back(nc.b.getIndexAttr(w.padEnd + w.extraEnd));
    shape.push_back(w.in + w.padBegin + w.padEnd + w.extraEnd);
    any |= w.padBegin || w.padEnd || w.extraEnd;
  }
  if (!any)
    return x;
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::PadOp::create(nc.b, nc.loc, resultType, x, low, high,
                               f32(nc.b, nc.loc, value))
      .getResult();
}

DenseIntElementsAttr i64Pair(NodeContext &nc, int64_t a, int64_t b) {
  return DenseIntElementsAttr::get(
      RankedTensorType::get({2}, nc.b.getI64Type()), ArrayRef<int64_t>{a, b});
}

std::string checkConv(const Node &n) {
  const OnnxAttr *k = findAttribute(n, "kernel_shape");
  if (k && k->ints.size() > 2)
    return "only 1-D and 2-D convolutions are supported";
  return "";
}

LogicalResult lowerConv(NodeContext &nc) {
  for (unsigned i = 0; i < nc.numInputs(); ++i)
    if (nc.hasInput(i) && failed(nc.requireFloat(i)))
      return failure();
  OnnxValue x = nc.input(0), w = nc.input(1);
  int64_t rank = x.shape.size();
  if ((rank != 3 && rank != 4) || int64_t(w.shape.size()) != rank)
    return nc.unsupported("only 1-D and 2-D convolutions (inputs of rank 3 "
                          "or 4) are supported");
  bool oneD = rank == 3;
  if (oneD) {
    x = nc.reshaped(x, {x.shape[0], x.shape[1], 1, x.shape[2]});
    w = nc.reshaped(w, {w.shape[0], w.shape[1], 1, w.shape[2]});
  }
  int64_t n = x.shape[0], c = x.shape[1], m = w.shape[0], cg = w.shape[1];
  int64_t group = nc.getInt("group", 1);
  if (group < 1 || c % group || m % group || c / group != cg)
    return nc.error() << "channels (" << c << " in, " << m
                      << " out) do not fit group " << group
                      << " and the weight's " << cg << " channels per group";
  std::vector<int64_t> kernel = {w.shape[2], w.shape[3]};
  if (auto ks = nc.getInts("kernel_shape")) {
    std::vector<int64_t> want = oneD ? std::vector<int64_t>{1, (*ks)[0]} : *ks;
    if (ks->size() != size_t(rank - 2) || want != kernel)
      return nc.error() << "kernel_shape does not match the weight's shape";
  }
  // 1-D attributes apply to the W dimension; H gets the identity window.
  SmallVector<Window> ws;
  {
    SmallVector<int64_t> spatial = {x.shape[2], x.shape[3]};
    if (oneD) {
      SmallVector<Window> one;
      if (failed(windows(nc, {x.shape[3]}, {kernel[1]}, false, one)))
        return failure();
      Window h;
      h.in = 1;
      h.kernel = 1;
      h.out = 1;
      ws = {h, one[0]};
    } else if (failed(windows(nc, spatial, kernel, false, ws))) {
      return failure();
    }
  }
  Value xin = padSpatial(nc, nc.materialize(x), ws, 0.0f);
  int64_t oh = ws[0].out, ow = ws[1].out, mg = m / group;
  auto conv = [&](Value in, Value filt, int64_t outC) {
    Value init = nc.filled({n, outC, oh, ow}, 0.0f);
    return linalg::Conv2DNchwFchwOp::create(
               nc.b, nc.loc, TypeRange{init.getType()}, ValueRange{in, filt},
               ValueRange{init}, i64Pair(nc, ws[0].stride, ws[1].stride),
               i64Pair(nc, ws[0].dilation, ws[1].dilation))
        .getResult(0);
  };
  Value y;
  if (group == 1) {
    y = conv(xin, nc.materialize(w), m);
  } else {
    auto inShape = cast<RankedTensorType>(xin.getType()).getShape();
    SmallVector<Value> parts;
    for (int64_t g = 0; g < group; ++g) {
      Value xs = nc.slice(xin, {0, g * cg, 0, 0},
                          {n, cg, inShape[2], inShape[3]}, {1, 1, 1, 1});
      Value wsl;
      if (w.isConst() && !w.value) {
        int64_t per = cg * kernel[0] * kernel[1];
        OnnxValue part =
            nc.remapConst(w, {mg, cg, kernel[0], kernel[1]},
                          [&](int64_t k) { return g * mg * per + k; });
        part.name = w.name + ".group" + std::to_string(g);
        wsl = nc.materialize(part);
      } else {
        wsl = nc.slice(nc.materialize(w), {g * mg, 0, 0, 0},
                       {mg, cg, kernel[0], kernel[1]}, {1, 1, 1, 1});
      }
      parts.push_back(conv(xs, wsl, mg));
    }
    y = tensor::ConcatOp::create(nc.b, nc.loc, 1, parts).getResult();
  }
  if (nc.hasInput(2)) {
    const OnnxValue &bias = nc.input(2);
    if (bias.shape.size() != 1 || bias.shape[0] != m)
      return nc.error() << "the bias must have shape [" << m << "]";
    y = combine<arith::AddFOp>(nc, y, nc.reshaped(bias, {m, 1, 1}),
                               {n, m, oh, ow});
  }
  if (oneD)
    y = nc.reshape(y, {n, m, ow});
  nc.setOutput(0, nc.runtime(y, oi::kFloat));
  return success();
}

std::string checkPool(const Node &n) {
  if (n.opType == "MaxPool" && n.outputs.size() > 1 && !n.outputs[1].empty())
    return "the Indices output is not supported";
  const OnnxAttr *so = findAttribute(n, "storage_order");
  if (so && so->i != 0)
    return "storage_order=1 is not supported";
  const OnnxAttr *k = findAttribute(n, "kernel_shape");
  if (!k)
    return "kernel_shape is required";
  if (k->ints.empty() || k->ints.size() > 2)
    return "only 1-D and 2-D pooling is supported";
  return "";
}

LogicalResult lowerPool(NodeContext &nc) {
  if (failed(nc.requireFloat(0)))
    return failure();
  bool isMax = nc.node.opType == "MaxPool";
  OnnxValue x = nc.input(0);
  std::vector<int64_t> kernel = *nc.getInts("kernel_shape");
  int64_t rank = x.shape.size();
  if (rank != int64_t(kernel.size()) + 2)
    return nc.error() << "kernel_shape has " << kernel.size()
                      << " entries for an input of rank " << rank;
  bool oneD = rank == 3;
  bool ceilMode = nc.getInt("ceil_mode", 0) != 0;
  SmallVector<Window> ws;
  if (oneD) {
    x = nc.reshaped(x, {x.shape[0], x.shape[1], 1, x.shape[2]});
    SmallVector<Window> one;
    if (failed(windows(nc, {x.shape[3]}, kernel, ceilMode, one)))
      return failure();
    Window h;
    h.in = 1;
    h.kernel = 1;
    h.out = 1;
    ws = {h, one[0]};
  } else if (failed(
                 windows(nc, {x.shape[2], x.shape[3]}, kernel, ceilMode, ws))) {
    return failure();
  }
  float ninf = -std::numeric_limits<float>::infinity();
  Value xin = padSpatial(nc, nc.materialize(x), ws, isMax ? ninf : 0.0f);
  int64_t n = x.shape[0], c = x.shape[1], oh = ws[0].out, ow = ws[1].out;
  Value init = nc.filled({n, c, oh, ow}, isMax ? ninf : 0.0f);
  Value window =
      nc.emptyTensor({ws[0].kernel, ws[1].kernel}, nc.b.getF32Type());
  SmallVector<NamedAttribute> attrs = {
      nc.b.getNamedAttr("strides", i64Pair(nc, ws[0].stride, ws[1].stride)),
      nc.b.getNamedAttr("dilations",
                        i64Pair(nc, ws[0].dilation, ws[1].dilation))};
  Value y;
  if (isMax) {
    y = linalg::PoolingNchwMaxOp::create(
            nc.b, nc.loc, TypeRange{init.getType()}, ValueRange{xin, window},
            ValueRange{init}, attrs)
            .getResult(0);
  } else {
    y = linalg::PoolingNchwSumOp::create(
            nc.b, nc.loc, TypeRange{init.getType()}, ValueRange{xin, window},
            ValueRange{init}, attrs)
            .getResult(0);
    // The divisor of every output position: the window's elements inside
    // the input (count_include_pad=0) or inside the padded input without
    // ceil_mode's extra padding (count_include_pad=1).
    bool includePad = nc.getInt("count_include_pad", 0) != 0;
    std::vector<int64_t> ch = averagePoolCounts(ws[0], includePad);
    std::vector<int64_t> cw = averagePoolCounts(ws[1], includePad);
    ConstData div;
    for (int64_t a : ch)
      for (int64_t bb : cw)
        div.f.push_back(float(a * bb));
    OnnxValue dv = nc.constant(std::move(div), {oh, ow}, oi::kFloat);
    dv.name = nc.node.outputs[0] + ".divisor";
    y = combine<arith::DivFOp>(nc, y, dv, {n, c, oh, ow});
  }
  if (oneD)
    y = nc.reshape(y, {n, c, ow});
  nc.setOutput(0, nc.runtime(y, oi::kFloat));
  return success();
}

LogicalResult lowerGlobalAveragePool(NodeContext &nc) {
  if (failed(nc.requireFloat(0)))
    return failure();
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size();
  if (rank < 3)
    return nc.error() << "the input must have rank 3 or more";
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  double count = double(product(ArrayRef<int64_t>(x.shape).drop_front(2)));
  Value s = nc.reduce(nc.materialize(x), axes, 0.0f, addF);
  OnnxValue sv = nc.runtime(s, oi::kFloat);
  Value mean = nc.elementwise(
      {&sv}, {x.shape[0], x.shape[1]}, nc.b.getF32Type(),
      [&](OpBuilder &b, Location l, ArrayRef<Value> a) {
        return arith::DivFOp::create(b, l, a[0], f32(b, l, count)).getResult();
      });
  nc.setOutput(
      0, nc.runtime(nc.reshape(mean, keptShape(x.shape, axes)), oi::kFloat));
  return success();
}

} // namespace

void mlir::fuel::onnx::registerNNOps(std::vector<OpEntry> &table) {
  table.push_back({"MatMul", lowerMatMul});
  table.push_back({"Gemm", lowerGemm});
  table.push_back({"Softmax", lowerSoftmax});
  table.push_back({"LogSoftmax", lowerSoftmax});
  table.push_back({"LayerNormalization", lowerLayerNorm});
  table.push_back({"BatchNormalization", lowerBatchNorm, checkBatchNorm});
  table.push_back({"Conv", lowerConv, checkConv});
  table.push_back({"MaxPool", lowerPool, checkPool});
  table.push_back({"AveragePool", lowerPool, checkPool});
  table.push_back({"GlobalAveragePool", lowerGlobalAveragePool});
}
