//===- fuel-profile-db.cpp - Inspect and fill profile databases -----------===//
//
// A small tool over lib/Judge (docs/PROFILE-DB.md):
//
//   fuel-profile-db DB --dump          every measurement and link, as JSON
//   fuel-profile-db DB --schema-version  the schema version
//   fuel-profile-db DB --record=PLANNED.mlir --time=KERNEL=NS[:NOISE] ...
//
// --record stores measurements for the candidates of a module that
// fuel-plan or fuel-plan-candidates planned, under exactly the keys
// fuel-annotate-costs looks up (ProfileKey.h): for every node and every
// candidate whose kernel id a --time names. NS is a time in ns, or `*F`: F
// times the candidate's Layer-1 time (hand-made databases for tests and
// what-if plans). Measurements come from fuel-judge; this is not a
// measuring tool. Errors name the file, the option or the node.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Judge/ProfileDB.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Planning/ProfileKey.h"
#include "fuel/Target/Version.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <optional>

using namespace llvm;
namespace judge = ::fuel::judge;
namespace plan = ::fuel::plan;

static cl::OptionCategory toolOptions("fuel-profile-db options");

static cl::opt<std::string> dbPath(cl::Positional, cl::Required,
                                   cl::desc("<profile database>"),
                                   cl::cat(toolOptions));
static cl::opt<bool> dump("dump",
                          cl::desc("Print every measurement and link as JSON "
                                   "(sorted by key; one object)"),
                          cl::cat(toolOptions));
static cl::opt<bool> version("schema-version",
                             cl::desc("Print the schema version"),
                             cl::cat(toolOptions));
static cl::opt<bool> create("create",
                            cl::desc("Create the database when it is missing"),
                            cl::cat(toolOptions));
static cl::opt<std::string>
    record("record",
           cl::desc("A planned module whose candidates --time measurements "
                    "are stored for"),
           cl::value_desc("planned.mlir"), cl::cat(toolOptions));
static cl::list<std::string>
    times("time",
          cl::desc("KERNEL=NS[:NOISE] or KERNEL=*FACTOR[:NOISE]: the median "
                   "(ns, or a factor of the Layer-1 time) and noise (ns) "
                   "stored for that kernel id"),
          cl::value_desc("kernel=ns[:noise]"), cl::cat(toolOptions));
static cl::opt<int64_t>
    poolThreads("profile-threads",
                cl::desc("The runtime thread-pool size of the keys (as "
                         "fuel-plan's profile-threads)"),
                cl::init(1), cl::cat(toolOptions));
static cl::opt<int64_t>
    timestamp("timestamp",
              cl::desc("The measurements' timestamp (seconds since the "
                       "epoch); default: now"),
              cl::init(-1), cl::cat(toolOptions));

namespace {
/// One --time.
struct TimeSpec {
  bool relative = false;
  double value = 0;
  double noise = 0;
};
} // namespace

static Expected<StringMap<TimeSpec>> parseTimes() {
  StringMap<TimeSpec> out;
  for (const std::string &item : times) {
    auto fail = [&](const Twine &why) {
      return createStringError(inconvertibleErrorCode(),
                               "--time=" + item + ": " + why);
    };
    auto [kernel, rest] = StringRef(item).rsplit('=');
    if (kernel.empty() || rest.empty() || !StringRef(item).contains('='))
      return fail("expected KERNEL=NS[:NOISE]");
    auto [median, noise] = rest.split(':');
    TimeSpec spec;
    if (median.consume_front("*"))
      spec.relative = true;
    if (median.getAsDouble(spec.value) || !std::isfinite(spec.value) ||
        spec.value < 0)
      return fail("'" + median + "' is not a non-negative number");
    if (!noise.empty() && (noise.getAsDouble(spec.noise) ||
                           !std::isfinite(spec.noise) || spec.noise < 0))
      return fail("noise '" + noise + "' is not a non-negative number");
    if (!out.try_emplace(kernel, spec).second)
      return fail("kernel '" + kernel + "' is given twice");
  }
  return out;
}

/// Prints every row of `db` as one JSON object, deterministically.
static Error dumpDatabase(judge::ProfileDB &db) {
  Expected<int64_t> v = db.schemaVersion();
  if (!v)
    return v.takeError();
  auto rows = db.measurements();
  if (!rows)
    return rows.takeError();
  auto links = db.links();
  if (!links)
    return links.takeError();
  json::OStream j(outs(), 2);
  j.object([&] {
    j.attribute("schema_version", *v);
    j.attributeArray("measurements", [&] {
      for (const auto &[key, m] : *rows)
        j.object([&] {
          j.attribute("kernel", key.kernelId);
          j.attribute("revision", plan::formatHash(key.revision));
          j.attribute("op", key.opKind);
          j.attributeArray("dtypes", [&] {
            for (const std::string &d : key.dtypes)
              j.value(d);
          });
          j.attributeArray("shapes", [&] {
            for (const std::vector<int64_t> &s : key.shapes)
              j.array([&] {
                for (int64_t d : s)
                  j.value(d);
              });
          });
          j.attributeObject("params", [&] {
            for (const auto &[k, val] : key.params)
              j.attribute(k, val);
          });
          j.attribute("size_class", static_cast<int64_t>(key.sizeClass));
          j.attribute("device",
                      key.deviceKind + ":" + std::to_string(key.deviceOrdinal));
          j.attribute("device_name", key.deviceName);
          j.attribute("device_driver", key.deviceDriver);
          j.attribute("pool_threads", key.poolThreads);
          j.attribute("library_threads", key.libraryThreads);
          j.attribute("median_ns", m.medianNs);
          j.attribute("p10_ns", m.p10Ns);
          j.attribute("p90_ns", m.p90Ns);
          j.attribute("iterations", m.iterations);
          j.attribute("noise_ns", m.noiseNs);
          j.attribute("timestamp", m.timestamp);
          j.attribute("fuel_version", m.fuelVersion);
        });
    });
    j.attributeArray("links", [&] {
      for (const judge::LinkMeasurement &l : *links)
        j.object([&] {
          j.attribute("from", l.from);
          j.attribute("to", l.to);
          j.attributeArray("sizes", [&] {
            for (uint64_t s : l.sizes)
              j.value(s);
          });
          j.attributeArray("times_ns", [&] {
            for (double t : l.timesNs)
              j.value(t);
          });
          j.attribute("latency_ns", l.latencyNs);
          j.attribute("bandwidth_bytes_per_sec", l.bandwidthBytesPerSec);
          j.attribute("timestamp", l.timestamp);
          j.attribute("fuel_version", l.fuelVersion);
        });
    });
  });
  outs() << "\n";
  return Error::success();
}

