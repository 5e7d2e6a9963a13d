//===- fuel-compile.cpp - Plan and lower a program to an executable -------===//
//
// `fuel-compile IN.mlir -o OUT.fuelx [--topology=FILE|probe]
// [--plan="OPTIONS"] [--emit=STAGE]`: plans a program (unless it is already
// planned), lowers it stage by stage and writes the executable libfuelrt
// runs, prints the IR after one stage, or (`--emit=asm`) prints the
// assembly of the cpu kernels. docs/FUEL-COMPILE.md describes it.
//
// The stages after planning are a table of (stage, pass name); each pass is
// added by name through mlir::parsePassPipeline, so a stage works as soon as
// its pass is registered, and asking for one whose pass this build lacks is a
// clear error rather than a link-time dependency.
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/FuelToLLVM/CpuObject.h"
#include "fuel/Conversion/Passes.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/Transforms/CpuKernels.h"
#include "fuel/Dialect/Fuel/Transforms/NodeAnalysis.h"
#include "fuel/Dialect/Fuel/Transforms/Passes.h"
#include "fuel/Target/TopologyFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::fuel;

namespace {
/// The IR stages of docs/ARCHITECTURE.md that `--emit` can stop after, in
/// pipeline order; `Asm` runs through `Llvm` and prints the cpu kernels'
/// assembly; `Executable` (the default) runs every stage and serializes.
enum class Stage {
  Planned,
  Outlined,
  Kernels,
  Bufferized,
  Host,
  Llvm,
  Asm,
  Executable
};

/// One lowering stage: the IR after `pass` is the stage `stage`.
struct StageStep {
  Stage stage;
  const char *name;
  const char *pass;
};
} // namespace

/// The lowering after planning (the `fuel-lower` pipeline's passes, in
/// order), then serialization.
static constexpr StageStep kLoweringSteps[] = {
    {Stage::Outlined, "outlined", "fuel-outline-kernels"},
    {Stage::Kernels, "kernels", "fuel-apply-schedules"},
    {Stage::Bufferized, "bufferized", "fuel-bufferize-kernels"},
    {Stage::Host, "host", "fuel-plan-buffers"},
    {Stage::Llvm, "llvm", "convert-fuel-to-llvm"},
};
static constexpr const char *kSerializePass = "fuel-serialize-executable";

static llvm::cl::OptionCategory
    compileCategory("fuel-compile options",
                    "Planning and lowering (docs/FUEL-COMPILE.md)");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<input .mlir>"),
                                                llvm::cl::init("-"),
                                                llvm::cl::cat(compileCategory));

static llvm::cl::opt<std::string> outputFilename(
    "o",
    llvm::cl::desc("Output file: the executable, or with --emit the IR "
                   "('-' or nothing: standard output)"),
    llvm::cl::value_desc("file"), llvm::cl::init(""),
    llvm::cl::cat(compileCategory));

static llvm::cl::opt<std::string> topologyOption(
    "topology",
    llvm::cl::desc("Topology JSON file, or 'probe' to probe this machine "
                   "(default: the module's stamped topology, else the "
                   "built-in default)"),
    llvm::cl::value_desc("file|probe"), llvm::cl::init(""),
    llvm::cl::cat(compileCategory));

static llvm::cl::opt<std::string> planOption(
    "plan",
    llvm::cl::desc("fuel-plan options, verbatim: space-separated key=value, "
                   "every option but 'topology'"),
    llvm::cl::value_desc("options"), llvm::cl::init(""),
    llvm::cl::cat(compileCategory));

static llvm::cl::opt<Stage> emitStage(
    "emit",
    llvm::cl::desc("Print the IR after this stage instead of writing "
                   "the executable"),
    llvm::cl::init(Stage::Executable),
    llvm::cl::values(
        clEnumValN(Stage::Planned, "planned", "after fuel-plan"),
        clEnumValN(Stage::Outlined, "outlined", "after fuel-outline-kernels"),
        clEnumValN(Stage::Kernels, "kernels", "after fuel-apply-schedules"),
        clEnumValN(Stage::Bufferized, "bufferized",
                   "after fuel-bufferize-kernels"),
        clEnumValN(Stage::Host, "host", "after fuel-plan-buffers"),
        clEnumValN(Stage::Llvm, "llvm", "after convert-fuel-to-llvm"),
        clEnumValN(Stage::Asm, "asm",
                   "the assembly of the cpu kernels, for their target")),
    llvm::cl::cat(compileCategory));

/// Prints a command-line error the way the tool's other errors read.
static int commandLineError(const llvm::Twine &message) {
  llvm::errs() << "fuel-compile: error: " << message << "\n";
  return 2;
}

