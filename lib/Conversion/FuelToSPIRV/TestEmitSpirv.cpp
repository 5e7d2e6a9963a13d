//===- TestEmitSpirv.cpp - Write the SPIR-V of vulkan kernel modules ------===//
//
// test-fuel-emit-spirv{output=FILE}: writes the SPIR-V binary of each
// vulkan executable's spirv.module (after convert-fuel-to-spirv), the words
// fuel-serialize-executable stores, to FILE (the first executable) and
// FILE.<n> (the n-th after it), so that lit tests can run spirv-val and
// spirv-dis on exactly what the executable carries.
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "../TestKernelImages.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"

using namespace mlir;
using namespace mlir::fuel;

namespace {
struct TestEmitSpirvPass
    : public PassWrapper<TestEmitSpirvPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestEmitSpirvPass)

  TestEmitSpirvPass() = default;
  TestEmitSpirvPass(const TestEmitSpirvPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-fuel-emit-spirv"; }
  StringRef getDescription() const final {
    return "Writes the SPIR-V binary of each vulkan kernel module";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<spirv::SPIRVDialect>();
  }

  void runOnOperation() override {
    auto spirvOf = [](ModuleOp kernels,
                      llvm::function_ref<LogicalResult(StringRef)> write)
        -> LogicalResult {
      for (auto spv : kernels.getOps<spirv::ModuleOp>()) {
        SmallVector<uint32_t> words;
        if (failed(spirv::serialize(spv, words)))
          return spv.emitError("could not serialize the spirv.module");
        // Little-endian words, whatever the host's byte order.
        std::string bytes;
        bytes.reserve(4 * words.size());
        for (uint32_t word : words)
          for (unsigned b = 0; b < 4; ++b)
            bytes.push_back(static_cast<char>(word >> (8 * b)));
        if (failed(write(bytes)))
          return failure();
      }
      return success();
    };
    if (failed(test::writeKernelImages(
            getOperation(), getArgument(), output, DeviceKind::vulkan,
            "no vulkan executable holds a spirv.module: run "
            "convert-fuel-to-spirv first",
            spirvOf)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  Option<std::string> output{*this, "output",
                             llvm::cl::desc("The file to write")};
};
} // namespace

void mlir::fuel::registerTestFuelEmitSpirvPass() {
  PassRegistration<TestEmitSpirvPass>();
}
