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

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

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
    if (output.empty()) {
      getOperation().emitError("test-fuel-emit-spirv needs 'output'");
      return signalPassFailure();
    }
    unsigned n = 0;
    for (auto exe : getOperation().getOps<ExecutableOp>()) {
      if (exe.getDevice().getKind() != DeviceKind::vulkan)
        continue;
      ModuleOp kernels = exe.getKernelModule();
      if (!kernels)
        continue;
      for (auto spv : kernels.getOps<spirv::ModuleOp>()) {
        SmallVector<uint32_t> words;
        if (failed(spirv::serialize(spv, words))) {
          spv.emitError("could not serialize the spirv.module");
          return signalPassFailure();
        }
        std::string path = n == 0 ? output.getValue()
                                  : output.getValue() + "." + std::to_string(n);
        ++n;
        std::error_code ec;
        llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
        if (ec) {
          getOperation().emitError()
              << "cannot write '" << path << "': " << ec.message();
          return signalPassFailure();
        }
        for (uint32_t word : words)
          for (unsigned b = 0; b < 4; ++b)
            os << static_cast<char>(word >> (8 * b));
      }
    }
    if (n == 0) {
      getOperation().emitError("no vulkan executable holds a spirv.module: "
                               "run convert-fuel-to-spirv first");
      return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }

  Option<std::string> output{*this, "output",
                             llvm::cl::desc("The file to write")};
};
} // namespace

void mlir::fuel::registerTestFuelEmitSpirvPass() {
  PassRegistration<TestEmitSpirvPass>();
}
