//===- Jobs.cpp - Measurement jobs: one candidate of one node -------------===//
//
// Plans with fuel-plan-candidates, collects each node's retained candidates,
// builds a one-node program per distinct key and compiles it (Jobs.h).
//
//===----------------------------------------------------------------------===//

#include "Jobs.h"

#include "fuel/Compiler/Compiler.h"
#include "fuel/Dialect/Fuel/IR/FuelAttrs.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Planning/ProfileKey.h"
#include "fuel/Target/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <fstream>

using namespace mlir;
using namespace mlir::fuel;

namespace fuel::judge {

std::string JobKey::device() const {
  return deviceKind == "cpu" ? std::string("cpu")
                             : deviceKind + ":" + std::to_string(deviceOrdinal);
}

static llvm::json::Array
shapesJson(const std::vector<std::vector<int64_t>> &shapes) {
  llvm::json::Array out;
  for (const auto &s : shapes) {
    llvm::json::Array dims;
    for (int64_t d : s)
      dims.push_back(d);
    out.push_back(std::move(dims));
  }
  return out;
}

static std::string hex64(uint64_t v) {
  return llvm::formatv("{0:x-16}", v).str();
}

/// The key as a JSON object, members in a fixed order: the manifest's `key`
/// and, printed compactly, the canonical text.
static llvm::json::Object keyJson(const JobKey &k) {
  llvm::json::Array dtypes;
  for (const std::string &d : k.dtypes)
    dtypes.push_back(d);
  llvm::json::Array params;
  for (const auto &p : k.params)
    params.push_back(llvm::json::Array{p.first, p.second});
  return llvm::json::Object{
      {"kernel_id", k.kernelId},
      {"revision", "0x" + hex64(k.revision)},
      {"op_kind", k.opKind},
      {"dtypes", std::move(dtypes)},
      {"shapes", shapesJson(k.shapes)},
      {"params", std::move(params)},
      {"size_class", int64_t(k.sizeClass)},
      {"device_kind", k.deviceKind},
      {"device_ordinal", k.deviceOrdinal},
  };
}

std::string JobKey::canonical() const {
  // llvm::json::Object sorts its keys when printed: a fixed order.
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::json::Value(keyJson(*this));
  return s;
}

/// FNV-1a, 64 bits: a stable hash of the canonical text for job ids.
static uint64_t fnv1a(llvm::StringRef s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

static std::string typeText(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// Whether every operand and result of `node` is a statically shaped
/// tensor (what a one-node program can be fed and measured with).
static bool staticallyShaped(NodeOp node) {
  auto isStatic = [](Type t) {
    auto r = dyn_cast<RankedTensorType>(t);
    return r && r.hasStaticShape();
  };
  return llvm::all_of(node->getOperandTypes(), isStatic) &&
         llvm::all_of(node->getResultTypes(), isStatic);
}

/// The device-independent fields of `key`, the planner's key
/// (mlir::fuel::measurementKey): the device's name and driver and the
/// runtime settings are filled in where the job is measured.
static JobKey jobKey(const MeasurementKey &key) {
  JobKey k;
  k.kernelId = key.kernelId;
  k.revision = key.revision;
  k.opKind = key.opKind;
  k.dtypes = key.dtypes;
  k.shapes = key.shapes;
  k.params = key.params;
  k.sizeClass = key.sizeClass;
  k.deviceKind = key.deviceKind;
  k.deviceOrdinal = key.deviceOrdinal;
  return k;
}

/// The one-node program of `node` forcing `candidate`: a function taking
/// the node's operands and returning its results, its body the node's, the
/// op that produces the first result marked with `fuel.kernel` and
/// `fuel.pin`.
static OwningOpRef<ModuleOp> oneNodeProgram(NodeOp node,
                                            CandidateAttr candidate) {
  MLIRContext *ctx = node->getContext();
  Location loc = node.getLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module->getBody());
  auto type =
      b.getFunctionType(node->getOperandTypes(), node->getResultTypes());
  auto func = func::FuncOp::create(b, loc, "judge_job", type);
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  Block &body = node.getBody().front();
  IRMapping map;
  for (auto [arg, value] :
       llvm::zip(body.getArguments(), entry->getArguments()))
    map.map(arg, value);
  Operation *yield = body.getTerminator();
  for (Operation &op : body.without_terminator())
    b.clone(op, map);
  SmallVector<Value> results;
  for (Value v : yield->getOperands())
    results.push_back(map.lookupOrDefault(v));
  func::ReturnOp::create(b, loc, results);
  if (!results.empty())
    if (Operation *root = results.front().getDefiningOp()) {
      root->setAttr(FuelDialect::kKernelAttrName,
                    b.getStringAttr(candidate.getKernelId()));
      root->setAttr(FuelDialect::kPinAttrName, candidate.getDevice());
    }
  return module;
}

llvm::Expected<std::vector<Job>> enumerateJobs(ModuleOp module,
                                               llvm::StringRef topology) {
  OwningOpRef<ModuleOp> planned(cast<ModuleOp>(module->clone()));
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  PlanningOptions options;
  options.topology = topology.str();
  buildPlanCandidatesPipeline(pm, options);
  if (failed(pm.run(*planned)))
    return llvm::createStringError("planning the candidates failed");

  std::vector<Job> jobs;
  llvm::StringMap<size_t> seen; // canonical key -> index in jobs
  for (auto func : planned->getOps<func::FuncOp>()) {
    std::string funcName = func.getSymName().str();
    for (auto node : func.getOps<NodeOp>()) {
      AlternativeSetAttr alts = node.getAlternativesAttr();
      if (!alts)
        continue;
      DecisionAttr decision = alts.getDecision();
      if (!staticallyShaped(node))
        return llvm::createStringError(
            llvm::formatv("@{0} node {1}: an operand or result is not a "
                          "statically shaped tensor",
                          funcName, node.getId())
                .str());
      for (CandidateAttr c : alts.getCandidates()) {
        // The planner's own key, so what is stored is what
        // fuel-annotate-costs looks up; an empty topology leaves the
        // device's name and driver to the measuring step.
        JobKey key = jobKey(mlir::fuel::measurementKey(
            node, toPlan(c), static_cast<uint32_t>(decision.getSizeClass()),
            ::fuel::plan::Topology(), ProfileKeySettings()));
        std::string canonical = key.canonical();
        auto [it, fresh] = seen.try_emplace(canonical, jobs.size());
        if (!fresh) {
          jobs[it->second].nodes.emplace_back(funcName, node.getId());
          continue;
        }
        Job job;
        job.id = hex64(fnv1a(canonical));
        job.key = std::move(key);
        job.function = funcName;
        job.nodeId = node.getId();
        job.layer1Ns = c.getTimeNs();
        job.nodes.emplace_back(funcName, node.getId());
        for (Type t : node->getOperandTypes()) {
          auto r = cast<RankedTensorType>(t);
          job.inputDtypes.push_back(typeText(r.getElementType()));
          job.inputShapes.push_back(
              std::vector<int64_t>(r.getShape().begin(), r.getShape().end()));
        }
        job.program = oneNodeProgram(node, c);
        jobs.push_back(std::move(job));
      }
    }
  }
  return jobs;
}

llvm::Expected<std::vector<uint8_t>> compileJob(const Job &job,
                                                llvm::StringRef topology) {
  OwningOpRef<ModuleOp> module(cast<ModuleOp>(job.program.get()->clone()));
  CompileOptions options;
  options.planning.topology = topology.str();
  // The job re-plans one node of the input, which enumerateJobs planned
  // first: its warnings (a device's prior rates, SEMANTICS §3 step 6) were
  // said then, once for the module, and are dropped here; errors pass on.
  ScopedDiagnosticHandler repeated(module->getContext(), [](Diagnostic &d) {
    return success(d.getSeverity() == DiagnosticSeverity::Warning);
  });
  FailureOr<std::vector<uint8_t>> bytes = compile(*module, options);
  if (failed(bytes))
    return llvm::createStringError(
        llvm::formatv("compiling job {0} ({1} on {2}, @{3} node {4}) failed",
                      job.id, job.key.kernelId, job.key.device(), job.function,
                      job.nodeId)
            .str());
  return std::move(*bytes);
}

static llvm::json::Object entryJson(const Job &job, llvm::StringRef exe) {
  llvm::json::Array inputs;
  for (size_t i = 0; i < job.inputDtypes.size(); ++i) {
    llvm::json::Array dims;
    for (int64_t d : job.inputShapes[i])
      dims.push_back(d);
    inputs.push_back(llvm::json::Object{{"dtype", job.inputDtypes[i]},
                                        {"shape", std::move(dims)}});
  }
  llvm::json::Array nodes;
  for (const auto &[function, id] : job.nodes)
    nodes.push_back(llvm::json::Array{function, id});
  return llvm::json::Object{
      {"id", job.id},
      {"nodes", std::move(nodes)},
      {"executable", exe.str()},
      {"device", job.key.device()},
      {"kernel", job.key.kernelId},
      {"function", job.function},
      {"node", job.nodeId},
      {"layer1_ns", job.layer1Ns},
      {"inputs", std::move(inputs)},
      {"key", keyJson(job.key)},
  };
}

std::string manifestEntry(const Job &job, llvm::StringRef executable) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::json::Value(entryJson(job, executable));
  return s;
}

std::string manifestText(const std::vector<Job> &jobs) {
  llvm::json::Array entries;
  for (const Job &job : jobs)
    entries.push_back(entryJson(job, job.id + ".fuelx"));
  llvm::json::Object doc{{"format", "fuel-judge-jobs"},
                         {"version", int64_t(1)},
                         {"fuel_version", ::fuel::target::kFuelVersion},
                         {"jobs", std::move(entries)}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
  return s;
}

/// Writes `bytes` to `path` through a temporary beside it and a rename, so
/// a reader never sees half a file.
static llvm::Error writeFileAtomically(llvm::StringRef path,
                                       llvm::StringRef bytes) {
  std::string tmp = path.str() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.close();
    if (!out)
      return llvm::createStringError(std::make_error_code(std::errc::io_error),
                                     "cannot write '%s'", tmp.c_str());
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path))
    return llvm::createStringError(ec, "cannot write '%s': %s",
                                   path.str().c_str(), ec.message().c_str());
  return llvm::Error::success();
}

llvm::Error emitJobs(const std::vector<Job> &jobs, llvm::StringRef topology,
                     llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "--emit-jobs: cannot create '%s': %s",
                                   dir.str().c_str(), ec.message().c_str());
  for (const Job &job : jobs) {
    llvm::Expected<std::vector<uint8_t>> bytes = compileJob(job, topology);
    if (!bytes)
      return bytes.takeError();
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, job.id + ".fuelx");
    if (llvm::Error e = writeFileAtomically(
            path, llvm::StringRef(reinterpret_cast<const char *>(bytes->data()),
                                  bytes->size())))
      return e;
  }
  llvm::SmallString<256> manifest(dir);
  llvm::sys::path::append(manifest, "manifest.json");
  return writeFileAtomically(manifest, manifestText(jobs));
}

} // namespace fuel::judge
