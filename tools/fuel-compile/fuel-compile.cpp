//===- fuel-compile.cpp - Plan and lower a program to an executable -------===//
//
// `fuel-compile IN.mlir -o OUT.fuelx [--topology=FILE|probe]
// [--plan="OPTIONS"] [--emit=STAGE]`: plans a program (unless it is already
// planned), lowers it stage by stage and writes the executable libfuelrt
// runs, prints the IR after one stage, or (`--emit=asm`) prints the
// assembly of the cpu kernels. docs/FUEL-COMPILE.md describes it. An input
// named `*.onnx` is imported first (fuel/Import/OnnxImport.h, docs/ONNX.md),
// with --fold-input and --shape as fuel-import-onnx has them.
//
// A thin client of the compile API (fuel/Compiler/Compiler.h): the options
// become CompileOptions, the pass manager's command-line options and the
// --compile-stats clock are applied through its configurePassManager hook,
// `lower` stops after an --emit stage and `compile` returns the executable's
// bytes, which the tool writes.
//
//===----------------------------------------------------------------------===//

#include "fuel/Compiler/Compiler.h"
#include "fuel/Conversion/Passes.h"
#include "fuel/Import/OnnxImport.h"
#include "fuel/Lowering/SerializeExecutable.h"
#include "fuel/Planning/PlanExport.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <mutex>
#include <string>

using namespace mlir;
using namespace mlir::fuel;

namespace {
/// What `--emit` prints: the IR after a stage of docs/ARCHITECTURE.md (the
/// values of CompileStage, in pipeline order), `Asm` (through `Llvm`, then
/// the assembly of the cpu kernels); `Executable` (the default) runs every
/// stage and serializes.
enum class Stage {
  Planned,
  Outlined,
  Kernels,
  Bufferized,
  Host,
  Llvm,
  Spirv,
  Ptx,
  Asm,
  Executable
};
static_assert(static_cast<int>(Stage::Ptx) ==
              static_cast<int>(CompileStage::Ptx));
} // namespace

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
        clEnumValN(Stage::Spirv, "spirv", "after convert-fuel-to-spirv"),
        clEnumValN(Stage::Ptx, "ptx", "after convert-fuel-to-nvvm"),
        clEnumValN(Stage::Asm, "asm",
                   "the assembly of the cpu kernels, for their target")),
    llvm::cl::cat(compileCategory));

static llvm::cl::opt<std::string> cudaToolkitOption(
    "cuda-toolkit",
    llvm::cl::desc("CUDA toolkit directory whose libdevice the PTX links for "
                   "math functions without an approximation or an NVPTX "
                   "instruction ('' for none; default: the toolkit found "
                   "when fuel was built). Never read from the environment"),
    llvm::cl::value_desc("dir"), llvm::cl::cat(compileCategory));

static llvm::cl::list<std::string> onnxFoldInputs(
    "fold-input",
    llvm::cl::desc("For an .onnx input: turn a graph input into a constant "
                   "read from a serialized TensorProto (NAME=FILE.pb)"),
    llvm::cl::value_desc("name=file"), llvm::cl::cat(compileCategory));

static llvm::cl::list<std::string> onnxShapes(
    "shape",
    llvm::cl::desc("For an .onnx input: fix the shape of a graph input with "
                   "dynamic dimensions (NAME=D0xD1...)"),
    llvm::cl::value_desc("name=dims"), llvm::cl::cat(compileCategory));

static llvm::cl::opt<bool> statsOption(
    "compile-stats",
    llvm::cl::desc("Print one line on standard error: the distinct kernels, "
                   "dispatches, kernels per second and the wall time of "
                   "each phase"),
    llvm::cl::init(false), llvm::cl::cat(compileCategory));

namespace {
/// Wall seconds of the compile's phases for --compile-stats: the top-level
/// passes of the pass manager, by phase (planning until fuel-outline-kernels,
/// lowering until fuel-serialize-executable, then serialization). The pass
/// manager owns the clock and is destroyed inside compile() and lower(), so
/// the seconds go to storage of the caller's, which outlives both.
class PhaseClock : public PassInstrumentation {
public:
  enum Phase { Planning, Lowering, Serializing, NumPhases };
  explicit PhaseClock(double (&seconds)[NumPhases]) : seconds(seconds) {}

