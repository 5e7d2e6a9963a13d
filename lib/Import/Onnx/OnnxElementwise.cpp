//===- OnnxElementwise.cpp - ONNX elementwise ops -------------------------===//
//
// Unary and binary elementwise ops, Where and the Erf-based GELU, each one
// linalg.generic over the ONNX (numpy) broadcast of its inputs, so that
// fuel-form-nodes classifies it `elementwise` (SEMANTICS §4). Inputs known at
// import time are folded: the op is evaluated here, on float data and on the
// integer data of shape arithmetic.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fuel::onnx;
namespace oi = ::fuel::onnx_import;

namespace {

/// A scalar of `type` with value `v` inside a payload.
Value scalar(OpBuilder &b, Location loc, Type type, double v) {
  return arith::ConstantOp::create(b, loc, FloatAttr::get(type, v)).getResult();
}

/// One elementwise ONNX op: its float evaluation for folding, its integer
/// evaluation (when shape arithmetic uses it) and its payload.
struct ElementwiseOp {
  const char *name;
  unsigned arity;
  double (*evalF)(double, double, float alpha);
  int64_t (*evalI)(int64_t, int64_t);
  Value (*payload)(OpBuilder &, Location, ArrayRef<Value>, float alpha);
};

Value sigmoidPayload(OpBuilder &b, Location l, ArrayRef<Value> a, float) {
  Type t = a[0].getType();
  Value neg = arith::NegFOp::create(b, l, a[0]);
  Value e = math::ExpOp::create(b, l, neg);
  Value one = scalar(b, l, t, 1.0);
  Value d = arith::AddFOp::create(b, l, one, e);
  return arith::DivFOp::create(b, l, one, d);
}

const ElementwiseOp kOps[] = {
    {"Add", 2, [](double a, double b, float) { return a + b; },
     [](int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); },
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return arith::AddFOp::create(b, l, a[0], a[1]);
     }},
    {"Sub", 2, [](double a, double b, float) { return a - b; },
     [](int64_t a, int64_t b) { return int64_t(uint64_t(a) - uint64_t(b)); },
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return arith::SubFOp::create(b, l, a[0], a[1]);
     }},
    {"Mul", 2, [](double a, double b, float) { return a * b; },
     [](int64_t a, int64_t b) { return int64_t(uint64_t(a) * uint64_t(b)); },
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return arith::MulFOp::create(b, l, a[0], a[1]);
     }},
    {"Div", 2, [](double a, double b, float) { return a / b; },
     [](int64_t a, int64_t b) {
       // ONNX integer division truncates; a zero divisor is left at 0.
       return b == 0 || (a == INT64_MIN && b == -1) ? int64_t(0) : a / b;
     },
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return arith::DivFOp::create(b, l, a[0], a[1]);
     }},
    {"Pow", 2, [](double a, double b, float) { return std::pow(a, b); },
     nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return math::PowFOp::create(b, l, a[0], a[1]);
     }},
    {"Neg", 1, [](double a, double, float) { return -a; },
     [](int64_t a, int64_t) { return int64_t(0 - uint64_t(a)); },
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return arith::NegFOp::create(b, l, a[0]);
     }},
    {"Abs", 1, [](double a, double, float) { return std::fabs(a); },
     [](int64_t a, int64_t) { return a < 0 ? int64_t(0 - uint64_t(a)) : a; },
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return math::AbsFOp::create(b, l, a[0]);
     }},
    {"Relu", 1, [](double a, double, float) { return a < 0 ? 0.0 : a; },
     nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return arith::MaximumFOp::create(b, l, a[0],
                                        scalar(b, l, a[0].getType(), 0.0));
     }},
    {"LeakyRelu", 1,
     [](double a, double, float alpha) { return a < 0 ? a * alpha : a; },
     nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float alpha) -> Value {
       Type t = a[0].getType();
       Value neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, a[0],
                                         scalar(b, l, t, 0.0));
       Value scaled = arith::MulFOp::create(b, l, a[0], scalar(b, l, t, alpha));
       return arith::SelectOp::create(b, l, neg, scaled, a[0]);
     }},
    {"Sigmoid", 1,
     [](double a, double, float) { return 1.0 / (1.0 + std::exp(-a)); },
     nullptr, sigmoidPayload},
    {"Tanh", 1, [](double a, double, float) { return std::tanh(a); }, nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return math::TanhOp::create(b, l, a[0]);
     }},
    {"Exp", 1, [](double a, double, float) { return std::exp(a); }, nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return math::ExpOp::create(b, l, a[0]);
     }},
    {"Log", 1, [](double a, double, float) { return std::log(a); }, nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return math::LogOp::create(b, l, a[0]);
     }},
    {"Sqrt", 1, [](double a, double, float) { return std::sqrt(a); }, nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return math::SqrtOp::create(b, l, a[0]);
     }},
    {"Reciprocal", 1, [](double a, double, float) { return 1.0 / a; }, nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return arith::DivFOp::create(b, l, scalar(b, l, a[0].getType(), 1.0),
                                    a[0]);
     }},
    {"Erf", 1, [](double a, double, float) { return std::erf(a); }, nullptr,
     [](OpBuilder &b, Location l, ArrayRef<Value> a, float) -> Value {
       return math::ErfOp::create(b, l, a[0]);
     }},
};

