//===- KernelRegistryHandleTest.cpp - Planning with another registry ------===//
//
// An embedder substitutes the kernel registry of a context with
// mlir::fuel::setKernelRegistry: fuel-plan then enumerates and prices that
// registry's kernels, picks among them by cost, and resetting the handle
// brings the built-in registry back. Other contexts are not affected.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Planning/PlanExport.h"
#include "fuel/Target/KernelRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuel;
namespace target = ::fuel::target;

namespace {

constexpr llvm::StringLiteral kProgram = R"mlir(
func.func @f(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>)
    -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
                     outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %m : tensor<256x256xf32>
}
)mlir";

/// A registry of two cpu matmul kernels, one ten times as efficient.
target::KernelRegistry twoKernelRegistry() {
  auto record = [](llvm::StringRef name, llvm::StringRef efficiency) {
    return (R"({"id": "cpu.generated.matmul_)" + name +
            R"(", "op": "matmul", "dtype": "f32", "backend": "cpu",
      "source": "generated", "precision": "unaudited",
      "precision_note": "unaudited: a test kernel",
      "efficiency_compute": )" +
            efficiency + R"(, "efficiency_memory": )" + efficiency +
            R"(, "overhead_ns": 0, "priority": 0,
      "cost": "matmul", "schedule": "test",
      "lowering": "kernels/schedules/cpu/matmul_)" +
            name + R"(.mlir"})")
        .str();
  };
  std::string text = R"({"version": 1, "kernels": [)" + record("slow", "0.05") +
                     ", " + record("fast", "0.5") + "]}";
  llvm::Expected<target::KernelRegistry> reg =
      target::KernelRegistry::parse(text, "test-registry.json");
  EXPECT_TRUE(bool(reg)) << llvm::toString(reg.takeError());
  return reg ? std::move(*reg) : target::KernelRegistry();
}

class KernelRegistryHandleTest : public ::testing::Test {
protected:
  KernelRegistryHandleTest() {
    DialectRegistry registry;
    registry.insert<FuelDialect, func::FuncDialect, arith::ArithDialect,
                    linalg::LinalgDialect, tensor::TensorDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Plans kProgram with fuel-plan (built-in default topology) and returns
  /// the winning kernel of its one node, or "" on failure.
  std::string plannedKernel(MLIRContext &context) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kProgram, &context);
    if (!module)
      return "";
    PassManager pm(&context);
    buildPlanPipeline(pm, PlanningOptions());
    if (failed(pm.run(*module)))
      return "";
    std::string winner;
    module->walk([&](NodeOp node) {
      if (CandidateAttr c = getWinner(node))
        winner = c.getKernelId().str();
    });
    return winner;
  }

  MLIRContext ctx;
};

TEST_F(KernelRegistryHandleTest, BuiltInRegistryByDefault) {
  EXPECT_EQ(&getKernelRegistry(&ctx), &target::KernelRegistry::get());
  std::string winner = plannedKernel(ctx);
  EXPECT_NE(target::KernelRegistry::get().find(winner), nullptr) << winner;
}

TEST_F(KernelRegistryHandleTest, SubstitutedRegistryIsPlanned) {
  target::KernelRegistry reg = twoKernelRegistry();
  setKernelRegistry(&ctx, &reg);
  EXPECT_EQ(&getKernelRegistry(&ctx), &reg);
  EXPECT_EQ(plannedKernel(ctx), "cpu.generated.matmul_fast");

  // Another context keeps the built-in registry.
  MLIRContext other(ctx.getDialectRegistry());
  other.loadAllAvailableDialects();
  EXPECT_EQ(&getKernelRegistry(&other), &target::KernelRegistry::get());

  // nullptr restores the built-in registry.
  setKernelRegistry(&ctx, nullptr);
  EXPECT_EQ(&getKernelRegistry(&ctx), &target::KernelRegistry::get());
  EXPECT_NE(plannedKernel(ctx), "cpu.generated.matmul_fast");
}

} // namespace
