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
// `--fuel-kernel-registry=FILE` plans with the kernel registry in FILE
// instead of the built-in one (docs/KERNELS.md, "Another registry"): the
// planner's tests pin their figures that way, so that re-measuring the
// built-in registry changes no expected plan.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/Passes.h"
#include "fuel/Conversion/Passes.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Lowering/Passes.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Target/KernelRegistry.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <optional>

static llvm::cl::opt<std::string> kernelRegistryFile(
    "fuel-kernel-registry",
    llvm::cl::desc("Plan with the kernel registry in this JSON file instead "
                   "of the built-in one (docs/KERNELS.md)"),
    llvm::cl::value_desc("file"), llvm::cl::init(""));

/// The registry of --fuel-kernel-registry, set on every context as the fuel
/// dialect loads into it; it lives until the tool exits.
static std::optional<fuel::target::KernelRegistry> fileRegistry;

/// Reads --fuel-kernel-registry; false (with the error printed) when the
/// file cannot be read or is not a valid registry.
static bool loadRegistryFile() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(kernelRegistryFile, /*IsText=*/true);
  if (!buffer) {
    llvm::WithColor::error(llvm::errs(), "fuel-opt")
        << "cannot read kernel registry '" << kernelRegistryFile
        << "': " << buffer.getError().message() << "\n";
    return false;
  }
  llvm::Expected<fuel::target::KernelRegistry> parsed =
      fuel::target::KernelRegistry::parse((*buffer)->getBuffer(),
                                          kernelRegistryFile);
  if (!parsed) {
    // The message names the file, the position and what was expected.
    llvm::errs() << "fuel-opt: " << llvm::toString(parsed.takeError()) << "\n";
    return false;
  }
  fileRegistry.emplace(std::move(*parsed));
  return true;
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::fuel::registerFuelPlanningPasses();
  mlir::fuel::registerFuelCodegenPasses();
  mlir::fuel::registerFuelLoweringPasses();
  mlir::fuel::registerFuelPlanPipeline();
  mlir::fuel::registerFuelConversionPasses();
  mlir::fuel::registerFuelLowerPipeline();
  mlir::fuel::registerTestFuelEmitCpuAsmPass();
  mlir::fuel::registerTestFuelEmitSpirvPass();
  mlir::fuel::registerTestFuelEmitPtxPass();

  mlir::DialectRegistry registry;
  registry.insert<mlir::fuel::FuelDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);

  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "fuel optimizer driver\n", registry);
  if (!kernelRegistryFile.empty()) {
    if (!loadRegistryFile())
      return 1;
    registry.addExtension(
        +[](mlir::MLIRContext *ctx, mlir::fuel::FuelDialect *) {
          mlir::fuel::setKernelRegistry(ctx, &*fileRegistry);
        });
  }
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));
}