const ElementwiseOp *findOp(StringRef name) {
  for (const ElementwiseOp &op : kOps)
    if (name == op.name)
      return &op;
  return nullptr;
}

/// The flat index into an input of shape `in` for output index `k` of the
/// broadcast `out`.
int64_t broadcastSource(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                        ArrayRef<int64_t> outStrides, int64_t k) {
  int64_t off = out.size() - in.size(), src = 0, stride = 1;
  for (int64_t j = int64_t(in.size()) - 1; j >= 0; --j) {
    int64_t idx = (k / outStrides[off + j]) % out[off + j];
    if (in[j] != 1)
      src += idx * stride;
    stride *= in[j];
  }
  return src;
}

/// Folds an op whose inputs are all constants.
OnnxValue fold(NodeContext &nc, const ElementwiseOp &op,
               ArrayRef<const OnnxValue *> ins, ArrayRef<int64_t> shape,
               float alpha) {
  SmallVector<int64_t> strides = stridesOf(shape);
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  ConstData out;
  out.isFloat = ins[0]->data->isFloat;
  for (int64_t k = 0; k < n; ++k) {
    int64_t a = broadcastSource(ins[0]->shape, shape, strides, k);
    int64_t b =
        ins.size() > 1 ? broadcastSource(ins[1]->shape, shape, strides, k) : 0;
    if (out.isFloat)
      out.f.push_back(
          float(op.evalF(ins[0]->data->at(a),
                         ins.size() > 1 ? ins[1]->data->at(b) : 0.0, alpha)));
    else
      out.i.push_back(op.evalI(ins[0]->data->i[a],
                               ins.size() > 1 ? ins[1]->data->i[b] : 0));
  }
  return nc.constant(std::move(out), shape, ins[0]->type);
}

