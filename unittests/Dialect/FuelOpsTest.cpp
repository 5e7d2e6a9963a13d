//===- FuelOpsTest.cpp - Building and verifying fuel ops ------------------===//
//
// Builds nodes and copies from C++ and checks the verifier, including the
// linear-time node id uniqueness check on a 100,000-node function.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuel;

namespace {

class FuelOpsTest : public ::testing::Test {
protected:
  FuelOpsTest() {
    ctx.loadDialect<FuelDialect, func::FuncDialect, arith::ArithDialect>();
  }

  /// Builds `func @chain(%x)` with `n` elementwise nodes in a chain; node i
  /// gets id `ids(i)`.
  OwningOpRef<ModuleOp> buildChain(int64_t n,
                                   function_ref<int64_t(int64_t)> ids) {
    OpBuilder b(&ctx);
    Location loc = b.getUnknownLoc();
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    auto type = RankedTensorType::get({4}, b.getF32Type());
    auto fn = func::FuncOp::create(b, loc, "chain",
                                   b.getFunctionType({type}, {type}));
    Block *entry = fn.addEntryBlock();
    b.setInsertionPointToEnd(entry);
    Value v = entry->getArgument(0);
    for (int64_t i = 0; i < n; ++i) {
      auto node = NodeOp::create(b, loc, TypeRange{type}, ValueRange{v}, ids(i),
                                 OpKind::elementwise);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(&node.getBodyBlock());
      Value arg = node.getBodyBlock().getArgument(0);
      Value neg = arith::NegFOp::create(b, loc, arg);
      YieldOp::create(b, loc, ValueRange{neg});
      v = node.getResult(0);
    }
    func::ReturnOp::create(b, loc, v);
    return module;
  }

  MLIRContext ctx;
};

TEST_F(FuelOpsTest, BuiltNodeVerifies) {
  OwningOpRef<ModuleOp> module = buildChain(3, [](int64_t i) { return i; });
  EXPECT_TRUE(succeeded(verify(*module)));
  auto fn = cast<func::FuncOp>(module->getBody()->front());
  auto node = cast<NodeOp>(fn.getBody().front().front());
  EXPECT_EQ(node.getId(), 0);
  EXPECT_EQ(node.getKind(), OpKind::elementwise);
  EXPECT_TRUE(node.getYield());
  EXPECT_FALSE(node.getDecision());
  EXPECT_FALSE(node.getPlacementAttr());
  node.setPlacementAttr(DeviceAttr::get(&ctx, DeviceKind::cuda, 2));
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(FuelOpsTest, DuplicateIdIsRejected) {
  OwningOpRef<ModuleOp> module =
      buildChain(5, [](int64_t i) { return i == 4 ? 1 : i; });
  std::string message;
  ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &d) {
    if (message.empty())
      message = d.str();
    return success();
  });
  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_EQ(message, "'fuel.node' op id 1 is not unique within its function");
}

// At 100k nodes a per-node scan of the block would take 10^10 steps; the
// once-per-function check takes one pass. This test completes in well under
// a second with the linear check and would not finish with a quadratic one.
TEST_F(FuelOpsTest, HundredThousandNodesVerify) {
  constexpr int64_t n = 100'000;
  OwningOpRef<ModuleOp> ok = buildChain(n, [](int64_t i) { return i; });
  EXPECT_TRUE(succeeded(verify(*ok)));

  OwningOpRef<ModuleOp> bad =
      buildChain(n, [](int64_t i) { return i == n - 1 ? 0 : i; });
  unsigned errors = 0;
  ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return success();
  });
  EXPECT_TRUE(failed(verify(*bad)));
  EXPECT_EQ(errors, 1u);
}

TEST_F(FuelOpsTest, CopyBetweenDevices) {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto type = RankedTensorType::get({4}, b.getF32Type());
  auto fn =
      func::FuncOp::create(b, loc, "copy", b.getFunctionType({type}, {type}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  DeviceAttr cpu = DeviceAttr::getHost(&ctx);
  auto copy = CopyOp::create(b, loc, entry->getArgument(0), cpu,
                             DeviceAttr::get(&ctx, DeviceKind::vulkan, 0));
  func::ReturnOp::create(b, loc, copy.getResult());
  EXPECT_EQ(copy.getResult().getType(), type);
  EXPECT_TRUE(succeeded(verify(*module)));

  copy.setToAttr(cpu);
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(verify(*module)));
}

} // namespace
