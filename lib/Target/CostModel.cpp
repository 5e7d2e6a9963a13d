//===- CostModel.cpp - Per-op-kind static cost functions ------------------===//
//
// One cost function per op kind (SEMANTICS §4), each returning the flops and
// bytes of a single invocation. Counting conventions (docs/KERNELS.md):
//   - an FMA is 2 flops, a comparison, add or divide is 1, a transcendental is
//     8 (a range reduction plus a short polynomial);
//   - bytes are the compulsory traffic: every operand read once, the result
//     written once. Re-reads a real kernel makes are the business of the
//     record's memory efficiency, not of the formula.
// All arithmetic saturates at UINT64_MAX, so huge shapes order correctly
// instead of wrapping, and every formula is a product/sum of non-decreasing
// terms, hence monotone in every dimension.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/CostModel.h"

#include "fuel/Planner/Numbers.h"

#include "llvm/ADT/StringSwitch.h"

#include <initializer_list>

namespace fuel::target {

using plan::OpKind;

/// Saturating product of several factors (plan::satMulU folded).
static uint64_t mul(std::initializer_list<uint64_t> factors) {
  uint64_t r = 1;
  for (uint64_t f : factors)
    r = plan::satMulU(r, f);
  return r;
}

/// Saturating sum of several terms (plan::satAddU folded).
static uint64_t add(std::initializer_list<uint64_t> terms) {
  uint64_t r = 0;
  for (uint64_t t : terms)
    r = plan::satAddU(r, t);
  return r;
}

/// Flops of a transcendental function per element.
static constexpr uint64_t kTranscendentalFlops = 8;

uint64_t elementwiseFlopsPerElement(llvm::StringRef function) {
  return llvm::StringSwitch<uint64_t>(function)
      // Data movement and casts that only rename bits.
      .Cases({"copy", "identity", "broadcast", "bitcast"}, 0)
      // Two flops: one FMA, or a clamp's two comparisons.
      .Cases({"fma", "clamp", "square_add"}, 2)
      // Transcendentals: range reduction plus a polynomial.
      .Cases({"exp", "exp2", "expm1", "log", "log2", "log1p", "tanh"},
             kTranscendentalFlops)
      .Cases({"sin", "cos", "erf", "pow", "atan", "atan2"},
             kTranscendentalFlops)
      // sigmoid = 1 / (1 + exp(-x)): exp plus neg, add, div.
      .Case("sigmoid", kTranscendentalFlops + 3)
      // silu = x * sigmoid(x).
      .Case("silu", kTranscendentalFlops + 4)
      // gelu (tanh form): tanh plus seven multiplies and adds.
      .Case("gelu", kTranscendentalFlops + 7)
      // Everything else — add, sub, mul, div, max, min, neg, abs, relu,
      // compare, select, sqrt, rsqrt, casts, logic — is one operation.
      .Default(1);
}

/// Flops per input element of a reduce combiner.
static uint64_t combinerFlops(llvm::StringRef combiner) {
  // argmax/argmin compare and then move the index.
  return llvm::StringSwitch<uint64_t>(combiner)
      .Cases({"argmax", "argmin"}, 2)
      .Default(1);
}

static StaticCost matmulCost(const CostQuery &q) {
  uint64_t m = q.dims[0], n = q.dims[1], k = q.dims[2];
  return {mul({2, m, n, k}),
          mul({add({mul({m, k}), mul({k, n}), mul({m, n})}), q.elementBytes})};
}

static StaticCost batchMatmulCost(const CostQuery &q) {
  uint64_t b = q.dims[0], m = q.dims[1], n = q.dims[2], k = q.dims[3];
  return {
      mul({2, b, m, n, k}),
      mul({b, add({mul({m, k}), mul({k, n}), mul({m, n})}), q.elementBytes})};
}

/// Input extent along one spatial axis that `out` outputs of a window of
/// `window` taps need: (out - 1)·stride + (window - 1)·dilation + 1.
static uint64_t inputExtent(uint64_t out, uint64_t window, uint64_t stride,
                            uint64_t dilation) {
  if (out == 0)
    return 0;
  stride = stride ? stride : 1;
  dilation = dilation ? dilation : 1;
  uint64_t reach = window == 0 ? 0 : mul({window - 1, dilation});
  return add({mul({out - 1, stride}), reach, 1});
}

static StaticCost conv2dCost(const CostQuery &q) {
  uint64_t n = q.dims[0], oh = q.dims[1], ow = q.dims[2], oc = q.dims[3],
           ic = q.dims[4], kh = q.dims[5], kw = q.dims[6];
  uint64_t ih = inputExtent(oh, kh, q.strideH, q.dilationH);
  uint64_t iw = inputExtent(ow, kw, q.strideW, q.dilationW);
  uint64_t input = mul({n, ih, iw, ic});
  uint64_t filter = mul({oc, ic, kh, kw});
  uint64_t output = mul({n, oh, ow, oc});
  return {mul({2, n, oh, ow, oc, ic, kh, kw}),
          mul({add({input, filter, output}), q.elementBytes})};
}

static StaticCost poolCost(const CostQuery &q) {
  uint64_t out = q.dims[0], window = q.dims[1], in = q.dims[2];
  // One compare or add per window element; an average divides once more.
  uint64_t perOutput = window;
  if (q.function == "avg" || q.function == "mean")
    perOutput = add({window, 1});
  return {mul({out, perOutput}), mul({add({in, out}), q.elementBytes})};
}

static StaticCost reduceCost(const CostQuery &q) {
  uint64_t kept = q.dims[0], extent = q.dims[1];
  uint64_t in = mul({kept, extent});
  uint64_t flops = mul({in, combinerFlops(q.function)});
  // A mean divides each result once.
  if (q.function == "mean")
    flops = add({flops, kept});
  return {flops, mul({add({in, kept}), q.elementBytes})};
}

static StaticCost softmaxCost(const CostQuery &q) {
  uint64_t elements = mul({q.dims[0], q.dims[1]});
  // max, subtract, exp, sum, divide per element.
  uint64_t perElement = 4 + kTranscendentalFlops;
  return {mul({elements, perElement}), mul({2, elements, q.elementBytes})};
}

static StaticCost elementwiseCost(const CostQuery &q) {
  uint64_t out = q.dims[0], in = q.dims[1];
  return {mul({out, elementwiseFlopsPerElement(q.function)}),
          mul({add({in, out}), q.elementBytes})};
}

static StaticCost transposeCost(const CostQuery &q) {
  return {0, mul({2, q.dims[0], q.elementBytes})};
}

static StaticCost genericCost(const CostQuery &q) {
  uint64_t iterations = q.dims[0], ops = q.dims[1], in = q.dims[2],
           out = q.dims[3];
  return {mul({iterations, ops}), mul({add({in, out}), q.elementBytes})};
}

static constexpr llvm::StringLiteral kMatmulDims[] = {"M", "N", "K"};
static constexpr llvm::StringLiteral kBatchMatmulDims[] = {"B", "M", "N", "K"};
static constexpr llvm::StringLiteral kConv2dDims[] = {"N",  "OH", "OW", "OC",
                                                      "IC", "KH", "KW"};
static constexpr llvm::StringLiteral kPoolDims[] = {"output_elements", "window",
                                                    "input_elements"};
static constexpr llvm::StringLiteral kReduceDims[] = {"kept_elements",
                                                      "reduced_extent"};
static constexpr llvm::StringLiteral kSoftmaxDims[] = {"outer", "axis_extent"};
static constexpr llvm::StringLiteral kElementwiseDims[] = {"output_elements",
                                                           "input_elements"};
static constexpr llvm::StringLiteral kTransposeDims[] = {"elements"};
static constexpr llvm::StringLiteral kGenericDims[] = {
    "iterations", "ops_per_iteration", "input_elements", "output_elements"};

static const CostFunctionInfo kCostFunctions[] = {
    {"matmul", OpKind::Matmul, kMatmulDims, matmulCost},
    {"batch_matmul", OpKind::BatchMatmul, kBatchMatmulDims, batchMatmulCost},
    {"conv2d", OpKind::Conv2d, kConv2dDims, conv2dCost},
    {"pool", OpKind::Pool, kPoolDims, poolCost},
    {"reduce", OpKind::Reduce, kReduceDims, reduceCost},
    {"softmax", OpKind::Softmax, kSoftmaxDims, softmaxCost},
    {"elementwise", OpKind::Elementwise, kElementwiseDims, elementwiseCost},
    {"transpose", OpKind::Transpose, kTransposeDims, transposeCost},
    {"generic", OpKind::Generic, kGenericDims, genericCost},
};

llvm::ArrayRef<CostFunctionInfo> allCostFunctions() { return kCostFunctions; }

const CostFunctionInfo *lookupCostFunction(llvm::StringRef name) {
  for (const CostFunctionInfo &info : kCostFunctions)
    if (info.name == name)
      return &info;
  return nullptr;
}

llvm::ArrayRef<llvm::StringLiteral> costDimensionNames(OpKind kind) {
  for (const CostFunctionInfo &info : kCostFunctions)
    if (info.kind == kind)
      return info.dims;
  return {};
}

llvm::Expected<StaticCost> evaluateCost(llvm::StringRef name,
                                        const CostQuery &query) {
  const CostFunctionInfo *info = lookupCostFunction(name);
  if (!info)
    return llvm::createStringError("unknown cost function '" + name + "'");
  if (query.dims.size() != info->dims.size())
    return llvm::createStringError(
        "cost function '" + name + "' takes " + llvm::Twine(info->dims.size()) +
        " dimensions, got " + llvm::Twine(query.dims.size()));
  return info->evaluate(query);
}

} // namespace fuel::target
