//===- ImportPlan.cpp - Pins nodes to an exported plan's placements -------===//
//
// fuel-import-plan: reads a plan file (docs/PLAN-FORMAT.md) and pins every
// node it places, so planning the module again reproduces the placements.
// The file is read whole and checked before anything changes: a malformed
// file or any mismatch with the module leaves the IR as it was.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Device.h"
#include "fuel/Planner/Topology.h"
#include "fuel/Planning/PlanExport.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Target/JSONReader.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <optional>
#include <set>
#include <unordered_map>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELIMPORTPLANPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-import-plan"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;
using ::fuel::target::jsonField;
using ::fuel::target::jsonIndex;

namespace {
/// A node entry of the file, as far as import reads it.
struct NodeEntry {
  int64_t id = 0;
  OpKind kind = OpKind::matmul;
  /// Null when the file records no placement.
  DeviceAttr placement;
  /// The node's forced kernel (since version 3); null when none.
  StringAttr kernel;
};

/// A function entry of the file.
struct FunctionEntry {
  std::string name;
  std::vector<NodeEntry> nodes;
};

/// What import reads from a plan file.
struct PlanFile {
  /// Empty when the file has no `topology_hash`.
  std::string topologyHash;
  /// The recorded `config.kernel_sources` in canonical spelling ("" for
  /// every source); std::nullopt when the file records no configuration.
  std::optional<std::string> kernelSources;
  std::vector<FunctionEntry> functions;
};

/// Reads the parts of a plan file import needs with the strict JSON reader,
/// reporting the first problem with its JSON path (e.g.
/// `functions[0].nodes[2].id`; plan file paths start at the root's keys).
class PlanReader {
public:
  PlanReader(MLIRContext *ctx, ::fuel::target::JSONReader &reader)
      : ctx(ctx), r(reader) {}

  /// Fills `out` from `root`; on failure the reader holds the error.
  bool read(const llvm::json::Value &root, PlanFile &out);

private:
  /// `o[key]` as an array; "missing" when absent.
  const llvm::json::Array *array(const llvm::json::Object &o,
                                 llvm::StringRef key, llvm::StringRef path);
  bool readFunction(const llvm::json::Value &v, const std::string &path,
                    FunctionEntry &out);
  bool readNode(const llvm::json::Value &v, const std::string &path,
                NodeEntry &out);

