//===- PlanImportFuzzer.cpp - libFuzzer target for fuel-import-plan -------===//
//
// Feeds arbitrary bytes as the plan file of `fuel-plan{import-plan=...}` on a
// fixed module of two functions (a matmul layer and an element-wise chain)
// and a fixed topology (a CPU and a CUDA device). The importer reads the
// whole file before it changes anything, so a refusal must leave the module
// as it was and have said why (an error diagnostic); an accepted plan must
// give a module that verifies and prints as IR that parses and prints the
// same. The bytes go through a file of the process's own, as the pass reads
// a path.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"
#include "MlirRoundTrip.h"

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Target/TopologyFile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;
using ::fuel::fuzz::fuzzFail;

namespace {

constexpr const char *kModule = R"mlir(
func.func @layer(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x256xf32>, tensor<256x512xf32>)
                     outs(%acc : tensor<64x512xf32>) -> tensor<64x512xf32>
  %a = linalg.negf ins(%m : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %b = linalg.exp ins(%a : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %c = linalg.abs ins(%b : tensor<64x512xf32>) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %c : tensor<64x512xf32>
}
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %b = linalg.negf ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  return %b : tensor<1024xf32>
}
)mlir";

constexpr const char *kTopology = R"json({
  "version": 1,
  "devices": [
    {"device": "cpu", "cpu_type": true,
     "peak_flops_per_ns": {"f32": 32.0}, "bytes_per_ns": 20.0,
     "dispatch_overhead_ns": 2000, "memory_bytes": 34359738368,
     "alignment": 64},
    {"device": "cuda:0", "cpu_type": false,
     "peak_flops_per_ns": {"f32": 50000.0}, "bytes_per_ns": 3000.0,
     "dispatch_overhead_ns": 5000, "memory_bytes": 85899345920,
     "alignment": 256}
  ],
  "links": [
    {"from": "cpu", "to": "cuda:0", "path_class": "device-copy",
     "bandwidth_bytes_per_s": 25000000000, "latency_ns": 10000},
    {"from": "cuda:0", "to": "cpu", "path_class": "device-copy",
     "bandwidth_bytes_per_s": 25000000000, "latency_ns": 10000}
  ]
})json";

DialectRegistry *registry;
::fuel::plan::Topology *topology;
std::string *planPath;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registry = new DialectRegistry();
  registry
      ->insert<mlir::fuel::FuelDialect, func::FuncDialect, arith::ArithDialect,
               linalg::LinalgDialect, tensor::TensorDialect>();
  topology = new ::fuel::plan::Topology(
      ::fuel::fuzz::fixedTopology("plan-import", kTopology));
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("fuel-fuzz-plan", "json", path))
    fuzzFail("plan-import", "cannot create the plan file");
  planPath = new std::string(path.str());
  std::atexit([] { std::remove(planPath->c_str()); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  {
    std::FILE *f = std::fopen(planPath->c_str(), "wb");
    if (!f || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0)
      fuzzFail("plan-import", "cannot write the plan file " + *planPath);
  }
  MLIRContext ctx(*registry, MLIRContext::Threading::DISABLED);
  // The topology attribute is built before anything in the input may load
  // the dialect.
  ctx.loadDialect<mlir::fuel::FuelDialect>();
  ::fuel::fuzz::DiagnosticCapture diagnostics(ctx);
  ParserConfig config(&ctx);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kModule, config, "fixed.mlir");
  if (!module)
    fuzzFail("plan-import", "the fixed module is refused: " + diagnostics.text);
  (*module)->setAttr(mlir::fuel::FuelDialect::kTopologyAttrName,
                     mlir::fuel::TopologyAttr::fromPlan(&ctx, *topology));

  // Up to the import, then the import alone: a refusal must leave the
  // module as it was.
  PassManager before(&ctx);
  before.addPass(mlir::fuel::createFuelAttachTopologyPass());
  before.nest<func::FuncOp>().addPass(mlir::fuel::createFuelFormNodesPass());
  if (failed(before.run(*module)))
    fuzzFail("plan-import",
             "the fixed module does not form nodes: " + diagnostics.text);
  std::string formed = ::fuel::fuzz::printOp(*module);
  PassManager import(&ctx);
  mlir::fuel::FuelImportPlanPassOptions importOptions;
  importOptions.file = *planPath;
  import.addPass(mlir::fuel::createFuelImportPlanPass(importOptions));
  if (failed(import.run(*module))) {
    if (!diagnostics.errors)
      fuzzFail("plan-import", "the import fails without an error");
    ::fuel::fuzz::fuzzNoteRefusal("plan-import", diagnostics.text);
    std::string after = ::fuel::fuzz::printOp(*module);
    if (after != formed)
      fuzzFail("plan-import", "a refused plan changed the module", formed,
               after);
    return 0;
  }

  // The rest of fuel-plan, with the pins in place.
  PassManager rest(&ctx);
  OpPassManager &fpm = rest.nest<func::FuncOp>();
  fpm.addPass(mlir::fuel::createFuelEnumerateCandidatesPass());
  fpm.addPass(mlir::fuel::createFuelFilterCandidatesPass());
  fpm.addPass(mlir::fuel::createFuelAnnotateCostsPass());
  fpm.addPass(mlir::fuel::createFuelRankCandidatesPass());
  fpm.addPass(mlir::fuel::createFuelRetainFrontierPass());
  fpm.addPass(mlir::fuel::createFuelPlacePass());
  fpm.addPass(mlir::fuel::createFuelInsertResidencyCopiesPass());
  if (failed(rest.run(*module))) {
    if (!diagnostics.errors)
      fuzzFail("plan-import", "planning with the pins fails without an error");
    return 0;
  }
  ::fuel::fuzz::checkRoundTrip("plan-import", *registry,
                               ::fuel::fuzz::printOp(*module));
  return 0;
}
