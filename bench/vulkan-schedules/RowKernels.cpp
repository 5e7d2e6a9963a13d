//===- RowKernels.cpp - Writes the subgroup row kernels as SPIR-V ---------===//
//
// The row kernels of the Vulkan schedule benchmark (bench/vulkan-schedules/
// run.py): fuel::gpu::buildRowKernel with the widths chosen from the given
// limits, the exponential by its polynomial, convert-gpu-to-spirv, and
// mlir::spirv::serialize:
//
//   fuel-bench-row-kernels KIND ROWS COLS SUBGROUP SHARED_BYTES
//       MAX_INVOCATIONS OUT.spv
//
// KIND is sum, max, min or softmax. Prints "entry row workgroup_size N".
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/GpuSchedules.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 8) {
    llvm::errs() << "usage: fuel-bench-row-kernels sum|max|min|softmax ROWS "
                    "COLS SUBGROUP SHARED_BYTES MAX_INVOCATIONS OUT.spv\n";
    return 2;
  }
  std::string kindName = argv[1];
  fuel::gpu::RowKernelKind kind;
  if (kindName == "sum")
    kind = fuel::gpu::RowKernelKind::Sum;
  else if (kindName == "max")
    kind = fuel::gpu::RowKernelKind::Max;
  else if (kindName == "min")
    kind = fuel::gpu::RowKernelKind::Min;
  else if (kindName == "softmax")
    kind = fuel::gpu::RowKernelKind::Softmax;
  else {
    llvm::errs() << "fuel-bench-row-kernels: unknown kind '" << kindName
                 << "'\n";
    return 2;
  }
  int64_t rows = std::atoll(argv[2]), cols = std::atoll(argv[3]);
  fuel::plan::GpuLimits limits;
  limits.subgroupSize = std::atoi(argv[4]);
  limits.sharedMemoryBytes = std::atoll(argv[5]);
  limits.maxWorkgroupInvocations = std::atoi(argv[6]);
  llvm::Expected<fuel::target::ReductionTiling> tiling =
      fuel::target::chooseReductionTiling(limits, cols);
  if (!tiling) {
    llvm::errs() << "fuel-bench-row-kernels: "
                 << llvm::toString(tiling.takeError()) << "\n";
    return 1;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllPasses();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  (*module)->setAttr("gpu.container_module", b.getUnitAttr());
  (*module)->setAttr(
      spirv::getTargetEnvAttrName(),
      parseAttribute("#spirv.target_env<#spirv.vce<v1.3, [Shader, "
                     "GroupNonUniform, GroupNonUniformArithmetic, "
                     "GroupNonUniformShuffle], "
                     "[SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, "
                     "#spirv.resource_limits<subgroup_size = " +
                         std::to_string(limits.subgroupSize) + ">>",
                     &ctx));
  b.setInsertionPointToEnd(module->getBody());
  auto gm = gpu::GPUModuleOp::create(b, loc, "kernels");
  if (failed(fuel::gpu::buildRowKernel(b, loc, gm, "row", kind, rows, cols,
                                       b.getF32Type(), *tiling)))
    return 1;
  RewritePatternSet patterns(&ctx);
  populateMathPolynomialApproximationPatterns(patterns);
  // Convergence is not needed: every exp is rewritten on the first pass.
  (void)applyPatternsGreedily(*module, std::move(patterns));
  PassManager pm(&ctx);
  if (failed(parsePassPipeline(
          "gpu.module(convert-math-to-spirv),"
          "convert-gpu-to-spirv,"
          "spirv.module(spirv-lower-abi-attrs,spirv-update-vce)",
          pm)) ||
      failed(pm.run(*module)))
    return 1;
  spirv::ModuleOp spv;
  module->walk([&](spirv::ModuleOp m) { spv = m; });
  SmallVector<uint32_t> words;
  if (!spv || failed(spirv::serialize(spv, words)))
    return 1;
  std::error_code ec;
  llvm::raw_fd_ostream os(argv[7], ec);
  if (ec) {
    llvm::errs() << "fuel-bench-row-kernels: cannot write '" << argv[7]
                 << "': " << ec.message() << "\n";
    return 1;
  }
  os.write(reinterpret_cast<const char *>(words.data()),
           words.size() * sizeof(uint32_t));
  llvm::outs() << "entry row workgroup_size " << tiling->workgroupSize << "\n";
  return 0;
}