  MLIRContext *ctx;
  ::fuel::target::JSONReader &r;
};

struct ImportPlanPass
    : public mlir::fuel::impl::FuelImportPlanPassBase<ImportPlanPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// How an error names a present or absent value: "got ..." in messages.
static std::string describe(const llvm::json::Value *v) {
  return v ? ::fuel::target::describeJSON(*v) : "nothing";
}

const llvm::json::Array *PlanReader::array(const llvm::json::Object &o,
                                           llvm::StringRef key,
                                           llvm::StringRef path) {
  const llvm::json::Value *v = o.get(key);
  if (!v) {
    r.fail(path, "missing");
    return nullptr;
  }
  return r.array(*v, path);
}

bool PlanReader::readNode(const llvm::json::Value &v, const std::string &path,
                          NodeEntry &out) {
  const llvm::json::Object *o = r.object(v, path);
  if (!o)
    return false;
  const llvm::json::Value *id = o->get("id");
  if (!id || !::fuel::target::jsonInt64(*id))
    return r.fail(jsonField(path, "id"),
                  "expected an integer node id, got " + describe(id));
  out.id = *::fuel::target::jsonInt64(*id);
  const llvm::json::Value *kind = o->get("kind");
  std::optional<OpKind> parsedKind;
  if (kind && kind->getAsString())
    parsedKind = symbolizeOpKind(*kind->getAsString());
  if (!parsedKind)
    return r.fail(jsonField(path, "kind"),
                  "expected an op kind, got " + describe(kind));
  out.kind = *parsedKind;
  if (const llvm::json::Value *kernel = o->get("kernel");
      kernel && kernel->kind() != llvm::json::Value::Null) {
    std::optional<llvm::StringRef> id = kernel->getAsString();
    if (!id)
      return r.fail(jsonField(path, "kernel"),
                    "expected a kernel id such as \"cpu.openblas.matmul_f32\" "
                    "or null, got " +
                        describe(kernel));
    std::string problem = kernelIdShapeProblem(*id);
    if (!problem.empty())
      return r.fail(jsonField(path, "kernel"), problem);
    out.kernel = StringAttr::get(ctx, *id);
  }
  const llvm::json::Value *placement = o->get("placement");
  if (!placement || placement->kind() == llvm::json::Value::Null)
    return true;
  std::optional<plan::Device> device;
  if (placement->getAsString())
    device = plan::Device::parse(placement->getAsString()->str());
  if (!device)
    return r.fail(jsonField(path, "placement"),
                  "expected a device ('cpu', 'cuda:N', 'vulkan:N') or null, "
                  "got " +
                      describe(placement));
  out.placement = fromPlan(ctx, *device);
  return true;
}

bool PlanReader::readFunction(const llvm::json::Value &v,
                              const std::string &path, FunctionEntry &out) {
  const llvm::json::Object *o = r.object(v, path);
  if (!o)
    return false;
  const llvm::json::Value *name = o->get("name");
  if (!name || !name->getAsString())
    return r.fail(jsonField(path, "name"),
                  "expected a function name, got " + describe(name));
  out.name = name->getAsString()->str();
  std::string nodesPath = jsonField(path, "nodes");
  const llvm::json::Array *nodes = array(*o, "nodes", nodesPath);
  if (!nodes)
    return false;
  std::set<int64_t> seen;
  for (auto [i, n] : llvm::enumerate(*nodes)) {
    std::string nodePath = jsonIndex(nodesPath, i);
    NodeEntry entry;
    if (!readNode(n, nodePath, entry))
      return false;
    if (!seen.insert(entry.id).second)
      return r.fail(jsonField(nodePath, "id"),
                    "node " + Twine(entry.id) + " is listed twice");
    out.nodes.push_back(entry);
  }
  return true;
}

bool PlanReader::read(const llvm::json::Value &root, PlanFile &out) {
  const llvm::json::Object *o = r.object(root, "(root)");
  if (!o)
    return false;
  const llvm::json::Value *version = o->get("version");
  // Every version this build knows: the fields read here are the same in
  // all of them.
  std::string readable =
      ("this build reads versions " + Twine(kPlanFormatOldestVersion) + " to " +
       Twine(kPlanFormatVersion))
          .str();
  if (!version)
    return r.fail("version", "missing; " + readable);
  std::optional<int64_t> number = ::fuel::target::jsonInt64(*version);
  if (!number || *number < kPlanFormatOldestVersion ||
      *number > kPlanFormatVersion)
    return r.fail("version",
                  "unsupported version " + describe(version) + "; " + readable);
  if (const llvm::json::Value *hash = o->get("topology_hash"))
    if (!r.readString(*hash, "topology_hash", out.topologyHash))
      return false;
  if (const llvm::json::Value *config = o->get("config");
      config && config->kind() != llvm::json::Value::Null) {
    const llvm::json::Object *c = r.object(*config, "config");
    if (!c)
      return false;
    const llvm::json::Value *sources = c->get("kernel_sources");
    if (!sources || sources->kind() == llvm::json::Value::Null) {
      out.kernelSources = "";
    } else {
      const llvm::json::Array *list =
          r.array(*sources, "config.kernel_sources");
      if (!list)
        return false;
      std::string text;
      for (auto [i, v] : llvm::enumerate(*list)) {
        std::string item;
        if (!r.readString(v, jsonIndex("config.kernel_sources", i), item))
          return false;
        text += (text.empty() ? "" : ",") + item;
      }
      llvm::Expected<std::vector<::fuel::target::KernelSource>> parsed =
          ::fuel::target::parseKernelSources(text);
      if (!parsed)
        return r.fail("config.kernel_sources",
                      llvm::toString(parsed.takeError()));
      out.kernelSources = ::fuel::target::formatKernelSources(*parsed);
    }
  }
  const llvm::json::Array *functions = array(*o, "functions", "functions");
  if (!functions)
    return false;
  llvm::StringSet<> seen;
  for (auto [i, f] : llvm::enumerate(*functions)) {
    std::string path = jsonIndex("functions", i);
    FunctionEntry entry;
    if (!readFunction(f, path, entry))
      return false;
    if (!seen.insert(entry.name).second)
      return r.fail(jsonField(path, "name"),
                    "function '" + entry.name + "' is listed twice");
    out.functions.push_back(std::move(entry));
  }
  return true;
}

void ImportPlanPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  if (file.empty()) {
    module.emitError() << "fuel-import-plan needs a plan file (file=...)";
    return signalPassFailure();
  }

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(file, &message);
  if (!buffer) {
    module.emitError() << "cannot read the plan file '" << file
                       << "': " << message;
    return signalPassFailure();
  }
  ::fuel::target::JSONReader json(file);
  std::optional<llvm::json::Value> root = json.parse(buffer->getBuffer());
  if (!root) {
    module.emitError() << "malformed plan file " << json.errorLocation() << ": "
                       << json.errorMessage();
    return signalPassFailure();
  }
  PlanFile planFile;
  if (!PlanReader(ctx, json).read(*root, planFile)) {
    module.emitError() << "invalid plan file '" << file
                       << "': " << json.errorPath() << ": "
                       << json.errorMessage();
    return signalPassFailure();
  }

