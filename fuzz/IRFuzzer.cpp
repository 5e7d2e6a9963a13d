//===- IRFuzzer.cpp - libFuzzer target for the IR path of fuel-opt --------===//
//
// Feeds arbitrary text to the IR path: parse and verify as fuel-opt does
// (every upstream dialect and fuel's), plan with `fuel-plan` on a fixed
// topology (a CPU, a CUDA and a Vulkan device; a module's own
// #fuel.topology is kept), print, and parse the printed module again. A
// refused input or a failed plan must have said why (an error diagnostic);
// a planned module must print as IR that parses and prints the same. Inputs
// of odd length plan with `explain=true`, so that the remarks run too.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"
#include "MlirRoundTrip.h"

#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Target/TopologyFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;
using ::fuel::fuzz::fuzzFail;

namespace {

/// The fixed topology the target plans on.
constexpr const char *kTopology = R"json({
  "version": 1,
  "devices": [
    {"device": "cpu", "name": "host", "cpu_type": true,
     "peak_flops_per_ns": {"f32": 32.0, "f64": 16.0}, "bytes_per_ns": 20.0,
     "dispatch_overhead_ns": 2000, "memory_bytes": 34359738368,
     "alignment": 64},
    {"device": "cuda:0", "name": "gpu", "cpu_type": false,
     "peak_flops_per_ns": {"f32": 50000.0, "f64": 25000.0},
     "bytes_per_ns": 3000.0, "dispatch_overhead_ns": 5000,
     "memory_bytes": 85899345920, "alignment": 256},
    {"device": "vulkan:0", "name": "vk", "cpu_type": false,
     "peak_flops_per_ns": {"f32": 30000.0}, "bytes_per_ns": 900.0,
     "dispatch_overhead_ns": 10000, "memory_bytes": 25769803776,
     "alignment": 256}
  ],
  "links": [
    {"from": "cpu", "to": "cuda:0", "path_class": "device-copy",
     "bandwidth_bytes_per_s": 25000000000, "latency_ns": 10000},
    {"from": "cuda:0", "to": "cpu", "path_class": "device-copy",
     "bandwidth_bytes_per_s": 25000000000, "latency_ns": 10000},
    {"from": "cpu", "to": "vulkan:0", "path_class": "device-copy",
     "bandwidth_bytes_per_s": 25000000000, "latency_ns": 10000},
    {"from": "vulkan:0", "to": "cpu", "path_class": "device-copy",
     "bandwidth_bytes_per_s": 25000000000, "latency_ns": 10000}
  ]
})json";

DialectRegistry *registry;
::fuel::plan::Topology *topology;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registry = new DialectRegistry();
  registry->insert<mlir::fuel::FuelDialect>();
  registerAllDialects(*registry);
  registerAllExtensions(*registry);
  topology =
      new ::fuel::plan::Topology(::fuel::fuzz::fixedTopology("ir", kTopology));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer takes the byte after the buffer for its end (a NUL, as
  // llvm::MemoryBuffer guarantees), but parseSourceString does not copy:
  // the fuzzer's bytes end at the allocation, so they are parsed from a
  // NUL-terminated copy, as fuel-compile and fuelCompileText read theirs.
  std::string text(reinterpret_cast<const char *>(data), size);
  MLIRContext ctx(*registry, MLIRContext::Threading::DISABLED);
  // The topology attribute is built before anything in the input may load
  // the dialect.
  ctx.loadDialect<mlir::fuel::FuelDialect>();
  ctx.allowUnregisteredDialects(false);
  ::fuel::fuzz::DiagnosticCapture diagnostics(ctx);

  ParserConfig config(&ctx);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, config, "input.mlir");
  if (!module) {
    if (!diagnostics.errors)
      fuzzFail("ir", "the parser refuses the input without an error");
    ::fuel::fuzz::fuzzNoteRefusal("ir", diagnostics.text);
    return 0;
  }
  if (failed(verify(*module))) {
    if (!diagnostics.errors)
      fuzzFail("ir", "the verifier refuses the module without an error");
    ::fuel::fuzz::fuzzNoteRefusal("ir", diagnostics.text);
    return 0;
  }

  if (!(*module)->hasAttr(mlir::fuel::FuelDialect::kTopologyAttrName))
    (*module)->setAttr(mlir::fuel::FuelDialect::kTopologyAttrName,
                       mlir::fuel::TopologyAttr::fromPlan(&ctx, *topology));
  PassManager pm(&ctx);
  mlir::fuel::PlanningOptions options;
  options.explain = size % 2 == 1;
  mlir::fuel::buildPlanPipeline(pm, options);
  if (failed(pm.run(*module))) {
    if (!diagnostics.errors)
      fuzzFail("ir", "fuel-plan fails without an error");
    ::fuel::fuzz::fuzzNoteRefusal("ir", diagnostics.text);
    return 0;
  }

  ::fuel::fuzz::checkRoundTrip("ir", *registry, ::fuel::fuzz::printOp(*module));
  return 0;
}
