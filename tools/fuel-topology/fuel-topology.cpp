//===- fuel-topology.cpp - Inspect, convert and check topologies ----------===//
//
// Resolves a topology the way the `topology` pipeline option does (nothing:
// the built-in default; `probe`: this machine; a path; `-`: standard input)
// and prints it as a topology file (JSON, the default), as the
// `#fuel.topology` attribute a planned module carries, or as its content
// hash. Errors name the file, the line and column or the JSON path.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Target/TopologyFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {
enum class OutputForm { Json, Attr, Hash };
} // namespace

static cl::OptionCategory toolOptions("fuel-topology options");

static cl::opt<std::string>
    spec(cl::Positional,
         cl::desc("[<topology.json> | probe | -]  (nothing: the built-in "
                  "default topology)"),
         cl::init(""), cl::cat(toolOptions));

static cl::opt<OutputForm> form(
    "emit", cl::desc("What to print"), cl::init(OutputForm::Json),
    cl::values(clEnumValN(OutputForm::Json, "json", "a topology file (JSON)"),
               clEnumValN(OutputForm::Attr, "attr",
                          "the #fuel.topology attribute"),
               clEnumValN(OutputForm::Hash, "hash", "the content hash")),
    cl::cat(toolOptions));

static Expected<fuel::plan::Topology> readTopology() {
  if (spec != "-")
    return fuel::target::resolveTopology(spec);
  ErrorOr<std::unique_ptr<MemoryBuffer>> input = MemoryBuffer::getSTDIN();
  if (!input)
    return createStringError(input.getError(), "cannot read standard input: %s",
                             input.getError().message().c_str());
  return fuel::target::parseTopology((*input)->getBuffer(), "<stdin>");
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(
      argc, argv, "fuel-topology: print, convert and check fuel topologies\n");

  Expected<fuel::plan::Topology> topology = readTopology();
  if (!topology) {
    // Messages already read `<file>:<line>:<col>: error: ...`.
    logAllUnhandledErrors(topology.takeError(), errs());
    return 1;
  }
  switch (form) {
  case OutputForm::Json:
    outs() << fuel::target::printTopologyJSON(*topology);
    break;
  case OutputForm::Hash:
    outs() << fuel::plan::formatHash(topology->contentHash()) << "\n";
    break;
  case OutputForm::Attr: {
    mlir::MLIRContext ctx;
    ctx.loadDialect<mlir::fuel::FuelDialect>();
    mlir::Attribute attr = mlir::fuel::TopologyAttr::fromPlan(&ctx, *topology);
    attr.print(outs());
    outs() << "\n";
    break;
  }
  }
  return 0;
}