LogicalResult lowerElementwise(NodeContext &nc) {
  const ElementwiseOp &op = *findOp(nc.node.opType);
  if (nc.numInputs() != op.arity)
    return nc.error() << "expects " << op.arity << " inputs";
  SmallVector<const OnnxValue *> ins;
  SmallVector<SmallVector<int64_t>> shapes;
  bool allConst = true;
  for (unsigned i = 0; i < op.arity; ++i) {
    ins.push_back(&nc.input(i));
    shapes.push_back(ins.back()->shape);
    allConst &= ins.back()->isConst();
  }
  for (unsigned i = 1; i < op.arity; ++i)
    if (ins[i]->type != ins[0]->type)
      return nc.error() << "input types differ ("
                        << oi::dataTypeName(ins[0]->type) << " and "
                        << oi::dataTypeName(ins[i]->type) << ")";
  auto shape = broadcastShapes(shapes);
  if (!shape) {
    auto d = nc.error() << "input shapes do not broadcast:";
    for (const auto &s : shapes) {
      d << " [";
      llvm::interleaveComma(s, d);
      d << "]";
    }
    return d;
  }
  float alpha = nc.getFloat("alpha", 0.01f);
  bool isFloat = ins[0]->type == oi::kFloat || ins[0]->type == oi::kDouble;
  if (allConst && (isFloat ? op.evalF != nullptr : op.evalI != nullptr) &&
      ins[0]->data->isFloat == isFloat) {
    nc.setOutput(0, fold(nc, op, ins, *shape, alpha));
    return success();
  }
  if (ins[0]->type != oi::kFloat)
    return nc.requireFloat(0);
  auto payload = op.payload;
  Value r = nc.elementwise(ins, *shape, nc.b.getF32Type(),
                           [&](OpBuilder &b, Location l, ArrayRef<Value> a) {
                             return payload(b, l, a, alpha);
                           });
  nc.setOutput(0, nc.runtime(r, oi::kFloat));
  return success();
}

LogicalResult lowerWhere(NodeContext &nc) {
  if (nc.numInputs() != 3)
    return nc.error() << "expects 3 inputs";
  const OnnxValue &c = nc.input(0), &x = nc.input(1), &y = nc.input(2);
  if (c.type != oi::kBool)
    return nc.error() << "the condition is not BOOL";
  auto shape = broadcastShapes({c.shape, x.shape, y.shape});
  if (!shape)
    return nc.error() << "input shapes do not broadcast";
  if (c.isConst() && x.isConst() && y.isConst() &&
      x.data->isFloat == y.data->isFloat) {
    SmallVector<int64_t> strides = stridesOf(*shape);
    int64_t n = 1;
    for (int64_t d : *shape)
      n *= d;
    ConstData out;
    out.isFloat = x.data->isFloat;
    for (int64_t k = 0; k < n; ++k) {
      bool pick = c.data->i[broadcastSource(c.shape, *shape, strides, k)];
      const OnnxValue &s = pick ? x : y;
      int64_t at = broadcastSource(s.shape, *shape, strides, k);
      if (out.isFloat)
        out.f.push_back(s.data->f[at]);
      else
        out.i.push_back(s.data->i[at]);
    }
    nc.setOutput(0, nc.constant(std::move(out), *shape, x.type));
    return success();
  }
  if (failed(nc.requireFloat(1)) || failed(nc.requireFloat(2)))
    return failure();
  Value r =
      nc.elementwise({&c, &x, &y}, *shape, nc.b.getF32Type(),
                     [](OpBuilder &b, Location l, ArrayRef<Value> a) -> Value {
                       return arith::SelectOp::create(b, l, a[0], a[1], a[2]);
                     });
  nc.setOutput(0, nc.runtime(r, oi::kFloat));
  return success();
}

} // namespace

Value mlir::fuel::onnx::buildGelu(NodeContext &nc, const OnnxValue &x) {
  return nc.elementwise(
      {&x}, x.shape, nc.b.getF32Type(),
      [](OpBuilder &b, Location l, ArrayRef<Value> a) -> Value {
        Type t = a[0].getType();
        Value s = arith::MulFOp::create(b, l, a[0],
                                        scalar(b, l, t, 0.7071067811865476));
        Value e = math::ErfOp::create(b, l, s);
        Value one = arith::AddFOp::create(b, l, e, scalar(b, l, t, 1.0));
        Value h = arith::MulFOp::create(b, l, a[0], scalar(b, l, t, 0.5));
        return arith::MulFOp::create(b, l, h, one);
      });
}

void mlir::fuel::onnx::registerElementwiseOps(std::vector<OpEntry> &table) {
  for (const ElementwiseOp &op : kOps)
    table.push_back({op.name, lowerElementwise});
  table.push_back({"Where", lowerWhere});
}
