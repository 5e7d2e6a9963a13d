//===- CostModelTest.cpp - Tests of the per-op-kind cost functions --------===//
//
// Known values of every cost function, saturation, and the property that
// every cost function is monotone non-decreasing in every dimension (random
// shapes from a fixed seed).
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/CostModel.h"

#include <gtest/gtest.h>

#include <random>

using namespace fuel;
using namespace fuel::target;
using plan::OpKind;

namespace {

StaticCost eval(llvm::StringRef fn, llvm::ArrayRef<uint64_t> dims,
                llvm::StringRef function = "", uint64_t elementBytes = 4) {
  CostQuery q;
  q.dims.assign(dims.begin(), dims.end());
  q.function = function.str();
  q.elementBytes = elementBytes;
  llvm::Expected<StaticCost> c = evaluateCost(fn, q);
  EXPECT_TRUE(bool(c)) << llvm::toString(c.takeError());
  return c ? *c : StaticCost();
}

TEST(CostModel, OneFunctionPerOpKind) {
  ASSERT_EQ(allCostFunctions().size(), plan::kAllOpKinds.size());
  for (OpKind kind : plan::kAllOpKinds) {
    const CostFunctionInfo *info =
        lookupCostFunction(plan::stringifyOpKind(kind));
    ASSERT_NE(info, nullptr) << plan::stringifyOpKind(kind);
    EXPECT_EQ(info->kind, kind);
    EXPECT_FALSE(costDimensionNames(kind).empty());
  }
  EXPECT_EQ(lookupCostFunction("gemm"), nullptr);
}

TEST(CostModel, KnownValues) {
  // matmul: 2·M·N·K flops, (M·K + K·N + M·N)·elt bytes.
  EXPECT_EQ(eval("matmul", {2, 3, 5}), (StaticCost{60, (10 + 15 + 6) * 4}));
  EXPECT_EQ(eval("batch_matmul", {7, 2, 3, 5}),
            (StaticCost{420, 7 * (10 + 15 + 6) * 4}));
  // conv2d, stride 1: input (OH+KH-1)·(OW+KW-1).
  // N=1 OH=4 OW=4 OC=8 IC=3 KH=3 KW=3: flops 2·1·4·4·8·3·3·3.
  EXPECT_EQ(eval("conv2d", {1, 4, 4, 8, 3, 3, 3}),
            (StaticCost{2 * 16 * 8 * 27,
                        (1 * 6 * 6 * 3 + 8 * 3 * 3 * 3 + 16 * 8) * 4}));
  // pool: window ops per output; avg adds one divide.
  EXPECT_EQ(eval("pool", {10, 9, 40}, "max"), (StaticCost{90, 50 * 4}));
  EXPECT_EQ(eval("pool", {10, 9, 40}, "avg"), (StaticCost{100, 50 * 4}));
  // reduce: one combiner op per input element; mean divides each result.
  EXPECT_EQ(eval("reduce", {6, 100}, "add"), (StaticCost{600, 606 * 4}));
  EXPECT_EQ(eval("reduce", {6, 100}, "mean"), (StaticCost{606, 606 * 4}));
  EXPECT_EQ(eval("reduce", {6, 100}, "argmax"), (StaticCost{1200, 606 * 4}));
  // softmax: max, sub, exp (8), sum, div = 12 per element; read + write.
  EXPECT_EQ(eval("softmax", {4, 10}), (StaticCost{480, 80 * 4}));
  // elementwise: per-function flops × output elements.
  EXPECT_EQ(eval("elementwise", {100, 200}, "add"), (StaticCost{100, 1200}));
  EXPECT_EQ(eval("elementwise", {100, 100}, "exp"), (StaticCost{800, 800}));
  EXPECT_EQ(eval("elementwise", {100, 300}, "fma"), (StaticCost{200, 1600}));
  EXPECT_EQ(eval("elementwise", {100, 100}, "copy"), (StaticCost{0, 800}));
  // transpose: no flops, read + write.
  EXPECT_EQ(eval("transpose", {1000}, "", 2), (StaticCost{0, 4000}));
  // generic: iterations × ops per iteration.
  EXPECT_EQ(eval("generic", {50, 3, 100, 50}), (StaticCost{150, 600}));
}

TEST(CostModel, ConvStridesAndDilations) {
  CostQuery q;
  q.dims = {1, 4, 4, 1, 1, 3, 3};
  q.strideH = 2;
  q.dilationW = 2;
  // IH = 3·2 + 2·1 + 1 = 9, IW = 3·1 + 2·2 + 1 = 8.
  llvm::Expected<StaticCost> c = evaluateCost("conv2d", q);
  ASSERT_TRUE(bool(c));
  EXPECT_EQ(c->bytes, (9 * 8 + 9 + 16) * 4u);
}

TEST(CostModel, Saturates) {
  EXPECT_EQ(eval("matmul", {1ull << 40, 1ull << 40, 1ull << 40}).flops,
            UINT64_MAX);
  EXPECT_EQ(eval("transpose", {UINT64_MAX}).bytes, UINT64_MAX);
}

TEST(CostModel, RejectsBadQueries) {
  CostQuery q;
  q.dims = {1, 2};
  llvm::Expected<StaticCost> c = evaluateCost("matmul", q);
  ASSERT_FALSE(bool(c));
  EXPECT_EQ(llvm::toString(c.takeError()),
            "cost function 'matmul' takes 3 dimensions, got 2");
  llvm::Expected<StaticCost> d = evaluateCost("gemm", q);
  ASSERT_FALSE(bool(d));
  EXPECT_EQ(llvm::toString(d.takeError()), "unknown cost function 'gemm'");
}

/// A dimension value from a 64-bit random word: mostly small, sometimes up to
/// 2^40, sometimes 0 or 1 (our own mapping, not a std distribution, so the
/// sequence is the same with every standard library).
uint64_t dimFrom(uint64_t word) {
  switch (word & 7) {
  case 0:
    return 0;
  case 1:
    return 1;
  case 2:
    return (word >> 3) % (1ull << 40);
  default:
    return (word >> 3) % 4097;
  }
}

TEST(CostModel, MonotoneInEveryDimension) {
  std::mt19937_64 rng(0x5eed'f0e1);
  const char *functions[] = {"",     "add",    "exp",  "max", "avg",
                             "mean", "argmax", "copy", "fma", "gelu"};
  for (const CostFunctionInfo &info : allCostFunctions()) {
    for (int trial = 0; trial < 2000; ++trial) {
      CostQuery q;
      for (size_t i = 0; i < info.dims.size(); ++i)
        q.dims.push_back(dimFrom(rng()));
      q.elementBytes = 1ull << (rng() % 4);
      q.function = functions[rng() % std::size(functions)];
      q.strideH = 1 + rng() % 3;
      q.strideW = 1 + rng() % 3;
      q.dilationH = 1 + rng() % 2;
      q.dilationW = 1 + rng() % 2;
      StaticCost base = info.evaluate(q);
      for (size_t i = 0; i < q.dims.size(); ++i) {
        CostQuery bigger = q;
        uint64_t step = 1 + rng() % 1000;
        bigger.dims[i] =
            q.dims[i] > UINT64_MAX - step ? UINT64_MAX : q.dims[i] + step;
        StaticCost grown = info.evaluate(bigger);
        EXPECT_LE(base.flops, grown.flops)
            << info.name.str() << " flops not monotone in "
            << info.dims[i].str();
        EXPECT_LE(base.bytes, grown.bytes)
            << info.name.str() << " bytes not monotone in "
            << info.dims[i].str();
      }
      // More bytes per element never costs less.
      CostQuery wider = q;
      wider.elementBytes *= 2;
      EXPECT_LE(base.bytes, info.evaluate(wider).bytes) << info.name.str();
    }
  }
}

} // namespace
