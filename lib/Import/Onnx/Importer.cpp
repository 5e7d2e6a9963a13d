//===- Importer.cpp - ONNX graphs to a func.func on tensors ---------------===//
//
// The driver of the ONNX importer: reads the model (OnnxProto.cpp), makes the
// graph's inputs the function's arguments, its initializers load-time
// constants (SEMANTICS §5), checks every node against the registration table
// and reports every unsupported (op, opset, attribute) in one list, lowers
// the nodes in order through their families, returns the graph's outputs and
// cross-checks its own static shapes with ONNX shape inference's.
//
//===----------------------------------------------------------------------===//

#include "fuel/Import/OnnxImport.h"

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::fuel;
using namespace mlir::fuel::onnx;
namespace oi = ::fuel::onnx_import;

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

/// The registration table, built once.
static const std::vector<OpEntry> &opTable() {
  static const std::vector<OpEntry> table = [] {
    std::vector<OpEntry> t;
    registerElementwiseOps(t);
    registerNNOps(t);
    registerReduceOps(t);
    registerShapeOps(t);
    return t;
  }();
  return table;
}

static const OpEntry *lookupOp(StringRef opType) {
  for (const OpEntry &e : opTable())
    if (opType == e.opType)
      return &e;
  return nullptr;
}

static std::string shapeString(ArrayRef<int64_t> dims) {
  std::string s = "[";
  for (size_t k = 0; k < dims.size(); ++k) {
    if (k)
      s += ", ";
    s += dims[k] < 0 ? "?" : std::to_string(dims[k]);
  }
  return s + "]";
}

bool mlir::fuel::parseOnnxShapeOption(StringRef text, std::string &name,
                                      std::vector<int64_t> &dims,
                                      std::string &error) {
  auto [n, rest] = text.rsplit('=');
  if (n.empty() || !text.contains('=')) {
    error = "'" + text.str() + "' is not NAME=D0xD1...";
    return false;
  }
  name = n.str();
  dims.clear();
  if (rest.empty())
    return true;
  SmallVector<StringRef> parts;
  rest.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0) {
      error = "'" + text.str() + "': '" + p.str() +
              "' is not a dimension (a non-negative integer)";
      return false;
    }
    dims.push_back(d);
  }
  return true;
}

bool mlir::fuel::parseOnnxFoldOption(StringRef text, std::string &name,
                                     std::string &file, std::string &error) {
  auto [n, f] = text.split('=');
  if (n.empty() || f.empty()) {
    error = "'" + text.str() + "' is not NAME=FILE";
    return false;
  }
  name = n.str();
  file = f.str();
  return true;
}

void mlir::fuel::registerOnnxImportDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  math::MathDialect, tensor::TensorDialect>();
}

namespace {
/// The Erf-based GELU exporters emit, x * 0.5 * (1 + erf(x / sqrt(2))):
/// the nodes it spans and the one whose output is the GELU.
struct GeluMatch {
  std::string x;
  size_t last;
  std::vector<size_t> nodes;
};
} // namespace

/// The constant scalar an input name stands for, if it is one.
static std::optional<double> scalarConst(const llvm::StringMap<OnnxValue> &vals,
                                         const std::string &name) {
  auto it = vals.find(name);
  if (it == vals.end() || !it->second.isConst() ||
      it->second.data->size() != 1 || !it->second.data->isFloat)
    return std::nullopt;
  return it->second.data->at(0);
}