  void runBeforePass(Pass *pass, Operation *) override {
    std::lock_guard<std::mutex> lock(mutex);
    // Passes nested in a top-level one (possibly on other threads) count
    // as part of it.
    if (active)
      return;
    active = pass;
    StringRef arg = pass->getArgument();
    if (arg == "fuel-outline-kernels")
      phase = Lowering;
    else if (arg == "fuel-serialize-executable")
      phase = Serializing;
    start = std::chrono::steady_clock::now();
  }
  void runAfterPass(Pass *pass, Operation *) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (pass != active)
      return;
    active = nullptr;
    seconds[phase] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    runAfterPass(pass, op);
  }

private:
  double (&seconds)[NumPhases];
  std::mutex mutex;
  Pass *active = nullptr;
  Phase phase = Planning;
  std::chrono::steady_clock::time_point start;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// The --compile-stats line (docs/FUEL-COMPILE.md, "Where the time goes").
void printStats(llvm::raw_ostream &os, double parse,
                const double (&phases)[PhaseClock::NumPhases],
                const SerializeStats *stats, double total) {
  auto fmt = [](double s) { return llvm::formatv("{0:f2} s", s).str(); };
  os << "fuel-compile:";
  auto count = [&](unsigned n, StringRef one, StringRef many) {
    os << n << " " << (n == 1 ? one : many);
  };
  if (stats) {
    unsigned kernels = stats->generatedKernels + stats->libraryKernels;
    os << " ";
    count(kernels, "kernel", "kernels");
    os << " (" << stats->generatedKernels << " generated in ";
    count(stats->modules, "module", "modules");
    os << ", " << stats->libraryKernels << " library), ";
    count(stats->launches, "dispatch", "dispatches");
    os << ", ";
    count(stats->transfers, "copy", "copies");
    os << ", " << llvm::formatv("{0:f1}", total > 0 ? kernels / total : 0.0)
       << " kernels/s;";
  }
  os << " parse " << fmt(parse) << ", planning "
     << fmt(phases[PhaseClock::Planning]) << ", lowering "
     << fmt(phases[PhaseClock::Lowering]);
  if (stats) {
    const CpuObjectTimes &o = stats->object;
    os << ", LLVM IR " << fmt(o.translate) << ", LLVM O3 " << fmt(o.optimize)
       << ", LLVM codegen " << fmt(o.codegen) << " (";
    count(o.parts, "part", "parts");
    os << "), link " << fmt(o.link) << ", serialize "
       << fmt(stats->seconds - o.translate - o.optimize - o.codegen - o.link);
  }
  os << ", total " << fmt(total) << "\n";
}
} // namespace

/// Whether the command line gave MLIR's --mlir-print-op-on-diagnostic
/// (either value): without it, diagnostics carry no op text.
static bool printOpOnDiagnosticGiven() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("mlir-print-op-on-diagnostic");
  return it != options.end() && it->second->getNumOccurrences() > 0;
}

