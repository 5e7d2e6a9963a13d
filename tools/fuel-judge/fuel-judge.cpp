//===- fuel-judge.cpp - Measures kernels into a profile database ----------===//
//
// `fuel-judge IN.mlir --topology=T --db=FILE [--budget=SECONDS]` measures
// every retained alternative of every node here and stores the results;
// `--emit-jobs=DIR` writes the jobs for `fuel-run --measure` instead, and
// `--ingest=RESULTS --db=FILE` stores what that measured;
// `--calibrate-links` measures the copy links between the devices present.
// docs/FUEL-JUDGE.md is the manual.
//
//===----------------------------------------------------------------------===//

#include "Jobs.h"
#include "Judge.h"
#include "fuel/Compiler/Compiler.h"
#include "fuel/Judge/ProfileDB.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
namespace judge = ::fuel::judge;

static llvm::cl::OptionCategory
    judgeCategory("fuel-judge options",
                  "Measuring kernels (docs/FUEL-JUDGE.md)");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<input .mlir>"),
                                                llvm::cl::init(""),
                                                llvm::cl::cat(judgeCategory));

static llvm::cl::opt<std::string> topologyOption(
    "topology",
    llvm::cl::desc("Topology JSON file, or 'probe' (default: the built-in "
                   "default)"),
    llvm::cl::value_desc("file|probe"), llvm::cl::init(""),
    llvm::cl::cat(judgeCategory));

static llvm::cl::opt<std::string>
    dbOption("db", llvm::cl::desc("The profile database (created when absent)"),
             llvm::cl::value_desc("file"), llvm::cl::init(""),
             llvm::cl::cat(judgeCategory));

static llvm::cl::opt<std::string> emitJobsOption(
    "emit-jobs",
    llvm::cl::desc("Write the jobs (executables and manifest.json) to this "
                   "directory for fuel-run --measure, measure nothing"),
    llvm::cl::value_desc("dir"), llvm::cl::init(""),
    llvm::cl::cat(judgeCategory));

static llvm::cl::opt<std::string> ingestOption(
    "ingest", llvm::cl::desc("Store the results of fuel-run --measure in --db"),
    llvm::cl::value_desc("results.json"), llvm::cl::init(""),
    llvm::cl::cat(judgeCategory));

static llvm::cl::opt<double> budgetOption(
    "budget",
    llvm::cl::desc("The whole run's wall time in seconds (default 600); what "
                   "is measured when it runs out is kept, the rest listed"),
    llvm::cl::value_desc("seconds"), llvm::cl::init(600),
    llvm::cl::cat(judgeCategory));

static llvm::cl::opt<unsigned> threadsOption(
    "cpu-threads",
    llvm::cl::desc("CPU threads of the runtime (default 1, what fuel-plan's "
                   "profile-threads assumes; 0: every core); part of every "
                   "measurement's key"),
    llvm::cl::init(1), llvm::cl::cat(judgeCategory));

static llvm::cl::opt<bool> calibrateOption(
    "calibrate-links",
    llvm::cl::desc("Measure the copies between the devices present (64 KiB, "
                   "4 MiB, 64 MiB), their streaming bandwidth and dispatch "
                   "overhead, and write a topology with them"),
    llvm::cl::init(false), llvm::cl::cat(judgeCategory));

static llvm::cl::opt<std::string> emitTopologyOption(
    "emit-topology",
    llvm::cl::desc("Where --calibrate-links writes the topology ('-': "
                   "standard output)"),
    llvm::cl::value_desc("file"), llvm::cl::init(""),
    llvm::cl::cat(judgeCategory));

static int usageError(const std::string &message) {
  llvm::errs() << "fuel-judge: error: " << message << "\n";
  return 2;
}