/// True when `module` is already planned: it carries a topology, every
/// node is placed and no kernel-bearing op is left outside a node. Planning
/// it again would re-form its nodes.
static bool isPlanned(ModuleOp module) {
  if (!module->hasAttr(FuelDialect::kTopologyAttrName))
    return false;
  WalkResult walk = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (auto node = dyn_cast<NodeOp>(op))
      return node.getPlacementAttr() ? WalkResult::skip()
                                     : WalkResult::interrupt();
    return isKernelBearing(op) ? WalkResult::interrupt()
                               : WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Adds the pass registered as `pass` to `pm`, or reports why it cannot for
/// the stage `stage`. `options`, when given, is the text inside the pass's
/// braces; it goes to the pass's own option parser, so a quoted value may
/// hold any character.
static LogicalResult addNamedPass(OpPassManager &pm, llvm::StringRef stage,
                                  llvm::StringRef pass,
                                  llvm::StringRef options = "") {
  const PassRegistryEntry *entry = PassInfo::lookup(pass);
  if (!entry)
    entry = PassPipelineInfo::lookup(pass);
  if (!entry) {
    llvm::errs() << "fuel-compile: error: stage '" << stage << "' needs pass '"
                 << pass << "', which this build of fuel-compile does not "
                 << "register\n";
    return failure();
  }
  std::string message;
  llvm::raw_string_ostream os(message);
  LogicalResult added =
      options.empty()
          ? parsePassPipeline(pass, pm, os)
          : entry->addToPipeline(pm, options, [&](const llvm::Twine &error) {
              os << error;
              return failure();
            });
  if (failed(added)) {
    llvm::errs() << "fuel-compile: error: cannot add pass '" << pass
                 << "': " << message << "\n";
    return failure();
  }
  return success();
}

/// Registers every pass a stage may name or a pass may build a pipeline
/// from (upstream bufferization and conversions included).
static void registerPasses() {
  registerAllPasses();
  registerFuelPasses();
  registerFuelPlanPipeline();
  registerFuelConversionPasses();
}

/// Prints the assembly of every cpu kernel module of `module` (in the LLVM
/// dialect), each for the target its schedules were chosen for: the code
/// the executable's shared object holds, before linking.
static LogicalResult printCpuAssembly(ModuleOp module, llvm::raw_ostream &os) {
  for (ModuleOp kernels : getCpuKernelModules(module)) {
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

/// Checks that an explicit `--topology` agrees with the one an already
/// planned module was planned for.
static LogicalResult checkStampedTopology(ModuleOp module) {
  if (topologyOption.empty())
    return success();
  auto stamped =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  llvm::Expected<::fuel::plan::Topology> resolved =
      ::fuel::target::resolveTopology(topologyOption);
  if (!resolved)
    return module.emitError() << "cannot use topology '" << topologyOption
                              << "': " << llvm::toString(resolved.takeError());
  TopologyAttr given = TopologyAttr::fromPlan(module.getContext(), *resolved);
  if (given.getHash() != stamped.getHash())
    return module.emitError()
           << "the module is already planned for topology "
           << ::fuel::plan::formatHash(stamped.getHash()) << " but topology '"
           << topologyOption << "' has hash "
           << ::fuel::plan::formatHash(given.getHash())
           << "; remove 'fuel.topology' and the placements to plan again";
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "fuel-compile: plan a tensor program and lower it to a fuel "
      "executable\n");

  // Options first, so a bad command line fails before any input is read.
  PlanPipelineOptions planOptions;
  {
    std::string message;
    llvm::raw_string_ostream os(message);
    // The option parser reports a bad value itself, on stderr; an unknown
    // key comes back in `message`.
    if (failed(planOptions.parseFromString(planOption, os))) {
      llvm::StringRef reason = llvm::StringRef(message).trim();
      return commandLineError("invalid --plan options '" + planOption + "'" +
                              (reason.empty() ? "" : ": ") + reason);
    }
  }
  if (planOptions.topology.hasValue())
    return commandLineError("--plan must not set 'topology'; pass "
                            "--topology=FILE|probe instead");
  planOptions.topology = topologyOption;

  bool serialize = emitStage == Stage::Executable;
  if (serialize && (outputFilename.empty() || outputFilename == "-"))
    return commandLineError("writing an executable needs -o FILE (use "
                            "--emit=STAGE to print IR)");
  std::string output =
      outputFilename.empty() ? std::string("-") : outputFilename.getValue();

  DialectRegistry registry;
  registry.insert<FuelDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "fuel-compile: error: " << errorMessage << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  PassManager pm(&context, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  applyDefaultTimingPassManagerCLOptions(pm);

  if (isPlanned(*module)) {
    if (!planOption.empty()) {
      module->emitError() << "the module is already planned; --plan applies "
                             "only to programs fuel-compile plans";
      return 1;
    }
    if (failed(checkStampedTopology(*module)))
      return 1;
  } else {
    buildPlanPipeline(pm, planOptions);
  }

  for (const StageStep &step : kLoweringSteps) {
    if (step.stage > emitStage)
      break;
    if (failed(addNamedPass(pm, step.name, step.pass)))
      return 1;
  }
  if (serialize) {
    if (llvm::StringRef(output).contains('"'))
      return commandLineError("the output path '" + output +
                              "' contains a double quote");
    if (failed(addNamedPass(pm, "executable", kSerializePass,
                            "output=\"" + output + "\"")))
      return 1;
  }

  // Open the IR output before running, so an unwritable path fails early.
  std::unique_ptr<llvm::ToolOutputFile> irOutput;
  if (!serialize) {
    irOutput = openOutputFile(output, &errorMessage);
    if (!irOutput) {
      llvm::errs() << "fuel-compile: error: " << errorMessage << "\n";
      return 1;
    }
  }

  if (failed(pm.run(*module)))
    return 1;

  if (irOutput) {
    if (emitStage == Stage::Asm) {
      if (failed(printCpuAssembly(*module, irOutput->os())))
        return 1;
    } else {
      module->print(irOutput->os());
      irOutput->os() << "\n";
    }
    irOutput->keep();
  }
  return 0;
}