/// Prints a command-line error the way the tool's other errors read.
static int commandLineError(const llvm::Twine &message) {
  llvm::errs() << "fuel-compile: error: " << message << "\n";
  return 2;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerCompilerPasses();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "fuel-compile: plan a tensor program and lower it to a fuel "
      "executable\n");

  // Options first, so a bad command line fails before any input is read.
  PlanningOptions planning;
  {
    std::string reason;
    if (failed(parsePlanningOptions(planOption, planning, reason)))
      return commandLineError("invalid --plan options '" + planOption +
                              "': " + reason);
  }
  planning.topology = topologyOption;

  bool serialize = emitStage == Stage::Executable;
  if (serialize && (outputFilename.empty() || outputFilename == "-"))
    return commandLineError("writing an executable needs -o FILE (use "
                            "--emit=STAGE to print IR)");
  std::string output =
      outputFilename.empty() ? std::string("-") : outputFilename.getValue();

  auto startTime = std::chrono::steady_clock::now();
  // The timing report (--mlir-timing): parsing, every pass (the object
  // steps nested in fuel-serialize-executable) and printing the IR. The
  // scope ends before the manager prints.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope rootTiming = timingManager.getRootScope();

  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  // A diagnostic's location names its op; the op's text (a planned node's
  // runs to kilobytes) only when asked for.
  if (!printOpOnDiagnosticGiven())
    context.printOpOnDiagnostic(false);

  std::string errorMessage;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module;
  if (llvm::StringRef(inputFilename).ends_with(".onnx")) {
    // An ONNX model: imported to the ingress IR, then compiled as parsed IR.
    OnnxImportOptions onnxOptions;
    for (const std::string &f : onnxFoldInputs) {
      std::string name, file;
      if (!parseOnnxFoldOption(f, name, file, errorMessage)) {
        llvm::errs() << "fuel-compile: error: --fold-input: " << errorMessage
                     << "\n";
        return 1;
      }
      onnxOptions.foldInputs.emplace_back(name, file);
    }
    for (const std::string &s : onnxShapes) {
      std::string name;
      std::vector<int64_t> dims;
      if (!parseOnnxShapeOption(s, name, dims, errorMessage)) {
        llvm::errs() << "fuel-compile: error: --shape: " << errorMessage
                     << "\n";
        return 1;
      }
      onnxOptions.shapes.emplace_back(name, dims);
    }
    TimingScope parsing = rootTiming.nest("ONNX import");
    module = importOnnxFile(&context, inputFilename, onnxOptions);
  } else {
    std::unique_ptr<llvm::MemoryBuffer> input =
        openInputFile(inputFilename, &errorMessage);
    if (!input) {
      llvm::errs() << "fuel-compile: error: " << errorMessage << "\n";
      return 1;
    }
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    TimingScope parsing = rootTiming.nest("Parser");
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  double parseSeconds = secondsSince(startTime);
  if (!module)
    return 1;

  if (!planOption.empty() && isPlanned(*module)) {
    module->emitError() << "the module is already planned; --plan applies "
                           "only to programs fuel-compile plans";
    return 1;
  }

  CompileOptions options;
  options.planning = planning;
  if (cudaToolkitOption.getNumOccurrences())
    options.cudaToolkit = cudaToolkitOption.getValue();
  options.timing = timingManager.getRootTimer();
  SerializeStats serializeStats;
  if (serialize)
    options.stats = &serializeStats;
  // Read now: the in-process link resets every cl::opt to its default.
  bool stats = statsOption;
  double phaseSeconds[PhaseClock::NumPhases] = {};
  options.configurePassManager = [&](PassManager &pm) -> LogicalResult {
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    if (stats)
      pm.addInstrumentation(std::make_unique<PhaseClock>(phaseSeconds));
    return success();
  };

  // Open the IR output before running, so an unwritable path fails early.
  std::unique_ptr<llvm::ToolOutputFile> irOutput;
  if (!serialize) {
    irOutput = openOutputFile(output, &errorMessage);
    if (!irOutput) {
      llvm::errs() << "fuel-compile: error: " << errorMessage << "\n";
      return 1;
    }
  }

  if (serialize) {
    FailureOr<std::vector<uint8_t>> bytes = compile(*module, options);
    if (failed(bytes))
      return 1;
    if (failed(writeOutputFile(
            *module, output, "executable", [&](llvm::raw_ostream &os) {
              os.write(reinterpret_cast<const char *>(bytes->data()),
                       bytes->size());
            })))
      return 1;
  } else {
    CompileStage last = emitStage == Stage::Asm
                            ? CompileStage::Llvm
                            : static_cast<CompileStage>(emitStage.getValue());
    if (failed(lower(*module, options, last)))
      return 1;
    TimingScope printing = rootTiming.nest("Output");
    if (emitStage == Stage::Asm) {
      if (failed(printCpuKernelsAssembly(*module, irOutput->os())))
        return 1;
    } else {
      module->print(irOutput->os());
      irOutput->os() << "\n";
    }
    irOutput->keep();
  }
  if (stats)
    printStats(llvm::errs(), parseSeconds, phaseSeconds,
               serialize ? &serializeStats : nullptr, secondsSince(startTime));
  return 0;
}
