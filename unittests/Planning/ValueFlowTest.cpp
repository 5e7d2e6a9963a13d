//===- ValueFlowTest.cpp - The value-flow model of a function -------------===//
//
// Parses a small planned function and checks what collectFlow reports: the
// kind of every op, the roots with where they live, and every read with its
// device and the views and copies on its way (SEMANTICS §4, §5).
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/ValueFlow.h"

#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

namespace {

/// One op of each kind: a load-time constant read through a view by a node
/// on cuda:0, an argument on cuda:0 read there and by a host op through a
/// copy, a scalar argument, and two returned results.
constexpr const char *kProgram = R"mlir(
module attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none">} {
  func.func private @host(tensor<8xf32>) -> tensor<8xf32>
  func.func @f(%x: tensor<8xf32> {fuel.residency = #fuel.device<cuda:0>}, %s: f32)
      -> (tensor<4xf32> {fuel.residency = #fuel.device<cuda:0>}, tensor<8xf32>) {
    %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %v = tensor.extract_slice %w[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %c = fuel.copy %x : tensor<8xf32> from cuda:0 to cpu
    %h = func.call @host(%c) : (tensor<8xf32>) -> tensor<8xf32>
    %n = fuel.node 0 elementwise (%v, %x, %s) : (tensor<4xf32>, tensor<8xf32>, f32) -> tensor<4xf32> on cuda:0 {
    ^bb0(%a: tensor<4xf32>, %b: tensor<8xf32>, %t: f32):
      fuel.yield %a : tensor<4xf32>
    }
    return %n, %h : tensor<4xf32>, tensor<8xf32>
  }
}
)mlir";

class ValueFlowTest : public ::testing::Test {
protected:
  ValueFlowTest() {
    ctx.loadDialect<FuelDialect, func::FuncDialect, arith::ArithDialect,
                    tensor::TensorDialect>();
    module = parseSourceString<ModuleOp>(kProgram, &ctx);
    func = module ? module->lookupSymbol<func::FuncOp>("f") : nullptr;
  }

  /// The top-level ops of @f, in program order.
  SmallVector<Operation *> ops() {
    SmallVector<Operation *> out;
    for (Operation &op : func.getBody().front())
      out.push_back(&op);
    return out;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
};

TEST_F(ValueFlowTest, ClassifiesEveryOp) {
  ASSERT_TRUE(func);
  ValueFlow flow = collectFlow(func);
  SmallVector<Operation *> all = ops();
  ASSERT_EQ(all.size(), 6u);
  const FlowOpKind expected[] = {FlowOpKind::Constant, FlowOpKind::View,
                                 FlowOpKind::Copy,     FlowOpKind::Host,
                                 FlowOpKind::Node,     FlowOpKind::Return};
  for (auto [op, kind] : llvm::zip(all, expected)) {
    EXPECT_EQ(classifyFlowOp(op), kind) << op->getName().getStringRef().str();
    EXPECT_EQ(flow.kinds.lookup(op), kind);
  }
  ASSERT_EQ(flow.nodes.size(), 1u);
  EXPECT_EQ(flow.nodes.front().getOperation(), all[4]);
}

TEST_F(ValueFlowTest, ListsRootsWhereTheyLive) {
  ASSERT_TRUE(func);
  ValueFlow flow = collectFlow(func);
  SmallVector<Operation *> all = ops();
  Block &body = func.getBody().front();
  // The scalar argument travels by value: no root.
  ASSERT_EQ(flow.roots.size(), 4u);
  EXPECT_EQ(flow.lookup(body.getArgument(1)), nullptr);

  const FlowRoot &x = flow.roots[0];
  EXPECT_EQ(x.value, body.getArgument(0));
  EXPECT_EQ(x.kind, RootKind::Argument);
  EXPECT_EQ(x.device, plan::Device::cuda(0));
  EXPECT_EQ(x.bytes, 32u);

  const FlowRoot &w = flow.roots[1];
  EXPECT_EQ(w.value, all[0]->getResult(0));
  EXPECT_EQ(w.kind, RootKind::Constant);
  EXPECT_FALSE(w.device.has_value()); // load-time: on each reading device

  const FlowRoot &h = flow.roots[2];
  EXPECT_EQ(h.kind, RootKind::Host);
  EXPECT_EQ(h.device, plan::Device::cpu());

  const FlowRoot &n = flow.roots[3];
  EXPECT_EQ(n.kind, RootKind::Node);
  EXPECT_EQ(NodeOp(n.node).getOperation(), all[4]);
  EXPECT_EQ(n.device, plan::Device::cuda(0));

  // Views and copies are no roots.
  EXPECT_EQ(flow.lookup(all[1]->getResult(0)), nullptr);
  EXPECT_EQ(flow.lookup(all[2]->getResult(0)), nullptr);
}

TEST_F(ValueFlowTest, ListsReadsWithDeviceAndChain) {
  ASSERT_TRUE(func);
  ValueFlow flow = collectFlow(func);
  SmallVector<Operation *> all = ops();
  // Program order: the call's operand, the node's two tensor operands (its
  // scalar is no read), then the return's two.
  ASSERT_EQ(flow.readers.size(), 5u);

  const FlowReader &call = flow.readers[0];
  EXPECT_EQ(call.reader, FlowOpKind::Host);
  EXPECT_EQ(call.root, 0u); // x, through the copy
  EXPECT_EQ(call.device, plan::Device::cpu());
  ASSERT_EQ(call.chain.size(), 1u);
  EXPECT_EQ(call.chain.front(), all[2]);

  const FlowReader &slice = flow.readers[1];
  EXPECT_EQ(slice.reader, FlowOpKind::Node);
  EXPECT_EQ(NodeOp(slice.node).getOperation(), all[4]);
  EXPECT_EQ(slice.root, 1u); // w, through the view
  EXPECT_EQ(slice.device, plan::Device::cuda(0));
  ASSERT_EQ(slice.chain.size(), 1u);
  EXPECT_EQ(slice.chain.front(), all[1]);

  const FlowReader &direct = flow.readers[2];
  EXPECT_EQ(direct.root, 0u);
  EXPECT_TRUE(direct.chain.empty());

  const FlowReader &result0 = flow.readers[3];
  EXPECT_EQ(result0.reader, FlowOpKind::Return);
  EXPECT_EQ(result0.root, 3u);
  EXPECT_EQ(result0.device, plan::Device::cuda(0)); // its residency
  const FlowReader &result1 = flow.readers[4];
  EXPECT_EQ(result1.root, 2u);
  EXPECT_EQ(result1.device, plan::Device::cpu()); // the pinned device

  // Each root's reads, and the devices they are on in device order.
  EXPECT_EQ(flow.roots[0].readers, (SmallVector<unsigned, 2>{0, 2}));
  EXPECT_EQ(flow.readDevices(flow.roots[0]),
            (SmallVector<plan::Device, 4>{plan::Device::cpu(),
                                          plan::Device::cuda(0)}));
  EXPECT_EQ(flow.readDevices(flow.roots[1]),
            (SmallVector<plan::Device, 4>{plan::Device::cuda(0)}));
}

TEST_F(ValueFlowTest, TracesThroughViewsAndCopies) {
  ASSERT_TRUE(func);
  SmallVector<Operation *> all = ops();
  Block &body = func.getBody().front();
  FlowTrace trace = traceToRoot(all[2]->getResult(0));
  EXPECT_EQ(trace.root, body.getArgument(0));
  ASSERT_EQ(trace.chain.size(), 1u);
  EXPECT_EQ(trace.chain.front(), all[2]);
  EXPECT_EQ(rootValue(all[1]->getResult(0)), all[0]->getResult(0));
  EXPECT_TRUE(traceToRoot(body.getArgument(0)).chain.empty());
}

TEST_F(ValueFlowTest, UnplacedNodeReadsOnNoDevice) {
  ASSERT_TRUE(func);
  NodeOp node = cast<NodeOp>(ops()[4]);
  node->removeAttr(node.getPlacementAttrName());
  ValueFlow flow = collectFlow(func);
  EXPECT_FALSE(flow.readers[1].device.has_value());
  EXPECT_FALSE(flow.roots[3].device.has_value());
  // The constant is read by that node only: on no known device yet.
  EXPECT_TRUE(flow.readDevices(flow.roots[1]).empty());
}

} // namespace
