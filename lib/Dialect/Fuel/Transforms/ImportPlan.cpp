//===- ImportPlan.cpp - Pins nodes to an exported plan's placements -------===//
//
// fuel-import-plan: reads a plan file (docs/PLAN-FORMAT.md) and pins every
// node it places, so planning the module again reproduces the placements.
// The file is read whole and checked before anything changes: a malformed
// file or any mismatch with the module leaves the IR as it was.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/Transforms/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/Transforms/PlanExport.h"
#include "fuel/Dialect/Fuel/Transforms/PlanState.h"
#include "fuel/Planner/Device.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <optional>
#include <set>
#include <unordered_map>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELIMPORTPLANPASS
#include "fuel/Dialect/Fuel/Transforms/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-import-plan"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

namespace {
/// A node entry of the file, as far as import reads it.
struct NodeEntry {
  int64_t id = 0;
  OpKind kind = OpKind::matmul;
  /// Null when the file records no placement.
  DeviceAttr placement;
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
  std::vector<FunctionEntry> functions;
};

/// Reads the parts of a plan file import needs, reporting the first problem
/// with its JSON path (e.g. `functions[0].nodes[2].id`).
class PlanReader {
public:
  PlanReader(MLIRContext *ctx) : ctx(ctx) {}

  /// Fills `out` from `root`; on failure `error` says why.
  bool read(const llvm::json::Value &root, PlanFile &out);

  std::string error;

private:
  bool fail(const Twine &path, const Twine &message) {
    error = (path + ": " + message).str();
    return false;
  }
  const llvm::json::Object *object(const llvm::json::Value &v,
                                   const Twine &path);
  const llvm::json::Array *array(const llvm::json::Value *v, const Twine &path);
  bool readFunction(const llvm::json::Value &v, const std::string &path,
                    FunctionEntry &out);
  bool readNode(const llvm::json::Value &v, const std::string &path,
                NodeEntry &out);