static int fail(llvm::Error e) {
  llvm::errs() << "fuel-judge: error: " << llvm::toString(std::move(e)) << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(judgeCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "fuel-judge: measure a program's kernel alternatives into a profile "
      "database\n");
  // The options' values, copied before anything runs: linking in process
  // (lld) resets every command-line option to its default.
  const std::string input = inputFilename, topology = topologyOption,
                    dbPath = dbOption, jobsDir = emitJobsOption,
                    ingestPath = ingestOption, topologyOut = emitTopologyOption;
  const double budget = budgetOption;
  const unsigned threads = threadsOption;
  const bool calibrate = calibrateOption;

  if (!(budget > 0) || budget > 1e7)
    return usageError("--budget expects seconds, a number > 0");

  // --calibrate-links: no program.
  if (calibrate) {
    if (!input.empty() || !jobsDir.empty() || !ingestPath.empty())
      return usageError("--calibrate-links takes no program, --emit-jobs or "
                        "--ingest");
    if (topologyOut.empty())
      return usageError("--calibrate-links needs --emit-topology=OUT.json");
    std::unique_ptr<judge::ProfileDB> db;
    if (!dbPath.empty()) {
      llvm::Expected<std::unique_ptr<judge::ProfileDB>> opened =
          judge::ProfileDB::open(dbPath);
      if (!opened)
        return fail(opened.takeError());
      db = std::move(*opened);
    }
    judge::CalibrateOptions options;
    options.topology = topology;
    options.threads = threads;
    llvm::Expected<std::string> text =
        judge::calibrateLinks(options, db.get(), llvm::errs());
    if (!text)
      return fail(text.takeError());
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(topologyOut, &error);
    if (!out) {
      llvm::errs() << "fuel-judge: error: --emit-topology: " << error << "\n";
      return 1;
    }
    out->os() << *text;
    out->keep();
    return 0;
  }
  if (!topologyOut.empty())
    return usageError("--emit-topology goes with --calibrate-links");

  // --ingest: no program.
  if (!ingestPath.empty()) {
    if (!input.empty() || !jobsDir.empty())
      return usageError("--ingest takes no program and no --emit-jobs");
    if (dbPath.empty())
      return usageError("--ingest needs --db=FILE");
    llvm::Expected<std::unique_ptr<judge::ProfileDB>> db =
        judge::ProfileDB::open(dbPath);
    if (!db)
      return fail(db.takeError());
    llvm::Expected<size_t> n = judge::ingestResults(ingestPath, **db);
    if (!n)
      return fail(n.takeError());
    llvm::outs() << "fuel-judge: stored " << *n << " measurements in " << dbPath
                 << "\n";
    return 0;
  }

  if (input.empty())
    return usageError("no program given (fuel-judge IN.mlir --topology=T "
                      "--db=FILE | --emit-jobs=DIR)");
  if (jobsDir.empty() == dbPath.empty())
    return usageError(jobsDir.empty()
                          ? "give --db=FILE (measure here) or --emit-jobs=DIR"
                          : "--emit-jobs and --db exclude each other (the "
                            "database takes results with --ingest)");

  DialectRegistry registry;
  mlir::fuel::registerCompilerDialects(registry);
  MLIRContext context(registry);
  // A diagnostic's location names its op; its text (a node's runs to
  // kilobytes) would drown the message.
  context.printOpOnDiagnostic(false);
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(input, &errorMessage);
  if (!buffer) {
    llvm::errs() << "fuel-judge: error: " << errorMessage << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  if (!jobsDir.empty()) {
    llvm::Expected<std::vector<judge::Job>> jobs =
        judge::enumerateJobs(*module, topology);
    if (!jobs)
      return fail(jobs.takeError());
    if (llvm::Error e = judge::emitJobs(*jobs, topology, jobsDir))
      return fail(std::move(e));
    llvm::outs() << "fuel-judge: " << jobs->size() << " jobs in " << jobsDir
                 << "/manifest.json\n";
    return 0;
  }

  llvm::Expected<std::unique_ptr<judge::ProfileDB>> db =
      judge::ProfileDB::open(dbPath);
  if (!db)
    return fail(db.takeError());
  judge::JudgeOptions options;
  options.topology = topology;
  options.budgetSeconds = budget;
  options.threads = threads;
  options.progressBar = llvm::sys::Process::StandardErrIsDisplayed();
  llvm::Expected<std::vector<judge::JudgedJob>> judged =
      judge::measureProgram(*module, **db, options, llvm::errs());
  if (!judged)
    return fail(judged.takeError());
  judge::printSummary(*judged, llvm::outs());
  return 0;
}
