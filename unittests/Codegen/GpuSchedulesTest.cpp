//===- GpuSchedulesTest.cpp - Tests of the subgroup row kernels -----------===//
//
// The row reductions and softmax of fuel::gpu::buildRowKernel, built with
// the widths chosen from lavapipe's limits and from a device with 32-wide
// subgroups, lowered through convert-gpu-to-spirv and serialized: the
// SPIR-V holds GroupNonUniform reductions, the workgroup memory and
// barrier only where there is more than one subgroup, the chosen
// LocalSize, and spirv-val accepts the binary. Bad shapes and element
// types are diagnosed.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/GpuRowKernels.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace mlir;
using ::fuel::gpu::RowKernelKind;

namespace {

::fuel::plan::GpuLimits lavapipe() {
  ::fuel::plan::GpuLimits l;
  l.subgroupSize = 8;
  l.sharedMemoryBytes = 32768;
  l.maxWorkgroupInvocations = 1024;
  l.maxWorkgroupSize[0] = l.maxWorkgroupSize[1] = l.maxWorkgroupSize[2] = 1024;
  return l;
}

::fuel::plan::GpuLimits wide() {
  ::fuel::plan::GpuLimits l = lavapipe();
  l.subgroupSize = 32;
  l.sharedMemoryBytes = 49152;
  return l;
}

// The target env of a device with these limits: gpu.shuffle lowers only
// with the env's subgroup size equal to its width.
std::string targetEnv(const ::fuel::plan::GpuLimits &limits) {
  return "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, "
         "GroupNonUniformArithmetic, GroupNonUniformShuffle], "
         "[SPV_KHR_storage_buffer_storage_class]>, "
         "api=Vulkan, #spirv.resource_limits<subgroup_size = " +
         std::to_string(limits.subgroupSize) + ">>";
}

class GpuSchedules : public ::testing::Test {
protected:
  GpuSchedules() {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    registerAllPasses();
  }

  /// A module holding one gpu.module with the row kernel `kind`.
  OwningOpRef<ModuleOp> build(RowKernelKind kind, int64_t rows, int64_t cols,
                              const ::fuel::plan::GpuLimits &limits,
                              uint32_t *workgroupSize = nullptr) {
    llvm::Expected<::fuel::target::ReductionTiling> tiling =
        ::fuel::target::chooseReductionTiling(limits, cols);
    EXPECT_TRUE(bool(tiling)) << llvm::toString(tiling.takeError());
    if (!tiling)
      return nullptr;
    if (workgroupSize)
      *workgroupSize = tiling->workgroupSize;
    OpBuilder b(&ctx);
    Location loc = b.getUnknownLoc();
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    (*module)->setAttr("gpu.container_module", b.getUnitAttr());
    (*module)->setAttr(spirv::getTargetEnvAttrName(),
                       parseAttribute(targetEnv(limits), &ctx));
    b.setInsertionPointToEnd(module->getBody());
    auto gm = gpu::GPUModuleOp::create(b, loc, "kernels");
    FailureOr<gpu::GPUFuncOp> fn = ::fuel::gpu::buildRowKernel(
        b, loc, gm, "row", kind, rows, cols, b.getF32Type(), *tiling);
    EXPECT_TRUE(succeeded(fn));
    EXPECT_TRUE(succeeded(verify(*module)));
    return module;
  }

  /// Lowers to SPIR-V: exp by its polynomial, then convert-gpu-to-spirv and
  /// the ABI lowering.
  spirv::ModuleOp lower(ModuleOp module) {
    RewritePatternSet patterns(&ctx);
    populateMathPolynomialApproximationPatterns(patterns);
    // Convergence is not needed: every exp is rewritten on the first pass.
    (void)applyPatternsGreedily(module, std::move(patterns));
    PassManager pm(&ctx);
    EXPECT_TRUE(succeeded(parsePassPipeline(
        "gpu.module(convert-math-to-spirv),"
        "convert-gpu-to-spirv,"
        "spirv.module(spirv-lower-abi-attrs,spirv-update-vce)",
        pm)));
    EXPECT_TRUE(succeeded(pm.run(module)));
    spirv::ModuleOp spv;
    module.walk([&](spirv::ModuleOp m) { spv = m; });
    return spv;
  }

  template <typename OpTy> static int count(Operation *op) {
    int n = 0;
    op->walk([&](OpTy) { ++n; });
    return n;
  }

  static SmallVector<int32_t> localSize(spirv::ModuleOp spv) {
    SmallVector<int32_t> size;
    spv.walk([&](spirv::ExecutionModeOp mode) {
      if (mode.getExecutionMode() == spirv::ExecutionMode::LocalSize)
        for (Attribute v : mode.getValues())
          size.push_back(cast<IntegerAttr>(v).getInt());
    });
    return size;
  }

  /// Serializes `spv` and runs spirv-val on it; skipped where spirv-val is
  /// missing, except under CI=true.
  void validate(spirv::ModuleOp spv) {
    SmallVector<uint32_t> words;
    ASSERT_TRUE(succeeded(spirv::serialize(spv, words)));
    ASSERT_FALSE(words.empty());
    llvm::ErrorOr<std::string> tool = llvm::sys::findProgramByName("spirv-val");
    if (!tool) {
      const char *ci = std::getenv("CI");
      ASSERT_FALSE(ci && std::string(ci) == "true")
          << "spirv-val (Debian spirv-tools) is not installed";
      GTEST_SKIP() << "spirv-val (Debian spirv-tools) is not installed";
    }
    SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("fuel-row", "spv", path));
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      ASSERT_FALSE(ec);
      os.write(reinterpret_cast<const char *>(words.data()),
               words.size() * sizeof(uint32_t));
    }
    std::string error;
    int rc = llvm::sys::ExecuteAndWait(
        *tool, {*tool, "--target-env", "vulkan1.1", path.str()}, std::nullopt,
        {}, 0, 0, &error);
    llvm::sys::fs::remove(path);
    EXPECT_EQ(rc, 0) << "spirv-val rejected the kernel " << error;
  }

  MLIRContext ctx;
};

