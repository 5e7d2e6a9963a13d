//===- LowerPipeline.cpp - The fuel-lower pipeline ------------------------===//
//
// fuel-lower: a placed module down to the LLVM-dialect stage, the passes
// docs/LOWERING.md describes one by one. fuel-compile runs the same passes
// stage by stage and then serializes.
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/Passes.h"

#include "fuel/Dialect/Fuel/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::fuel::buildLowerPipeline(OpPassManager &pm) {
  pm.addPass(createFuelOutlineKernelsPass());
  pm.addPass(createFuelApplySchedulesPass());
  pm.addPass(createFuelBufferizeKernelsPass());
  pm.addPass(createFuelPlanBuffersPass());
  pm.addPass(createConvertFuelToLLVMPass());
}

void mlir::fuel::registerFuelLowerPipeline() {
  PassPipelineRegistration<>(
      "fuel-lower",
      "Lower a placed module: outline kernels (fuel-outline-kernels), apply "
      "their schedules (fuel-apply-schedules), bufferize them "
      "(fuel-bufferize-kernels), build the host program (fuel-plan-buffers) "
      "and lower the cpu kernels to the LLVM dialect (convert-fuel-to-llvm); "
      "fuel-serialize-executable then writes the executable",
      buildLowerPipeline);
}
