//===- fuel-opt.cpp - The fuel optimizer driver ---------------------------===//
//
// `mlir-opt` with the fuel dialect: parses, verifies, transforms and prints
// IR that mixes fuel with every upstream dialect, pass and extension.
//
// It registers every upstream dialect, pass and extension, not just the ones
// fuel's passes read, for two reasons:
//  - it is the cheapest way to build the tool: against the shared libMLIR,
//    the InitAll* headers only declare out-of-line registration functions, so
//    this file compiles faster than one naming a handful of dialect headers,
//    and the tool stays one small binary;
//  - it is the only tool that runs upstream passes on planned IR: a plan is
//    written into ordinary MLIR (`fuel.node`, `fuel.copy` and attributes), and
//    checking or lowering it further means running upstream passes right after
//    fuel's in one pipeline, on any dialect a frontend may have produced.
// Keep it that way: a tool registering only a subset would reject programs
// that fuel plans and could not continue a pipeline after `fuel-plan`.
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/Passes.h"
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
  mlir::fuel::registerFuelConversionPasses();
  mlir::fuel::registerFuelLowerPipeline();
  mlir::fuel::registerTestFuelEmitCpuAsmPass();

  mlir::DialectRegistry registry;
  registry.insert<mlir::fuel::FuelDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fuel optimizer driver\n", registry));
}