TEST_F(GpuSchedules, SumOnLavapipe) {
  uint32_t wg = 0;
  OwningOpRef<ModuleOp> m =
      build(RowKernelKind::Sum, 256, 1024, lavapipe(), &wg);
  ASSERT_TRUE(m);
  EXPECT_EQ(wg, 64u);
  EXPECT_EQ(count<gpu::SubgroupReduceOp>(*m), 2);
  EXPECT_EQ(count<gpu::BarrierOp>(*m), 1);
  spirv::ModuleOp spv = lower(*m);
  ASSERT_TRUE(spv);
  EXPECT_EQ(count<spirv::GroupNonUniformFAddOp>(spv), 2);
  EXPECT_EQ(count<spirv::ControlBarrierOp>(spv), 1);
  EXPECT_EQ(localSize(spv), (SmallVector<int32_t>{64, 1, 1}));
  // The subgroups' results in Workgroup storage.
  int workgroupVars = 0;
  spv.walk([&](spirv::GlobalVariableOp v) {
    if (cast<spirv::PointerType>(v.getType()).getStorageClass() ==
        spirv::StorageClass::Workgroup)
      ++workgroupVars;
  });
  EXPECT_EQ(workgroupVars, 1);
  validate(spv);
}

TEST_F(GpuSchedules, WidthFollowsTheSubgroupSize) {
  uint32_t wg = 0;
  OwningOpRef<ModuleOp> m = build(RowKernelKind::Sum, 256, 1024, wide(), &wg);
  ASSERT_TRUE(m);
  EXPECT_EQ(wg, 256u);
  spirv::ModuleOp spv = lower(*m);
  ASSERT_TRUE(spv);
  EXPECT_EQ(localSize(spv), (SmallVector<int32_t>{256, 1, 1}));
  validate(spv);
}

TEST_F(GpuSchedules, MaxAndMinAndPrimeRows) {
  // 13 columns: two subgroups of 8 on lavapipe, one of 32 on a wide device
  // (no workgroup memory, no barrier).
  OwningOpRef<ModuleOp> m = build(RowKernelKind::Max, 7, 13, lavapipe());
  ASSERT_TRUE(m);
  spirv::ModuleOp spv = lower(*m);
  ASSERT_TRUE(spv);
  EXPECT_EQ(count<spirv::GroupNonUniformFMaxOp>(spv), 2);
  EXPECT_EQ(localSize(spv), (SmallVector<int32_t>{16, 1, 1}));
  validate(spv);

  OwningOpRef<ModuleOp> w = build(RowKernelKind::Min, 7, 13, wide());
  ASSERT_TRUE(w);
  EXPECT_EQ(count<gpu::BarrierOp>(*w), 0);
  spirv::ModuleOp wspv = lower(*w);
  ASSERT_TRUE(wspv);
  EXPECT_EQ(count<spirv::GroupNonUniformFMinOp>(wspv), 1);
  EXPECT_EQ(count<spirv::ControlBarrierOp>(wspv), 0);
  EXPECT_EQ(localSize(wspv), (SmallVector<int32_t>{32, 1, 1}));
  validate(wspv);
}

TEST_F(GpuSchedules, Softmax) {
  OwningOpRef<ModuleOp> m =
      build(RowKernelKind::Softmax, 256, 1021, lavapipe());
  ASSERT_TRUE(m);
  // The row's max, then the sum of the exponentials: two reductions of two
  // stages each.
  EXPECT_EQ(count<gpu::SubgroupReduceOp>(*m), 4);
  EXPECT_EQ(count<gpu::BarrierOp>(*m), 2);
  spirv::ModuleOp spv = lower(*m);
  ASSERT_TRUE(spv);
  EXPECT_EQ(count<spirv::GroupNonUniformFMaxOp>(spv), 2);
  EXPECT_EQ(count<spirv::GroupNonUniformFAddOp>(spv), 2);
  validate(spv);
}

TEST_F(GpuSchedules, BadInputIsDiagnosed) {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto gm = gpu::GPUModuleOp::create(b, loc, "kernels");
  ::fuel::target::ReductionTiling t =
      *::fuel::target::chooseReductionTiling(lavapipe(), 64);
  std::string messages;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    messages += d.str() + "\n";
    return success();
  });
  EXPECT_TRUE(failed(::fuel::gpu::buildRowKernel(
      b, loc, gm, "k", RowKernelKind::Sum, 4, 64, b.getI32Type(), t)));
  EXPECT_NE(messages.find("element type 'i32' is not f32 or f16"),
            std::string::npos)
      << messages;
  EXPECT_TRUE(failed(::fuel::gpu::buildRowKernel(
      b, loc, gm, "k", RowKernelKind::Sum, 0, 64, b.getF32Type(), t)));
  EXPECT_NE(messages.find("shape 0 x 64 is not positive"), std::string::npos);
  t.subgroups = 16;
  EXPECT_TRUE(failed(::fuel::gpu::buildRowKernel(
      b, loc, gm, "k", RowKernelKind::Sum, 4, 64, b.getF32Type(), t)));
  EXPECT_NE(messages.find("is inconsistent"), std::string::npos);
}

} // namespace
