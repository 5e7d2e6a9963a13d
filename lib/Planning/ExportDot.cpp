//===- ExportDot.cpp - A module's plan as a Graphviz graph ----------------===//
//
// fuel-export-dot: one `digraph` with a cluster per function. Vertices are
// the function's arguments, nodes, host ops, copies, load-time constants
// (with the devices that read them) and returned results, classified by
// the function's value flow (collectFlow); edges follow data flow with
// views looked through. Vertex names come from positions in the IR and
// colours from a fixed palette in the topology's device order, so the
// output depends only on the IR.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/Passes.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Transfer.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/PlanExport.h"
#include "fuel/Planning/PlanState.h"
#include "fuel/Planning/ValueFlow.h"

#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELEXPORTDOTPASS
#include "fuel/Planning/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-export-dot"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

/// Fill colours by position in device order (ColorBrewer Set3): the first
/// device of the topology (always `cpu`) takes the first.
static constexpr StringLiteral kPalette[] = {"#8dd3c7", "#fdb462", "#bebada",
                                             "#fb8072", "#80b1d3", "#b3de69",
                                             "#fccde5", "#ffffb3"};
/// Fill of a vertex on no device, or on one the topology lacks.
static constexpr StringLiteral kNoDeviceColour = "#ffffff";

namespace {
struct ExportDotPass
    : public mlir::fuel::impl::FuelExportDotPassBase<ExportDotPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// Writes one function's cluster.
class FunctionWriter {
public:
  FunctionWriter(raw_ostream &os, func::FuncOp func, unsigned index,
                 ArrayRef<DeviceAttr> devices, PlanConfigAttr config,
                 const plan::TransferModel &transfers)
      : os(os), func(func), prefix("f" + std::to_string(index) + "_"),
        index(index), devices(devices), config(config), transfers(transfers) {}

  void write();

private:
  StringRef colour(DeviceAttr device) const;
  std::string vertexOf(Value v, std::string *views = nullptr);
  void writeLegend();
  void writeVertex(StringRef name, StringRef shape, StringRef style,
                   StringRef fill, const std::string &label);
  void edge(const std::string &from, const std::string &to,
            const std::string &label = "");

  raw_ostream &os;
  func::FuncOp func;
  std::string prefix;
  unsigned index;
  ArrayRef<DeviceAttr> devices;
  PlanConfigAttr config;
  const plan::TransferModel &transfers;
  llvm::DenseMap<Operation *, int64_t> positions;
  /// Edges (from, to, label) in the order they were first drawn, each
  /// (from, to) once.
  std::vector<std::tuple<std::string, std::string, std::string>> edges;
  std::set<std::pair<std::string, std::string>> drawn;
};
} // namespace