  // A plan made for another machine may name devices this one lacks, and
  // its placements were chosen for other costs; phase A reports the first.
  if (auto topology =
          module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
      topology && !planFile.topologyHash.empty() &&
      planFile.topologyHash != plan::formatHash(topology.getHash()))
    module.emitWarning() << "plan file '" << file << "' was made for topology "
                         << planFile.topologyHash << ", not this module's "
                         << plan::formatHash(topology.getHash());

  // Kernel sources other than the plan's may leave some exported winners
  // out of reach.
  if (auto config =
          module->getAttrOfType<PlanConfigAttr>(FuelDialect::kConfigAttrName);
      config && planFile.kernelSources &&
      *planFile.kernelSources != config.getKernelSources())
    module.emitWarning() << "plan file '" << file
                         << "' was made with kernel-sources="
                         << (planFile.kernelSources->empty()
                                 ? StringRef("<all>")
                                 : StringRef(*planFile.kernelSources))
                         << ", this module is planned with kernel-sources="
                         << (config.getSources().empty()
                                 ? std::string("<all>")
                                 : config.getKernelSources());

  // Match every entry first; pin only when all of them match.
  bool ok = true;
  SmallVector<std::pair<NodeOp, DeviceAttr>> pins;
  SmallVector<std::pair<NodeOp, StringAttr>> kernels;
  SymbolTable symbols(module);
  for (const FunctionEntry &f : planFile.functions) {
    auto func = symbols.lookup<func::FuncOp>(f.name);
    if (!func || func.isExternal()) {
      module.emitError() << "plan file '" << file << "' names function '"
                         << f.name << "', which the module "
                         << (func ? "declares without a body" : "lacks");
      ok = false;
      continue;
    }
    std::unordered_map<int64_t, NodeOp> byId;
    for (NodeOp node : func.getBody().front().getOps<NodeOp>())
      byId.emplace(node.getIdAttr().getInt(), node);
    for (const NodeEntry &n : f.nodes) {
      auto it = byId.find(n.id);
      if (it == byId.end()) {
        emitFunctionError(func)
            << "plan file '" << file << "' names node " << n.id << " of '"
            << f.name << "', which the function lacks";
        ok = false;
        continue;
      }
      NodeOp node = it->second;
      if (node.getKind() != n.kind) {
        node.emitError() << describeNode(node) << ": plan file '" << file
                         << "' records node " << n.id << " as "
                         << stringifyOpKind(n.kind);
        ok = false;
        continue;
      }
      if (n.placement)
        pins.emplace_back(node, n.placement);
      if (n.kernel)
        kernels.emplace_back(node, n.kernel);
    }
  }
  if (!ok)
    return signalPassFailure();
  for (auto [node, device] : pins)
    if (node.getPinAttr() != device)
      node.setPinAttr(device);
  for (auto [node, kernel] : kernels)
    if (node.getKernelAttr() != kernel)
      node.setKernelAttr(kernel);
  numPinned += pins.size();
}
