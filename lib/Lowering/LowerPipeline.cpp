//===- LowerPipeline.cpp - The fuel-lower pipeline ------------------------===//
//
// fuel-lower: a placed module through every stage up to target code (the
// cpu kernels in the LLVM dialect, the vulkan ones in SPIR-V, the cuda ones in
// PTX), the passes docs/LOWERING.md describes one by one. The compile API (and
// so fuel-compile) runs the same passes, through a chosen stage, from the same
// table.
//
//===----------------------------------------------------------------------===//

#include "fuel/Lowering/Passes.h"

#include "fuel/Codegen/Passes.h"
#include "fuel/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <algorithm>
#include <iterator>

using namespace mlir;
using namespace mlir::fuel;

/// The passes of fuel-lower in order, each with the IR stage after it.
static const LowerStep kLowerSteps[] = {
    {"outlined", "fuel-outline-kernels",
     [] { return createFuelOutlineKernelsPass(); }},
    {"kernels", "fuel-apply-schedules",
     [] { return createFuelApplySchedulesPass(); }},
    {"bufferized", "fuel-bufferize-kernels",
     [] { return createFuelBufferizeKernelsPass(); }},
    {"host", "fuel-plan-buffers", [] { return createFuelPlanBuffersPass(); }},
    {"llvm", "convert-fuel-to-llvm",
     [] { return createConvertFuelToLLVMPass(); }},
    {"spirv", "convert-fuel-to-spirv",
     [] { return createConvertFuelToSPIRVPass(); }},
    {"ptx", "convert-fuel-to-nvvm",
     [] { return createConvertFuelToNVVMPass(); }},
};
static_assert(std::size(kLowerSteps) == mlir::fuel::kNumLowerSteps);

ArrayRef<mlir::fuel::LowerStep> mlir::fuel::getLowerSteps() {
  return kLowerSteps;
}

void mlir::fuel::buildLowerPipeline(OpPassManager &pm, unsigned steps,
                                    StringRef cudaToolkit) {
  for (const LowerStep &step :
       ArrayRef(kLowerSteps)
           .take_front(std::min<size_t>(steps, kNumLowerSteps))) {
    if (StringRef(step.pass) == "convert-fuel-to-nvvm" &&
        !cudaToolkit.empty()) {
      ConvertFuelToNVVMPassOptions options;
      options.cudaToolkit = cudaToolkit.str();
      pm.addPass(createConvertFuelToNVVMPass(options));
      continue;
    }
    pm.addPass(step.create());
  }
}

void mlir::fuel::registerFuelLowerPipeline() {
  PassPipelineRegistration<>(
      "fuel-lower",
      "Lower a placed module: outline kernels (fuel-outline-kernels), apply "
      "their schedules (fuel-apply-schedules), bufferize them "
      "(fuel-bufferize-kernels), build the host program (fuel-plan-buffers) "
      "lower the cpu kernels to the LLVM dialect (convert-fuel-to-llvm), "
      "the vulkan kernels to SPIR-V (convert-fuel-to-spirv) and the cuda "
      "kernels to PTX (convert-fuel-to-nvvm); "
      "fuel-serialize-executable then writes the executable",
      [](OpPassManager &pm) { buildLowerPipeline(pm); });
}
