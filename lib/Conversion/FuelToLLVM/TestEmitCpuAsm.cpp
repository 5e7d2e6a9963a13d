//===- TestEmitCpuAsm.cpp - Print the assembly of cpu kernel modules ------===//
//
// test-fuel-emit-cpu-asm: prints, for each cpu kernel module in the LLVM
// dialect (after convert-fuel-to-llvm), the assembly emitCpuSharedObject
// would link, for the module's stamped target. For lit tests of code
// generation for targets other than the host (e.g. AVX-512). The printing
// itself, printCpuKernelsAssembly, is also `fuel-compile --emit=asm`'s.
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/Passes.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/CPU/CpuObject.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::fuel;

namespace {
struct TestEmitCpuAsmPass
    : public PassWrapper<TestEmitCpuAsmPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestEmitCpuAsmPass)

  StringRef getArgument() const final { return "test-fuel-emit-cpu-asm"; }
  StringRef getDescription() const final {
    return "Prints the assembly of each cpu kernel module (LLVM dialect)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    if (failed(printCpuKernelsAssembly(getOperation(), llvm::outs())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace

LogicalResult mlir::fuel::printCpuKernelsAssembly(ModuleOp root,
                                                  llvm::raw_ostream &os) {
  for (ModuleOp kernels : getCpuKernelModules(root)) {
    FailureOr<CpuTargetSpec> target = resolveCpuTarget(kernels);
    if (failed(target))
      return failure();
    FailureOr<std::string> text = emitCpuAssembly(kernels, *target);
    if (failed(text))
      return failure();
    os << *text;
  }
  return success();
}

void mlir::fuel::registerTestFuelEmitCpuAsmPass() {
  PassRegistration<TestEmitCpuAsmPass>();
}
