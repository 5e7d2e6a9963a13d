//===- OnnxReduce.cpp - ONNX reductions -----------------------------------===//
//
// ReduceSum, ReduceMean and ReduceMax: one linalg.generic with reduction
// iterators (op kind `reduce`, SEMANTICS §4), then for the mean one
// elementwise division, and for keepdims=1 an expand_shape view. ReduceSum
// (opset 13) reads its axes from its second input, which must be known at
// import time; the others from the `axes` attribute.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "OnnxNodeContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::fuel::onnx;
namespace oi = ::fuel::onnx_import;

namespace {

LogicalResult lowerReduce(NodeContext &nc) {
  StringRef op = nc.node.opType;
  const OnnxValue &x = nc.input(0);
  int64_t rank = x.shape.size();
  std::vector<int64_t> axes;
  if (op == "ReduceSum") {
    if (nc.hasInput(1)) {
      auto a = nc.constInts(1, "axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  } else if (auto a = nc.getInts("axes")) {
    axes = *a;
  }
  bool keep = nc.getInt("keepdims", 1) != 0;
  if (axes.empty()) {
    if (nc.getInt("noop_with_empty_axes", 0)) {
      nc.setOutput(0, x);
      return success();
    }
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  SmallVector<int64_t> norm;
  for (int64_t a : axes) {
    auto n = normalizeAxis(a, rank);
    if (!n)
      return nc.error() << "axis " << a << " is outside the input's rank "
                        << rank;
    norm.push_back(*n);
  }
  llvm::sort(norm);
  norm.erase(std::unique(norm.begin(), norm.end()), norm.end());
  if (failed(nc.requireFloat(0)))
    return failure();
  int64_t count = 1;
  for (int64_t a : norm)
    count *= x.shape[a];
  bool isMax = op == "ReduceMax";
  Value r =
      nc.reduce(nc.materialize(x), norm,
                isMax ? -std::numeric_limits<float>::infinity() : 0.0f,
                [isMax](OpBuilder &b, Location l, Value acc, Value v) -> Value {
                  if (isMax)
                    return arith::MaximumFOp::create(b, l, acc, v);
                  return arith::AddFOp::create(b, l, acc, v);
                });
  if (op == "ReduceMean") {
    OnnxValue rv = nc.runtime(r, oi::kFloat);
    r = nc.elementwise(
        {&rv}, rv.shape, nc.b.getF32Type(),
        [count](OpBuilder &b, Location l, ArrayRef<Value> a) {
          Value c =
              arith::ConstantOp::create(b, l, b.getF32FloatAttr(float(count)));
          return arith::DivFOp::create(b, l, a[0], c).getResult();
        });
  }
  if (keep) {
    SmallVector<int64_t> kept(x.shape);
    for (int64_t a : norm)
      kept[a] = 1;
    r = nc.reshape(r, kept);
  }
  nc.setOutput(0, nc.runtime(r, oi::kFloat));
  return success();
}

} // namespace

void mlir::fuel::onnx::registerReduceOps(std::vector<OpEntry> &table) {
  table.push_back({"ReduceSum", lowerReduce});
  table.push_back({"ReduceMean", lowerReduce});
  table.push_back({"ReduceMax", lowerReduce});
}
