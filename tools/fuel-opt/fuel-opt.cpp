//===- fuel-opt.cpp - The fuel optimizer driver ---------------------------===//
//
// `mlir-opt` with the fuel dialect: parses, verifies, transforms and prints
// IR that mixes fuel with every upstream dialect, pass and extension.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Dialect/Fuel/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::fuel::registerFuelPasses();
  mlir::fuel::registerFuelPlanPipeline();

  mlir::DialectRegistry registry;
  registry.insert<mlir::fuel::FuelDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fuel optimizer driver\n", registry));
}