/// Finds the GELU patterns among `nodes` whose intermediate values have one
/// reader each and are not graph outputs.
static std::vector<GeluMatch>
matchGelu(const std::vector<Node> &nodes,
          const llvm::StringMap<OnnxValue> &consts,
          const llvm::StringSet<> &graphOutputs) {
  llvm::StringMap<std::vector<size_t>> readers;
  llvm::StringMap<size_t> producer;
  for (size_t k = 0; k < nodes.size(); ++k) {
    for (const std::string &in : nodes[k].inputs)
      readers[in].push_back(k);
    for (const std::string &out : nodes[k].outputs)
      producer[out] = k;
  }
  auto soleReader = [&](const std::string &v) -> std::optional<size_t> {
    if (graphOutputs.contains(v))
      return std::nullopt;
    auto it = readers.find(v);
    if (it == readers.end() || it->second.size() != 1)
      return std::nullopt;
    return it->second[0];
  };
  auto near = [](std::optional<double> v, double want) {
    return v && std::abs(*v - want) <= 1e-4 * std::abs(want);
  };
  // The operand of binary node `n` other than `v`, or empty.
  auto other = [](const Node &n, const std::string &v) -> std::string {
    if (n.inputs.size() != 2)
      return "";
    if (n.inputs[0] == v)
      return n.inputs[1];
    if (n.inputs[1] == v)
      return n.inputs[0];
    return "";
  };
  std::vector<GeluMatch> matches;
  for (size_t e = 0; e < nodes.size(); ++e) {
    const Node &erf = nodes[e];
    if (erf.opType != "Erf" || !erf.domain.empty() || erf.inputs.size() != 1)
      continue;
    auto scaleIt = producer.find(erf.inputs[0]);
    if (scaleIt == producer.end())
      continue;
    size_t s = scaleIt->second;
    const Node &scale = nodes[s];
    if (scale.inputs.size() != 2 || !soleReader(scale.outputs[0]))
      continue;
    std::string x = scale.inputs[0];
    bool scaleOk =
        (scale.opType == "Div" &&
         near(scalarConst(consts, scale.inputs[1]), std::sqrt(2.0))) ||
        (scale.opType == "Mul" &&
         (near(scalarConst(consts, scale.inputs[1]), std::sqrt(0.5)) ||
          (near(scalarConst(consts, scale.inputs[0]), std::sqrt(0.5)) &&
           (x = scale.inputs[1], true))));
    if (!scaleOk)
      continue;
    auto addK = soleReader(erf.outputs[0]);
    if (!addK || nodes[*addK].opType != "Add")
      continue;
    const Node &add = nodes[*addK];
    if (!near(scalarConst(consts, other(add, erf.outputs[0])), 1.0))
      continue;
    auto m1K = soleReader(add.outputs[0]);
    if (!m1K || nodes[*m1K].opType != "Mul")
      continue;
    const Node &m1 = nodes[*m1K];
    std::string m1Other = other(m1, add.outputs[0]);
    GeluMatch match;
    match.x = x;
    if (m1Other == x) {
      // (x * (1 + erf)) * 0.5
      auto m2K = soleReader(m1.outputs[0]);
      if (!m2K || nodes[*m2K].opType != "Mul" ||
          !near(scalarConst(consts, other(nodes[*m2K], m1.outputs[0])), 0.5))
        continue;
      match.nodes = {s, e, *addK, *m1K, *m2K};
      match.last = *m2K;
    } else {
      // (x * 0.5) * (1 + erf)
      auto halfIt = producer.find(m1Other);
      if (halfIt == producer.end())
        continue;
      const Node &half = nodes[halfIt->second];
      if (half.opType != "Mul" || other(half, x).empty() ||
          !near(scalarConst(consts, other(half, x)), 0.5) ||
          !soleReader(half.outputs[0]))
        continue;
      match.nodes = {halfIt->second, s, e, *addK, *m1K};
      match.last = *m1K;
    }
    matches.push_back(match);
  }
  return matches;
}

