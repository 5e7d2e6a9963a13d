//===- TestEmitPtx.cpp - Write the PTX of cuda kernel modules -------------===//
//
// test-fuel-emit-ptx{output=FILE}: writes the PTX text of each cuda
// executable's gpu.binary (after convert-fuel-to-nvvm), the text
// fuel-serialize-executable stores, to FILE (the first executable) and
// FILE.<n> (the n-th after it), so that lit tests can assemble exactly what
// the executable carries with ptxas.
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/Passes.h"

#include "fuel/Codegen/GPU/CudaKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "../TestKernelImages.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::fuel;

namespace {
struct TestEmitPtxPass
    : public PassWrapper<TestEmitPtxPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestEmitPtxPass)

  TestEmitPtxPass() = default;
  TestEmitPtxPass(const TestEmitPtxPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-fuel-emit-ptx"; }
  StringRef getDescription() const final {
    return "Writes the PTX text of each cuda kernel module";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<gpu::GPUDialect>();
  }

  void runOnOperation() override {
    auto ptxOf = [](ModuleOp kernels,
                    llvm::function_ref<LogicalResult(StringRef)> write)
        -> LogicalResult {
      if (kernels.getOps<gpu::BinaryOp>().empty())
        return success();
      FailureOr<StringRef> ptx = getKernelModulePtx(kernels);
      if (failed(ptx))
        return failure();
      return write(*ptx);
    };
    if (failed(test::writeKernelImages(
            getOperation(), getArgument(), output, DeviceKind::cuda,
            "no cuda executable holds a gpu.binary: run convert-fuel-to-nvvm "
            "first",
            ptxOf)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  Option<std::string> output{*this, "output",
                             llvm::cl::desc("The file to write")};
};
} // namespace

void mlir::fuel::registerTestFuelEmitPtxPass() {
  PassRegistration<TestEmitPtxPass>();
}