/// Stores the --time measurements for the candidates of `path`'s nodes.
static int recordModule(judge::ProfileDB &db,
                        const StringMap<TimeSpec> &specs) {
  // A planned module: the fuel dialect over the input's dialects (func,
  // arith, math, linalg, tensor); nothing here lowers it.
  mlir::DialectRegistry registry;
  registry.insert<mlir::fuel::FuelDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::tensor::TensorDialect>();
  mlir::MLIRContext context(registry);
  std::string message;
  std::unique_ptr<MemoryBuffer> input = mlir::openInputFile(record, &message);
  if (!input) {
    errs() << "fuel-profile-db: error: --record: " << message << "\n";
    return 1;
  }
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  int64_t now = timestamp >= 0
                    ? int64_t(timestamp)
                    : std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  mlir::fuel::ProfileKeySettings settings;
  settings.poolThreads = poolThreads;
  std::vector<std::pair<judge::MeasurementKey, judge::Measurement>> rows;
  StringMap<bool> used;
  for (mlir::func::FuncOp func : module->getOps<mlir::func::FuncOp>()) {
    if (func.isExternal())
      continue;
    bool unreadable = false;
    std::optional<mlir::fuel::PlanContext> planCtx =
        mlir::fuel::planContextFor(func, [&] { unreadable = true; });
    if (unreadable)
      return 1;
    if (!planCtx) {
      func.emitError() << "the module carries no topology; plan it first "
                          "(fuel-plan or fuel-plan-candidates)";
      return 1;
    }
    for (mlir::fuel::NodeOp node :
         func.getBody().front().getOps<mlir::fuel::NodeOp>()) {
      mlir::fuel::AlternativeSetAttr set = node.getAlternativesAttr();
      if (!set) {
        node.emitError() << mlir::fuel::describeNode(node)
                         << " has no alternatives; plan the module first";
        return 1;
      }
      for (mlir::fuel::CandidateAttr attr : set.getCandidates()) {
        plan::Candidate c = mlir::fuel::toPlan(attr);
        auto it = specs.find(c.kernelId);
        if (it == specs.end())
          continue;
        used[c.kernelId] = true;
        const TimeSpec &spec = it->second;
        judge::Measurement m;
        m.medianNs =
            spec.relative ? spec.value * double(c.layer1TimeNs()) : spec.value;
        m.p10Ns = m.p90Ns = m.medianNs;
        m.iterations = 1;
        m.noiseNs = spec.noise;
        m.timestamp = now;
        m.fuelVersion = ::fuel::target::kFuelVersion;
        rows.emplace_back(
            mlir::fuel::measurementKey(
                node, c,
                static_cast<uint32_t>(set.getDecision().getSizeClass()),
                planCtx->topology, settings),
            std::move(m));
      }
    }
  }
  for (const auto &entry : specs)
    if (!used.count(entry.getKey())) {
      errs() << "fuel-profile-db: error: --time: no candidate of " << record
             << " has kernel id '" << entry.getKey() << "'\n";
      return 1;
    }
  if (Error err = db.insertAll(rows)) {
    logAllUnhandledErrors(std::move(err), errs(), "fuel-profile-db: error: ");
    return 1;
  }
  outs() << "fuel-profile-db: stored " << rows.size() << " measurement"
         << (rows.size() == 1 ? "" : "s") << " in " << dbPath << "\n";
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(
      argc, argv, "fuel-profile-db: inspect and fill fuel profile databases\n");

  Expected<StringMap<TimeSpec>> specs = parseTimes();
  if (!specs) {
    logAllUnhandledErrors(specs.takeError(), errs(),
                          "fuel-profile-db: error: ");
    return 1;
  }
  if (record.empty() != specs->empty()) {
    errs() << "fuel-profile-db: error: --record and --time go together\n";
    return 1;
  }
  if (!dump && !version && record.empty()) {
    errs() << "fuel-profile-db: error: nothing to do (--dump, "
              "--schema-version or --record)\n";
    return 1;
  }
  Expected<std::unique_ptr<judge::ProfileDB>> db =
      judge::ProfileDB::open(dbPath, create || !record.empty());
  if (!db) {
    logAllUnhandledErrors(db.takeError(), errs(), "fuel-profile-db: error: ");
    return 1;
  }
  if (!record.empty())
    if (int rc = recordModule(**db, *specs))
      return rc;
  if (version) {
    Expected<int64_t> v = (*db)->schemaVersion();
    if (!v) {
      logAllUnhandledErrors(v.takeError(), errs(), "fuel-profile-db: error: ");
      return 1;
    }
    outs() << *v << "\n";
  }
  if (dump)
    if (Error err = dumpDatabase(**db)) {
      logAllUnhandledErrors(std::move(err), errs(), "fuel-profile-db: error: ");
      return 1;
    }
  return 0;
}