  MLIRContext *ctx;
};

struct ImportPlanPass
    : public mlir::fuel::impl::FuelImportPlanPassBase<ImportPlanPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// How an error names a JSON value in messages.
static std::string describe(const llvm::json::Value &v) {
  switch (v.kind()) {
  case llvm::json::Value::Null:
    return "null";
  case llvm::json::Value::Boolean:
    return *v.getAsBoolean() ? "true" : "false";
  case llvm::json::Value::Number:
    if (std::optional<int64_t> i = v.getAsInteger())
      return std::to_string(*i);
    return "a number";
  case llvm::json::Value::String:
    return ("\"" + *v.getAsString() + "\"").str();
  case llvm::json::Value::Array:
    return "an array";
  case llvm::json::Value::Object:
    return "an object";
  }
  return "a value";
}

const llvm::json::Object *PlanReader::object(const llvm::json::Value &v,
                                             const Twine &path) {
  if (const llvm::json::Object *o = v.getAsObject())
    return o;
  fail(path, "expected an object, got " + describe(v));
  return nullptr;
}

const llvm::json::Array *PlanReader::array(const llvm::json::Value *v,
                                           const Twine &path) {
  if (!v) {
    fail(path, "missing");
    return nullptr;
  }
  if (const llvm::json::Array *a = v->getAsArray())
    return a;
  fail(path, "expected an array, got " + describe(*v));
  return nullptr;
}

bool PlanReader::readNode(const llvm::json::Value &v, const std::string &path,
                          NodeEntry &out) {
  const llvm::json::Object *o = object(v, path);
  if (!o)
    return false;
  const llvm::json::Value *id = o->get("id");
  if (!id || !id->getAsInteger())
    return fail(path + ".id", "expected an integer node id, got " +
                                  (id ? describe(*id) : "nothing"));
  out.id = *id->getAsInteger();
  const llvm::json::Value *kind = o->get("kind");
  std::optional<OpKind> parsedKind;
  if (kind && kind->getAsString())
    parsedKind = symbolizeOpKind(*kind->getAsString());
  if (!parsedKind)
    return fail(path + ".kind", "expected an op kind, got " +
                                    (kind ? describe(*kind) : "nothing"));
  out.kind = *parsedKind;
  const llvm::json::Value *placement = o->get("placement");
  if (!placement || placement->kind() == llvm::json::Value::Null)
    return true;
  std::optional<plan::Device> device;
  if (placement->getAsString())
    device = plan::Device::parse(placement->getAsString()->str());
  if (!device)
    return fail(path + ".placement",
                "expected a device ('cpu', 'cuda:N', 'vulkan:N') or null, "
                "got " +
                    describe(*placement));
  out.placement = fromPlan(ctx, *device);
  return true;
}

bool PlanReader::readFunction(const llvm::json::Value &v,
                              const std::string &path, FunctionEntry &out) {
  const llvm::json::Object *o = object(v, path);
  if (!o)
    return false;
  const llvm::json::Value *name = o->get("name");
  if (!name || !name->getAsString())
    return fail(path + ".name", "expected a function name, got " +
                                    (name ? describe(*name) : "nothing"));
  out.name = name->getAsString()->str();
  const llvm::json::Array *nodes = array(o->get("nodes"), path + ".nodes");
  if (!nodes)
    return false;
  std::set<int64_t> seen;
  for (auto [i, n] : llvm::enumerate(*nodes)) {
    std::string nodePath = path + ".nodes[" + std::to_string(i) + "]";
    NodeEntry entry;
    if (!readNode(n, nodePath, entry))
      return false;
    if (!seen.insert(entry.id).second)
      return fail(nodePath + ".id",
                  "node " + Twine(entry.id) + " is listed twice");
    out.nodes.push_back(entry);
  }
  return true;
}

bool PlanReader::read(const llvm::json::Value &root, PlanFile &out) {
  const llvm::json::Object *o = object(root, "(root)");
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
    return fail("version", "missing; " + readable);
  std::optional<int64_t> number = version->getAsInteger();
  if (!number || *number < kPlanFormatOldestVersion ||
      *number > kPlanFormatVersion)
    return fail("version",
                "unsupported version " + describe(*version) + "; " + readable);
  if (const llvm::json::Value *hash = o->get("topology_hash")) {
    if (!hash->getAsString())
      return fail("topology_hash", "expected a string, got " + describe(*hash));
    out.topologyHash = hash->getAsString()->str();
  }
  const llvm::json::Array *functions = array(o->get("functions"), "functions");
  if (!functions)
    return false;
  llvm::StringSet<> seen;
  for (auto [i, f] : llvm::enumerate(*functions)) {
    std::string path = "functions[" + std::to_string(i) + "]";
    FunctionEntry entry;
    if (!readFunction(f, path, entry))
      return false;
    if (!seen.insert(entry.name).second)
      return fail(path + ".name",
                  "function '" + entry.name + "' is listed twice");
    out.functions.push_back(std::move(entry));
  }
  return true;
}

/// Rewrites llvm::json's "[line:col, byte=N]: message" as
/// "file:line:col: message" (columns 1-based).
static std::string formatParseError(StringRef file, StringRef message) {
  static const llvm::Regex kPosition(
      "^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$");
  SmallVector<StringRef, 4> groups;
  if (!kPosition.match(message, &groups))
    return (file + ": " + message).str();
  // llvm::json counts the characters before the error point, so an error at
  // the start of a line is column 0 there.
  StringRef column = groups[2] == "0" ? "1" : groups[2];
  return (file + ":" + groups[1] + ":" + column + ": " + groups[3]).str();
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
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse(buffer->getBuffer());
  if (!json) {
    module.emitError() << "malformed plan file "
                       << formatParseError(file,
                                           llvm::toString(json.takeError()));
    return signalPassFailure();
  }
  PlanFile planFile;
  PlanReader reader(ctx);
  if (!reader.read(*json, planFile)) {
    module.emitError() << "invalid plan file '" << file
                       << "': " << reader.error;
    return signalPassFailure();
  }

  // A plan made for another machine may name devices this one lacks, and
  // its placements were chosen for other costs; phase A reports the first.
  if (auto topology =
          module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
      topology && !planFile.topologyHash.empty() &&
      planFile.topologyHash != formatTopologyHash(topology.getHash()))
    module.emitWarning() << "plan file '" << file << "' was made for topology "
                         << planFile.topologyHash << ", not this module's "
                         << formatTopologyHash(topology.getHash());

  // Match every entry first; pin only when all of them match.
  bool ok = true;
  SmallVector<std::pair<NodeOp, DeviceAttr>> pins;
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
    }
  }
  if (!ok)
    return signalPassFailure();
  for (auto [node, device] : pins)
    if (node.getPinAttr() != device)
      node.setPinAttr(device);
  numPinned += pins.size();
}
