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
#include "OnnxNodeContext.h"

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

/// x^y without a libm call (the kernels link none): small integer constant
/// exponents as products, otherwise exp(y·log|x|) with numpy's signs: a
/// negative base gives a negative result for an odd integer exponent and NaN
/// for a non-integer one; 0^0 is 1.
Value powPayload(OpBuilder &b, Location l, Value x, Value y) {
  Type t = x.getType();
  if (auto c = y.getDefiningOp<arith::ConstantOp>()) {
    double e = cast<FloatAttr>(c.getValue()).getValueAsDouble();
    if (e == 0.5)
      return math::SqrtOp::create(b, l, x);
    if (e == std::trunc(e) && std::fabs(e) <= 4 && e != 0) {
      Value r = x;
      for (int k = 1; k < int(std::fabs(e)); ++k)
        r = arith::MulFOp::create(b, l, r, x);
      return e > 0 ? r : arith::DivFOp::create(b, l, scalar(b, l, t, 1.0), r);
    }
  }
  Value ax = math::AbsFOp::create(b, l, x);
  Value lg = math::LogOp::create(b, l, ax);
  Value mag = math::ExpOp::create(b, l, arith::MulFOp::create(b, l, y, lg));
  // Integrality and parity of y through i32 (|y| < 2^31 where it matters).
  Type i32 = b.getI32Type();
  Value yi = arith::FPToSIOp::create(b, l, i32, y);
  Value back = arith::SIToFPOp::create(b, l, t, yi);
  Value integral =
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, back, y);
  Value one32 = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(1));
  Value odd = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ne, arith::AndIOp::create(b, l, yi, one32),
      arith::ConstantOp::create(b, l, b.getI32IntegerAttr(0)));
  Value neg = arith::NegFOp::create(b, l, mag);
  Value negBase = arith::SelectOp::create(
      b, l, integral, arith::SelectOp::create(b, l, odd, neg, mag).getResult(),
      scalar(b, l, t, std::nan("")));
  Value isNeg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x,
                                      scalar(b, l, t, 0.0));
  Value r = arith::SelectOp::create(b, l, isNeg, negBase, mag);
  Value yZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, y,
                                      scalar(b, l, t, 0.0));
  return arith::SelectOp::create(b, l, yZero, scalar(b, l, t, 1.0), r);
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
       return powPayload(b, l, a[0], a[1]);
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
  // Pow's exponent may have another type: a constant one is read as f32.
  OnnxValue exponent;
  if (op.arity == 2 && StringRef(op.name) == "Pow" &&
      ins[1]->type != ins[0]->type && ins[0]->type == oi::kFloat) {
    if (!ins[1]->isConst() || ins[1]->value)
      return nc.unsupported(Twine("an exponent of type ") +
                            oi::dataTypeName(ins[1]->type) +
                            " not known at import time");
    ConstData f;
    for (int64_t k = 0; k < ins[1]->data->size(); ++k)
      f.f.push_back(float(ins[1]->data->at(k)));
    exponent = nc.constant(std::move(f), ins[1]->shape, oi::kFloat);
    exponent.name = nc.node.inputs[1] + ".f32";
    ins[1] = &exponent;
  }
  for (unsigned i = 1; i < op.arity; ++i)
    if (ins[i]->type != ins[0]->type)
      return nc.unsupported(Twine("inputs of different types (") +
                            oi::dataTypeName(ins[0]->type) + " and " +
                            oi::dataTypeName(ins[i]->type) + ")");
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
  // Kernels take f32 operands: a constant condition becomes a 0/1 f32 mask.
  if (!c.isConst() || c.value)
    return nc.unsupported("a BOOL condition not known at import time");
  ConstData m;
  for (int64_t v : c.data->i)
    m.f.push_back(v ? 1.0f : 0.0f);
  OnnxValue mask = nc.constant(std::move(m), c.shape, oi::kFloat);
  mask.name = nc.node.inputs[0] + ".mask";
  Value r = nc.elementwise(
      {&mask, &x, &y}, *shape, nc.b.getF32Type(),
      [](OpBuilder &b, Location l, ArrayRef<Value> a) -> Value {
        Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
        Value pick =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::ONE, a[0], zero);
        return arith::SelectOp::create(b, l, pick, a[1], a[2]);
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