static OwningOpRef<ModuleOp> importModel(MLIRContext *context,
                                         const oi::Model &model,
                                         Location modelLoc,
                                         const OnnxImportOptions &options) {
  context->loadDialect<arith::ArithDialect, func::FuncDialect,
                       linalg::LinalgDialect, math::MathDialect,
                       tensor::TensorDialect>();
  Importer imp(context, modelLoc);
  imp.opset = model.opset;
  for (const std::string &w : model.warnings)
    emitWarning(modelLoc) << w;

  // Options name graph inputs.
  llvm::StringSet<> inputNames;
  for (const oi::ValueInfo &in : model.inputs)
    inputNames.insert(in.name);
  std::map<std::string, oi::TensorData> folded;
  for (const auto &[name, file] : options.foldInputs) {
    if (!inputNames.contains(name)) {
      emitError(modelLoc) << "--fold-input: '" << name
                          << "' is not an input of the graph";
      return nullptr;
    }
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      emitError(modelLoc) << "--fold-input: cannot read '" << file
                          << "': " << buffer.getError().message();
      return nullptr;
    }
    oi::TensorData t;
    std::string err;
    if (!oi::readTensor((*buffer)->getBuffer().str(), t, err)) {
      emitError(modelLoc) << "--fold-input: '" << file << "' " << err;
      return nullptr;
    }
    folded[name] = std::move(t);
  }
  std::map<std::string, std::vector<int64_t>> fixedShapes;
  for (const auto &[name, dims] : options.shapes) {
    if (!inputNames.contains(name)) {
      emitError(modelLoc) << "--shape: '" << name
                          << "' is not an input of the graph";
      return nullptr;
    }
    fixedShapes[name] = dims;
  }

  auto supportedType = [](int32_t t) {
    return t == oi::kFloat || t == oi::kInt64 || t == oi::kInt32 ||
           t == oi::kBool || t == oi::kDouble || t == oi::kFloat16 ||
           t == oi::kInt8 || t == oi::kUint8;
  };
  auto addConst = [&](const oi::TensorData &t) -> bool {
    if (!supportedType(t.type)) {
      emitError(modelLoc) << "tensor '" << t.name << "' has type "
                          << oi::dataTypeName(t.type)
                          << ", which fuel does not import";
      return false;
    }
    OnnxValue v;
    v.name = t.name;
    v.shape.assign(t.dims.begin(), t.dims.end());
    v.type = t.type;
    auto d = std::make_shared<ConstData>();
    d->isFloat = !t.floats.empty() || t.type == oi::kFloat ||
                 t.type == oi::kDouble || t.type == oi::kFloat16;
    d->f = t.floats;
    d->i = t.ints;
    v.data = d;
    imp.values[t.name] = std::move(v);
    return true;
  };
  for (const oi::TensorData &t : model.initializers)
    if (!addConst(t))
      return nullptr;

  // Arguments: the graph inputs that are neither initializers nor folded.
  OwningOpRef<ModuleOp> module = ModuleOp::create(modelLoc);
  OpBuilder &b = imp.b;
  b.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argTypes;
  SmallVector<const oi::ValueInfo *> args;
  // Contexts outside any node (arguments, results) use an empty node.
  static const Node noNode;
  NodeContext top(imp, noNode, modelLoc);
  for (const oi::ValueInfo &in : model.inputs) {
    if (imp.values.count(in.name))
      continue;
    if (auto it = folded.find(in.name); it != folded.end()) {
      it->second.name = in.name;
      if (!addConst(it->second))
        return nullptr;
      continue;
    }
    if (!in.isTensor || !in.hasShape || !supportedType(in.type)) {
      emitError(modelLoc) << "input '" << in.name
                          << "' is not a tensor of known rank and a supported "
                             "element type";
      return nullptr;
    }
    std::vector<int64_t> dims = in.dims;
    if (auto it = fixedShapes.find(in.name); it != fixedShapes.end()) {
      bool fits = it->second.size() == dims.size();
      for (size_t k = 0; fits && k < dims.size(); ++k)
        fits = dims[k] < 0 || dims[k] == it->second[k];
      if (!fits) {
        emitError(modelLoc)
            << "--shape: " << shapeString(it->second) << " does not fit input '"
            << in.name << "' of shape " << shapeString(dims);
        return nullptr;
      }
      dims = it->second;
    }
    for (size_t k = 0; k < dims.size(); ++k) {
      if (dims[k] >= 0)
        continue;
      auto diag = emitError(modelLoc)
                  << "input '" << in.name << "' has a dynamic dimension " << k;
      if (!in.dimParams[k].empty())
        diag << " ('" << in.dimParams[k] << "')";
      diag << " in " << shapeString(dims)
           << "; fuel compiles static shapes only: fix it with --shape="
           << in.name << "=D0xD1...";
      return nullptr;
    }
    argTypes.push_back(RankedTensorType::get(dims, top.elementType(in.type)));
    args.push_back(&in);
  }

  // Every op checked before anything is built.
  for (const Node &n : model.nodes) {
    std::string where = "node '" + n.name + "' (" + n.opType + ", opset " +
                        std::to_string(model.opset) + ")";
    if (!n.domain.empty()) {
      imp.unsupportedList.push_back("node '" + n.name + "' (" + n.domain + "." +
                                    n.opType +
                                    "): the domain is not supported");
      continue;
    }
    const OpEntry *e = lookupOp(n.opType);
    if (!e) {
      imp.unsupportedList.push_back(where + ": the op is not supported");
      continue;
    }
    if (e->check) {
      std::string reason = e->check(n);
      if (!reason.empty())
        imp.unsupportedList.push_back(where + ": " + reason);
    }
  }
  auto reportUnsupported = [&]() {
    auto diag = emitError(modelLoc)
                << "the model uses " << imp.unsupportedList.size()
                << " unsupported op"
                << (imp.unsupportedList.size() == 1 ? "" : "s") << " (opset "
                << model.opset << "):";
    for (const std::string &u : imp.unsupportedList)
      diag << "\n  " << u;
  };
  if (!imp.unsupportedList.empty()) {
    reportUnsupported();
    return nullptr;
  }

  // Result types are known only after lowering: build the function with the
  // arguments, set its type at the end.
  auto func = func::FuncOp::create(b, modelLoc, options.functionName,
                                   b.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  for (auto [k, in] : llvm::enumerate(args)) {
    func.setArgAttr(k, "onnx.name", b.getStringAttr(in->name));
    imp.values[in->name] = top.runtime(entry->getArgument(k), in->type);
    imp.values[in->name].name = in->name;
  }

  llvm::StringSet<> graphOutputs;
  for (const oi::ValueInfo &out : model.outputs)
    graphOutputs.insert(out.name);
  std::map<size_t, const GeluMatch *> geluAt;
  std::set<size_t> absorbed;
  std::vector<GeluMatch> gelus =
      matchGelu(model.nodes, imp.values, graphOutputs);
  for (const GeluMatch &m : gelus) {
    bool free = true;
    for (size_t k : m.nodes)
      free &= !absorbed.count(k);
    if (!free)
      continue;
    for (size_t k : m.nodes)
      if (k != m.last)
        absorbed.insert(k);
    geluAt[m.last] = &m;
  }

  for (size_t k = 0; k < model.nodes.size(); ++k) {
    const Node &n = model.nodes[k];
    if (absorbed.count(k))
      continue;
    Location loc = NameLoc::get(
        b.getStringAttr(n.name.empty() ? n.opType : n.name), modelLoc);
    NodeContext nc(imp, n, loc);
    if (auto g = geluAt.find(k); g != geluAt.end()) {
      auto it = imp.values.find(g->second->x);
      if (it != imp.values.end() && it->second.type == oi::kFloat) {
        OnnxValue x = it->second;
        nc.setOutput(0, nc.runtime(buildGelu(nc, x), oi::kFloat));
        continue;
      }
    }
    bool poison = false, missing = false;
    for (const std::string &in : n.inputs) {
      if (in.empty() || imp.values.count(in))
        continue;
      if (imp.poisoned.contains(in)) {
        poison = true;
        continue;
      }
      emitError(loc) << "node '" << n.name << "' (" << n.opType << ") reads '"
                     << in
                     << "', which is neither a graph input, an initializer "
                        "nor an output of an earlier node";
      missing = true;
      break;
    }
    if (missing)
      return nullptr;
    if (!poison) {
      imp.nodeUnsupported = false;
      if (succeeded(lookupOp(n.opType)->lower(nc)) && !nc.shapeRefused)
        continue;
      if (nc.shapeRefused)
        return nullptr;
      if (!imp.nodeUnsupported)
        return nullptr;
    }
    for (const std::string &out : n.outputs)
      imp.poisoned.insert(out);
  }
  if (!imp.unsupportedList.empty()) {
    reportUnsupported();
    return nullptr;
  }

  // Results: the graph's outputs, in order, with their declared shapes.
  SmallVector<Value> results;
  NodeContext ret(imp, noNode, modelLoc);
  for (const oi::ValueInfo &out : model.outputs) {
    auto it = imp.values.find(out.name);
    if (it == imp.values.end()) {
      emitError(modelLoc) << "graph output '" << out.name
                          << "' is not computed by any node";
      return nullptr;
    }
    const OnnxValue &v = it->second;
    if (out.hasShape) {
      bool fits = out.dims.size() == v.shape.size();
      for (size_t k = 0; fits && k < out.dims.size(); ++k)
        fits = out.dims[k] < 0 || out.dims[k] == v.shape[k];
      if (!fits) {
        emitError(modelLoc) << "graph output '" << out.name << "' is declared "
                            << shapeString(out.dims) << " but computes "
                            << shapeString(v.shape);
        return nullptr;
      }
    }
    results.push_back(ret.materialize(v));
  }
  func::ReturnOp::create(b, modelLoc, results);
  func.setType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (auto [k, out] : llvm::enumerate(model.outputs))
    func.setResultAttr(k, "onnx.name", b.getStringAttr(out.name));

  // Cross-check: ONNX shape inference (up to opset 17) must agree with the
  // shapes fuel propagated.
  for (const oi::ValueInfo &inf : model.inferred) {
    auto it = imp.values.find(inf.name);
    if (it == imp.values.end() || !inf.hasShape)
      continue;
    bool agree = inf.dims.size() == it->second.shape.size();
    for (size_t k = 0; agree && k < inf.dims.size(); ++k)
      agree = inf.dims[k] < 0 || inf.dims[k] == it->second.shape[k];
    if (!agree) {
      emitError(modelLoc) << "value '" << inf.name << "' has shape "
                          << shapeString(it->second.shape)
                          << " by fuel's shape propagation but "
                          << shapeString(inf.dims)
                          << " by ONNX shape inference";
      return nullptr;
    }
  }

  if (failed(verify(*module))) {
    emitError(modelLoc) << "the imported IR does not verify (an importer "
                           "fault)";
    return nullptr;
  }
  return module;
}

OwningOpRef<ModuleOp>
mlir::fuel::importOnnxBuffer(MLIRContext *context, StringRef bytes,
                             StringRef bufferName, StringRef modelDir,
                             const OnnxImportOptions &options) {
  Location modelLoc = FileLineColLoc::get(context, bufferName, 0, 0);
  oi::Model model;
  std::string error;
  if (!oi::readModel(bytes.str(), modelDir.str(), model, error)) {
    emitError(modelLoc) << error;
    return nullptr;
  }
  return importModel(context, model, modelLoc, options);
}

OwningOpRef<ModuleOp>
mlir::fuel::importOnnxFile(MLIRContext *context, StringRef path,
                           const OnnxImportOptions &options) {
  Location modelLoc = FileLineColLoc::get(context, path, 0, 0);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    emitError(modelLoc) << "cannot read the model: "
                        << buffer.getError().message();
    return nullptr;
  }
  SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  return importOnnxBuffer(context, (*buffer)->getBuffer(), path, dir, options);
}