/// Escapes `s` for a double-quoted DOT string; a newline becomes a
/// centred line break.
static std::string escapeQuoted(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

/// Escapes `s` for an HTML-like DOT label.
static std::string escapeHtml(StringRef s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// The type of `v` as MLIR prints it.
static std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream(s) << type;
  return s;
}

StringRef FunctionWriter::colour(DeviceAttr device) const {
  if (!device)
    return kNoDeviceColour;
  for (auto [i, d] : llvm::enumerate(devices))
    if (d == device)
      return kPalette[i % std::size(kPalette)];
  return kNoDeviceColour;
}

std::string FunctionWriter::vertexOf(Value v, std::string *views) {
  // Copies are vertices and views are not: draw the edge from the last
  // copy on the way from the root (else the root), and name the views after
  // it (innermost last) for the edge's label.
  FlowTrace trace = traceToRoot(v);
  v = trace.root;
  std::string names;
  for (Operation *op : trace.chain) {
    if (isa<CopyOp>(op)) {
      v = op->getResult(0);
      names.clear();
      continue;
    }
    names += (names.empty() ? "" : ", ") + op->getName().getStringRef().str();
  }
  if (views)
    *views = names;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return prefix + "arg" + std::to_string(arg.getArgNumber());
  auto result = cast<OpResult>(v);
  // Of several results, say which one flows.
  if (views && result.getOwner()->getNumResults() > 1)
    *views = "#" + std::to_string(result.getResultNumber()) +
             (views->empty() ? "" : " ") + *views;
  return prefix + "op" + std::to_string(positions.lookup(result.getOwner()));
}

void FunctionWriter::writeVertex(StringRef name, StringRef shape,
                                 StringRef style, StringRef fill,
                                 const std::string &label) {
  os << "    " << name << " [shape=" << shape << ", style=\"" << style
     << "\", fillcolor=\"" << fill << "\", label=\"" << escapeQuoted(label)
     << "\"];\n";
}

void FunctionWriter::edge(const std::string &from, const std::string &to,
                          const std::string &label) {
  if (drawn.insert({from, to}).second)
    edges.emplace_back(from, to, label);
}

void FunctionWriter::writeLegend() {
  os << "    " << prefix
     << "legend [shape=plaintext, label=<<table border=\"0\" "
        "cellborder=\"1\" cellspacing=\"0\" cellpadding=\"3\">";
  os << "<tr><td colspan=\"2\"><b>legend</b></td></tr>";
  if (auto predicted = func->getAttrOfType<PredictedAttr>(
          FuelDialect::kPredictedNsAttrName)) {
    auto row = [&](StringRef name, int64_t ns) {
      os << "<tr><td align=\"left\">" << name << "</td><td align=\"right\">"
         << ns << " ns</td></tr>";
    };
    row("predicted total", predicted.getTotal());
    row("nodes", predicted.getNodes());
    row("copies", predicted.getCopies());
    row("coupling", predicted.getCoupling());
  } else {
    os << "<tr><td colspan=\"2\">not placed</td></tr>";
  }
  for (DeviceAttr d : devices)
    os << "<tr><td bgcolor=\"" << colour(d) << "\"> </td><td align=\"left\">"
       << escapeHtml(d.str()) << "</td></tr>";
  os << "</table>>];\n";
}

void FunctionWriter::write() {
  Block &block = func.getBody().front();
  positions = topLevelPositions(func);
  os << "  subgraph cluster_" << index << " {\n";
  os << "    label=\"@" << escapeQuoted(func.getSymName()) << "\";\n";
  writeLegend();

  // Arguments, on their residency.
  ValueFlow flow = collectFlow(func);
  plan::Device fallback = defaultResidency(config);
  MLIRContext *ctx = func.getContext();
  for (BlockArgument arg : block.getArguments()) {
    DeviceAttr on =
        fromPlan(ctx, argumentResidency(func, arg.getArgNumber(), fallback));
    writeVertex(prefix + "arg" + std::to_string(arg.getArgNumber()), "invhouse",
                "filled", colour(on),
                "arg " + std::to_string(arg.getArgNumber()) + "\n" +
                    typeString(arg.getType()) + "\non " + on.str());
  }

  // Ops in program order; views are drawn as edges only.
  for (Operation &op : block) {
    std::string name = prefix + "op" + std::to_string(positions.lookup(&op));
    switch (flow.kinds.lookup(&op)) {
    case FlowOpKind::View:
      continue;
    case FlowOpKind::Return:
      for (auto [i, v] : llvm::enumerate(op.getOperands())) {
        DeviceAttr on = fromPlan(ctx, resultResidency(func, i, fallback));
        std::string result = prefix + "result" + std::to_string(i);
        writeVertex(result, "house", "filled", colour(on),
                    "result " + std::to_string(i) + "\n" +
                        typeString(v.getType()) + "\non " + on.str());
        std::string label;
        std::string from = vertexOf(v, &label);
        edge(from, result, label);
      }
      continue;
    case FlowOpKind::Node: {
      auto node = cast<NodeOp>(op);
      auto placed = dyn_cast_or_null<DeviceAttr>(node.getPlacementAttr());
      std::string label = "node " + std::to_string(node.getIdAttr().getInt()) +
                          ": " + stringifyOpKind(node.getKind()).str() + "\n";
      label += placed ? "on " + placed.str() : std::string("not placed");
      if (CandidateAttr winner = getWinner(node))
        label += "\n" + winner.getSource().str() + ", " +
                 std::to_string(winner.getTimeNs()) + " ns";
      writeVertex(name, "box", "filled", colour(placed), label);
      break;
    }
    case FlowOpKind::Copy: {
      auto copy = cast<CopyOp>(op);
      uint64_t bytes = valueBytes(copy.getType());
      int64_t ns =
          transfers.hopNs(toPlan(copy.getFrom()), toPlan(copy.getTo()), bytes);
      writeVertex(name, "ellipse", "filled,dashed", colour(copy.getTo()),
                  "copy " + copy.getFrom().str() + " \xE2\x86\x92 " +
                      copy.getTo().str() + "\n" + std::to_string(bytes) +
                      " bytes, " + std::to_string(ns) + " ns");
      break;
    }
    case FlowOpKind::Constant:
      // A tensor constant is load-time data on each device that reads it
      // (SEMANTICS §5); a scalar one is a host op's operand.
      if (const FlowRoot *root = flow.lookup(op.getResult(0))) {
        std::string on;
        for (plan::Device d : flow.readDevices(*root))
          on += (on.empty() ? "" : ", ") + d.str();
        writeVertex(name, "cylinder", "filled", kNoDeviceColour,
                    "constant\n" + typeString(root->value.getType()) +
                        "\nload-time, read on " +
                        (on.empty() ? std::string("no device") : on));
        break;
      }
      [[fallthrough]];
    case FlowOpKind::Host:
      writeVertex(name, "box", "rounded,filled",
                  colour(DeviceAttr::getHost(ctx)),
                  op.getName().getStringRef().str() + "\non cpu");
      break;
    }
    for (Value operand : op.getOperands()) {
      std::string label;
      std::string from = vertexOf(operand, &label);
      edge(from, name, label);
    }
  }

  for (const auto &[from, to, label] : edges) {
    os << "    " << from << " -> " << to;
    if (!label.empty())
      os << " [label=\"" << escapeQuoted(label) << "\"]";
    os << ";\n";
  }
  os << "  }\n";
}

void ExportDotPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Writing a file changes no IR.
  markAllAnalysesPreserved();
  TopologyAttr topology =
      requireTopology(module, "to colour its devices and price its copies");
  if (!topology)
    return signalPassFailure();
  // Arguments and results without a residency live on the configuration's
  // pinned device: without one there is nothing to draw, and no file is
  // written. The error is at the module's location only (its text would be
  // the whole program).
  auto config =
      module->getAttrOfType<PlanConfigAttr>(FuelDialect::kConfigAttrName);
  if (!config) {
    mlir::emitError(module.getLoc())
        << "the module has no '" << FuelDialect::kConfigAttrName
        << "' to place arguments and results without a residency; run "
           "fuel-attach-topology (or fuel-plan) first";
    return signalPassFailure();
  }
  plan::TransferModel transfers(topology.toPlan());
  SmallVector<DeviceAttr> devices;
  for (DeviceInfoAttr info : topology.getDevices())
    devices.push_back(info.getDevice());
  llvm::sort(devices, [](DeviceAttr a, DeviceAttr b) { return a < b; });

  auto write = [&](raw_ostream &os) {
    os << "digraph \"fuel-plan\" {\n";
    os << "  graph [fontname=\"Helvetica\", fontsize=11];\n";
    os << "  node [fontname=\"Helvetica\", fontsize=10];\n";
    os << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    unsigned index = 0;
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        FunctionWriter(os, func, index++, devices, config, transfers).write();
    os << "}\n";
  };
  if (failed(writeOutputFile(module, file, "graph", write)))
    return signalPassFailure();
}
