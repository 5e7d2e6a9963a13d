//===- PlanAttrs.cpp - Plan attributes of the fuel dialect ----------------===//
//
// Parsing, printing and verification of the attributes a plan is made of:
// costs, precision, decision contexts, couplings, candidates, alternative
// sets, the planning configuration and the predicted times; the conversions
// of the dialect's enums to fuel/Support's kinds; and the generated
// definitions and registration of every fuel attribute. The machine
// attributes (devices, topologies, GPU limits) are in MachineAttrs.cpp.
//
// Keyed attributes (candidates, couplings, ...) accept their fields in any
// order and report unknown, duplicate and missing fields by name; they print
// in one canonical order.
//
//===----------------------------------------------------------------------===//

#include "AttrParsing.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Planner/PrecisionRules.h"
#include "fuel/Planner/SizeClass.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h" // used by the generated attribute parser

#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::fuel;
using namespace mlir::fuel::detail;

#include "fuel/Dialect/Fuel/IR/FuelAttrInterfaces.cpp.inc"
#include "fuel/Dialect/Fuel/IR/FuelEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fuel/Dialect/Fuel/IR/FuelAttrs.cpp.inc"

void FuelDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fuel/Dialect/Fuel/IR/FuelAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Kind conversions
//===----------------------------------------------------------------------===//

// The dialect's attribute enums mirror fuel/Support. Each conversion is a
// switch without a default, so -Wswitch names an enumerator one side lacks,
// and the counts are asserted so that an enumerator added to one side only
// fails to compile.
static_assert(getMaxEnumValForDeviceKind() + 1 ==
                  ::fuel::kAllDeviceKinds.size(),
              "fuel.backend and fuel::DeviceKind list different kinds");
static_assert(getMaxEnumValForOpKind() + 1 == ::fuel::kAllOpKinds.size(),
              "fuel.op_kind and fuel::OpKind list different kinds");

::fuel::DeviceKind mlir::fuel::toPlan(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::cpu:
    return ::fuel::DeviceKind::Cpu;
  case DeviceKind::cuda:
    return ::fuel::DeviceKind::Cuda;
  case DeviceKind::vulkan:
    return ::fuel::DeviceKind::Vulkan;
  }
  llvm_unreachable("unknown device kind");
}

DeviceKind mlir::fuel::fromPlan(::fuel::DeviceKind kind) {
  switch (kind) {
  case ::fuel::DeviceKind::Cpu:
    return DeviceKind::cpu;
  case ::fuel::DeviceKind::Cuda:
    return DeviceKind::cuda;
  case ::fuel::DeviceKind::Vulkan:
    return DeviceKind::vulkan;
  }
  llvm_unreachable("unknown device kind");
}

::fuel::OpKind mlir::fuel::toPlan(OpKind kind) {
  switch (kind) {
  case OpKind::matmul:
    return ::fuel::OpKind::Matmul;
  case OpKind::batch_matmul:
    return ::fuel::OpKind::BatchMatmul;
  case OpKind::conv2d:
    return ::fuel::OpKind::Conv2d;
  case OpKind::pool:
    return ::fuel::OpKind::Pool;
  case OpKind::reduce:
    return ::fuel::OpKind::Reduce;
  case OpKind::softmax:
    return ::fuel::OpKind::Softmax;
  case OpKind::elementwise:
    return ::fuel::OpKind::Elementwise;
  case OpKind::transpose:
    return ::fuel::OpKind::Transpose;
  case OpKind::generic:
    return ::fuel::OpKind::Generic;
  }
  llvm_unreachable("unknown op kind");
}

OpKind mlir::fuel::fromPlan(::fuel::OpKind kind) {
  switch (kind) {
  case ::fuel::OpKind::Matmul:
    return OpKind::matmul;
  case ::fuel::OpKind::BatchMatmul:
    return OpKind::batch_matmul;
  case ::fuel::OpKind::Conv2d:
    return OpKind::conv2d;
  case ::fuel::OpKind::Pool:
    return OpKind::pool;
  case ::fuel::OpKind::Reduce:
    return OpKind::reduce;
  case ::fuel::OpKind::Softmax:
    return OpKind::softmax;
  case ::fuel::OpKind::Elementwise:
    return OpKind::elementwise;
  case ::fuel::OpKind::Transpose:
    return OpKind::transpose;
  case ::fuel::OpKind::Generic:
    return OpKind::generic;
  }
  llvm_unreachable("unknown op kind");
}

::fuel::plan::Device mlir::fuel::toPlan(DeviceAttr device) {
  return {toPlan(device.getKind()), uint32_t(device.getOrdinal())};
}

DeviceAttr mlir::fuel::fromPlan(MLIRContext *ctx, ::fuel::plan::Device device) {
  return DeviceAttr::get(ctx, fromPlan(device.kind), device.ordinal);
}

//===----------------------------------------------------------------------===//
// CostAttr
//===----------------------------------------------------------------------===//

LogicalResult CostAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t flops, int64_t bytes,
                               int64_t overheadNs) {
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"flops", flops},
                             {"bytes", bytes},
                             {"overhead_ns", overheadNs}})
    if (value < 0)
      return emitError() << "cost field '" << name
                         << "' must be non-negative, got " << value;
  return success();
}

//===----------------------------------------------------------------------===//
// PrecisionAttr
//===----------------------------------------------------------------------===//

PrecisionAttr PrecisionAttr::getReference(MLIRContext *ctx) {
  return get(ctx, true, uint64_t(0), getF64(ctx, 0.0), getF64(ctx, 0.0), "");
}

PrecisionAttr PrecisionAttr::getDeterministic(MLIRContext *ctx) {
  return get(ctx, true, std::nullopt, FloatAttr(), FloatAttr(), "");
}

PrecisionAttr PrecisionAttr::getUnaudited(MLIRContext *ctx) {
  return get(ctx, false, std::nullopt, FloatAttr(), FloatAttr(), "");
}

::fuel::plan::Precision PrecisionAttr::toPlan() const {
  ::fuel::plan::Precision p;
  p.bitStable = getBitStable();
  p.maxUlp = getMaxUlp();
  p.maxRelative = getMaxRelativeValue();
  p.maxAbsolute = getMaxAbsoluteValue();
  p.note = getNote().str();
  return p;
}

PrecisionAttr PrecisionAttr::fromPlan(MLIRContext *ctx,
                                      const ::fuel::plan::Precision &p) {
  auto f64 = [&](std::optional<double> v) {
    return v ? getF64(ctx, *v) : FloatAttr();
  };
  return get(ctx, p.bitStable, p.maxUlp, f64(p.maxRelative), f64(p.maxAbsolute),
             p.note);
}

std::optional<double> PrecisionAttr::getMaxRelativeValue() const {
  if (FloatAttr f = getMaxRelative())
    return f.getValueAsDouble();
  return std::nullopt;
}

std::optional<double> PrecisionAttr::getMaxAbsoluteValue() const {
  if (FloatAttr f = getMaxAbsolute())
    return f.getValueAsDouble();
  return std::nullopt;
}

StringRef PrecisionAttr::getPresetName() const {
  std::optional<double> rel = getMaxRelativeValue();
  std::optional<double> abs = getMaxAbsoluteValue();
  if (!getBitStable() && !getMaxUlp() && !rel && !abs)
    return "unaudited";
  if (getBitStable() && !getMaxUlp() && !rel && !abs)
    return "deterministic";
  if (getBitStable() && getMaxUlp() == uint64_t(0) && rel == 0.0 && abs == 0.0)
    return "reference";
  return "";
}

LogicalResult
PrecisionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      bool bitStable, std::optional<uint64_t> maxUlp,
                      FloatAttr maxRelative, FloatAttr maxAbsolute,
                      StringRef note) {
  for (auto [name, bound] :
       {std::pair<StringRef, FloatAttr>{"rel", maxRelative},
        {"abs", maxAbsolute}}) {
    if (!bound)
      continue;
    double v = bound.getValueAsDouble();
    if (!(v >= 0.0) || !std::isfinite(v))
      return emitError() << "precision bound '" << name
                         << "' must be a non-negative, finite number, got "
                         << v;
  }
  return success();
}

/// Parses the body of a precision attribute (between `<` and `>`).
static FailureOr<PrecisionAttr> parsePrecisionBody(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  bool bitStable = false;
  std::optional<uint64_t> ulp;
  FloatAttr rel, abs;
  std::string note;
  FieldListParser fields(parser, "precision",
                         {"reference", "deterministic", "unaudited",
                          "bit_stable", "ulp", "rel", "abs", "note"});
  bool first = true;
  auto parseBound = [&](StringRef key, FloatAttr &out) -> ParseResult {
    SMLoc valueLoc = parser.getCurrentLocation();
    double v;
    if (parser.parseEqual() || parser.parseFloat(v))
      return failure();
    if (v < 0)
      return parser.emitError(valueLoc) << "precision bound '" << key
                                        << "' must be non-negative, got " << v;
    // -0.0 is the bound 0: store +0.0 so equal bounds unique equal.
    out = getF64(ctx, v == 0.0 ? 0.0 : v);
    return success();
  };
  if (fields.parse([&](StringRef key) -> ParseResult {
        bool wasFirst = first;
        first = false;
        if (key == "reference" || key == "deterministic" ||
            key == "unaudited") {
          if (!wasFirst)
            return parser.emitError(parser.getCurrentLocation())
                   << "precision preset '" << key << "' must come first";
          if (key == "reference") {
            bitStable = true;
            ulp = 0;
            rel = getF64(ctx, 0.0);
            abs = getF64(ctx, 0.0);
          } else if (key == "deterministic") {
            bitStable = true;
          }
          return success();
        }
        if (key == "bit_stable") {
          bitStable = true;
          return success();
        }
        if (key == "ulp") {
          SMLoc valueLoc = parser.getCurrentLocation();
          int64_t v;
          if (parseEqInt(parser, v))
            return failure();
          if (v < 0)
            return parser.emitError(valueLoc)
                   << "precision bound 'ulp' must be non-negative, got " << v;
          ulp = uint64_t(v);
          return success();
        }
        if (key == "rel")
          return parseBound(key, rel);
        if (key == "abs")
          return parseBound(key, abs);
        return failure(parser.parseEqual() || parser.parseString(&note));
      }))
    return failure();
  PrecisionAttr attr =
      PrecisionAttr::getChecked([&] { return parser.emitError(loc); }, ctx,
                                bitStable, ulp, rel, abs, note);
  if (!attr)
    return failure();
  return attr;
}

Attribute PrecisionAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<PrecisionAttr> attr = parsePrecisionBody(parser);
  if (failed(attr) || parser.parseGreater())
    return {};
  return *attr;
}

void PrecisionAttr::print(AsmPrinter &printer) const {
  printer << '<';
  StringRef preset = getPresetName();
  bool first = true;
  auto sep = [&] {
    if (!first)
      printer << ", ";
    first = false;
  };
  if (!preset.empty()) {
    sep();
    printer << preset;
  } else {
    if (getBitStable()) {
      sep();
      printer << "bit_stable";
    }
    if (std::optional<uint64_t> ulp = getMaxUlp()) {
      sep();
      printer << "ulp = " << *ulp;
    }
    if (FloatAttr rel = getMaxRelative()) {
      sep();
      printer << "rel = ";
      printFloatLiteral(printer, rel);
    }
    if (FloatAttr abs = getMaxAbsolute()) {
      sep();
      printer << "abs = ";
      printFloatLiteral(printer, abs);
    }
  }
  if (!getNote().empty()) {
    sep();
    printer << "note = ";
    printer.printString(getNote());
  }
  printer << '>';
}

void PrecisionAttr::printNested(AsmPrinter &printer) const {
  StringRef preset = getPresetName();
  if (!preset.empty() && getNote().empty()) {
    printer << preset;
    return;
  }
  print(printer);
}

FailureOr<PrecisionAttr> PrecisionAttr::parseNested(AsmParser &parser) {
  if (succeeded(parser.parseOptionalLess())) {
    FailureOr<PrecisionAttr> attr = parsePrecisionBody(parser);
    if (failed(attr) || parser.parseGreater())
      return failure();
    return attr;
  }
  SMLoc loc = parser.getCurrentLocation();
  StringRef preset;
  if (parser.parseKeyword(&preset))
    return failure();
  MLIRContext *ctx = parser.getContext();
  if (preset == "reference")
    return getReference(ctx);
  if (preset == "deterministic")
    return getDeterministic(ctx);
  if (preset == "unaudited")
    return getUnaudited(ctx);
  return parser.emitError(loc)
         << "unknown precision preset '" << preset
         << "'; expected 'reference', 'deterministic', 'unaudited' or <...>";
}

//===----------------------------------------------------------------------===//
// DecisionAttr
//===----------------------------------------------------------------------===//

ParseResult mlir::fuel::parseOpKindKeyword(AsmParser &parser, OpKind &kind) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<OpKind> parsed = symbolizeOpKind(name);
  if (!parsed) {
    InFlightDiagnostic diag = parser.emitError(loc)
                              << "unknown op kind '" << name
                              << "'; expected one of: ";
    llvm::interleaveComma(
        llvm::seq<uint32_t>(0, getMaxEnumValForOpKind() + 1), diag,
        [&](uint32_t v) { diag << stringifyOpKind(OpKind(v)); });
    return diag;
  }
  kind = *parsed;
  return success();
}

ParseResult mlir::fuel::parseBackendKeyword(AsmParser &parser,
                                            DeviceKind &kind) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<DeviceKind> parsed = symbolizeDeviceKind(name);
  if (!parsed)
    return parser.emitError(loc) << "unknown backend '" << name
                                 << "'; expected 'cpu', 'cuda' or 'vulkan'";
  kind = *parsed;
  return success();
}

Attribute DecisionAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  OpKind kind = OpKind::generic;
  Type dtype;
  uint64_t sizeClass = 0;
  DeviceAttr device;
  FieldListParser fields(parser, "decision",
                         {"op", "dtype", "size_class", "device"});
  if (parser.parseLess() || fields.parse([&](StringRef key) -> ParseResult {
        if (parser.parseEqual())
          return failure();
        if (key == "op")
          return parseOpKindKeyword(parser, kind);
        if (key == "dtype")
          return parser.parseType(dtype);
        if (key == "size_class")
          return parser.parseInteger(sizeClass);
        FailureOr<DeviceAttr> d = DeviceAttr::parseBare(parser);
        if (failed(d))
          return failure();
        device = *d;
        return success();
      }) ||
      parser.parseGreater() ||
      fields.require(loc, {"op", "dtype", "size_class", "device"}))
    return {};
  return DecisionAttr::get(parser.getContext(), kind, dtype, sizeClass, device);
}

void DecisionAttr::print(AsmPrinter &printer) const {
  printer << "<op = " << stringifyOpKind(getOpKind()) << ", dtype = ";
  printer.printType(getDtype());
  printer << ", size_class = ";
  printer << ::fuel::plan::formatSizeClass(getSizeClass());
  printer << ", device = ";
  getDevice().printBare(printer);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// CouplingAttr
//===----------------------------------------------------------------------===//

LogicalResult CouplingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   DeviceAttr on, int64_t node,
                                   Attribute condition, int64_t deltaNs) {
  if (node < 0)
    return emitError() << "coupling node id must be non-negative, got " << node;
  if (!isa_and_nonnull<DeviceAttr, DeviceKindAttr>(condition))
    return emitError() << "coupling condition must be a device or a backend";
  return success();
}

DeviceAttr CouplingAttr::getConditionDevice() const {
  return dyn_cast<DeviceAttr>(getCondition());
}

std::optional<DeviceKind> CouplingAttr::getConditionBackend() const {
  if (auto backend = dyn_cast<DeviceKindAttr>(getCondition()))
    return backend.getValue();
  return std::nullopt;
}

Attribute CouplingAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  DeviceAttr on;
  int64_t node = 0, delta = 0;
  Attribute condition;
  FieldListParser fields(parser, "coupling",
                         {"on", "node", "device", "backend", "delta_ns"});
  if (parser.parseLess() || fields.parse([&](StringRef key) -> ParseResult {
        if (key == "node")
          return parseEqInt(parser, node);
        if (key == "delta_ns")
          return parseEqInt(parser, delta);
        if (parser.parseEqual())
          return failure();
        if (condition && (key == "device" || key == "backend"))
          return parser.emitError(parser.getCurrentLocation())
                 << "a coupling has one condition: a device or a backend";
        if (key == "backend") {
          DeviceKind kind;
          if (parseBackendKeyword(parser, kind))
            return failure();
          condition = DeviceKindAttr::get(ctx, kind);
          return success();
        }
        FailureOr<DeviceAttr> d = DeviceAttr::parseBare(parser);
        if (failed(d))
          return failure();
        if (key == "on")
          on = *d;
        else
          condition = *d;
        return success();
      }) ||
      parser.parseGreater() || fields.require(loc, {"node", "delta_ns"}))
    return {};
  if (!condition) {
    parser.emitError(loc) << "coupling is missing its condition: 'device = "
                             "...' or 'backend = ...'";
    return {};
  }
  return CouplingAttr::getChecked([&] { return parser.emitError(loc); }, ctx,
                                  on, node, condition, delta);
}

void CouplingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (DeviceAttr on = getOn()) {
    printer << "on = ";
    on.printBare(printer);
    printer << ", ";
  }
  printer << "node = " << getNode() << ", ";
  if (DeviceAttr device = getConditionDevice()) {
    printer << "device = ";
    device.printBare(printer);
  } else {
    printer << "backend = " << stringifyDeviceKind(*getConditionBackend());
  }
  printer << ", delta_ns = " << getDeltaNs() << '>';
}

//===----------------------------------------------------------------------===//
// CandidateAttr
//===----------------------------------------------------------------------===//

LogicalResult CandidateAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef kernelId,
    StringRef source, DeviceKind backend, DeviceAttr device, ArrayAttr caps,
    PrecisionAttr precision, CostAttr cost, int64_t timeNs,
    TimeSource timeSource, int64_t noiseNs, int64_t staticTimeNs,
    int64_t hostBytes, int64_t deviceBytes, int64_t transferNs,
    DictionaryAttr params, ArrayAttr coupling, uint64_t revision,
    int64_t priority, bool fallback) {
  if (kernelId.empty())
    return emitError() << "candidate kernel id must not be empty";
  if (source.empty())
    return emitError() << "candidate '" << kernelId
                       << "' has an empty kernel source";
  if (!device || !precision || !cost || !caps || !params || !coupling)
    return emitError() << "candidate '" << kernelId
                       << "' is missing a required field";
  if (backend != device.getKind())
    return emitError() << "candidate '" << kernelId << "' has backend '"
                       << stringifyDeviceKind(backend) << "' but its device '"
                       << device.str() << "' is of kind '"
                       << stringifyDeviceKind(device.getKind()) << "'";
  if (timeSource != TimeSource::measured && (noiseNs != 0 || staticTimeNs != 0))
    return emitError() << "candidate '" << kernelId
                       << "' has 'noise_ns' or 'static_time_ns' but its time "
                          "is not measured";
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"time_ns", timeNs},
                             {"noise_ns", noiseNs},
                             {"static_time_ns", staticTimeNs},
                             {"host_bytes", hostBytes},
                             {"device_bytes", deviceBytes},
                             {"transfer_ns", transferNs}})
    if (value < 0)
      return emitError() << "candidate '" << kernelId << "' field '" << name
                         << "' must be non-negative, got " << value;
  for (Attribute cap : caps)
    if (!isa<StringAttr>(cap))
      return emitError() << "candidate '" << kernelId
                         << "' caps must be strings";
  for (Attribute adj : coupling) {
    auto c = dyn_cast<CouplingAttr>(adj);
    if (!c)
      return emitError() << "candidate '" << kernelId
                         << "' coupling entries must be #fuel.coupling";
    if (c.getOn())
      return emitError() << "candidate '" << kernelId
                         << "' coupling applies to the candidate's own "
                            "device; remove 'on'";
  }
  return success();
}

Attribute CandidateAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  std::string kernelId, source;
  std::optional<DeviceKind> backend;
  DeviceAttr device;
  SmallVector<Attribute> caps;
  PrecisionAttr precision;
  CostAttr cost;
  int64_t timeNs = 0, hostBytes = 0, deviceBytes = 0, transferNs = 0,
          priority = 0, noiseNs = 0, staticTimeNs = 0;
  TimeSource timeSource = TimeSource::static_;
  DictionaryAttr params = DictionaryAttr::get(ctx);
  ArrayAttr coupling = ArrayAttr::get(ctx, {});
  uint64_t revision = 0;
  bool fallback = false;

  FieldListParser fields(parser, "candidate",
                         {"source", "backend", "device", "caps", "revision",
                          "priority", "precision", "cost", "time_ns",
                          "noise_ns", "static_time_ns", "host_bytes",
                          "device_bytes", "transfer_ns", "params", "coupling",
                          "fallback"});
  auto parseField = [&](StringRef key) -> ParseResult {
    if (key == "fallback") {
      fallback = true;
      return success();
    }
    if (key == "host_bytes")
      return parseEqInt(parser, hostBytes);
    if (key == "noise_ns")
      return parseEqInt(parser, noiseNs);
    if (key == "static_time_ns")
      return parseEqInt(parser, staticTimeNs);
    if (key == "device_bytes")
      return parseEqInt(parser, deviceBytes);
    if (key == "transfer_ns")
      return parseEqInt(parser, transferNs);
    if (key == "priority")
      return parseEqInt(parser, priority);
    if (key == "revision")
      return parseEqUInt(parser, revision);
    if (parser.parseEqual())
      return failure();
    if (key == "source")
      return parser.parseString(&source);
    if (key == "backend") {
      DeviceKind kind;
      if (parseBackendKeyword(parser, kind))
        return failure();
      backend = kind;
      return success();
    }
    if (key == "device") {
      FailureOr<DeviceAttr> d = DeviceAttr::parseBare(parser);
      if (failed(d))
        return failure();
      device = *d;
      return success();
    }
    if (key == "caps")
      return parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            std::string cap;
            if (parser.parseKeywordOrString(&cap))
              return failure();
            caps.push_back(StringAttr::get(ctx, cap));
            return success();
          });
    if (key == "precision") {
      FailureOr<PrecisionAttr> p = PrecisionAttr::parseNested(parser);
      if (failed(p))
        return failure();
      precision = *p;
      return success();
    }
    if (key == "cost") {
      cost = llvm::dyn_cast_or_null<CostAttr>(CostAttr::parse(parser, {}));
      return success(cost != nullptr);
    }
    if (key == "time_ns") {
      SMLoc srcLoc;
      StringRef src;
      if (parser.parseInteger(timeNs))
        return failure();
      srcLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&src))
        return failure();
      std::optional<TimeSource> ts = symbolizeTimeSource(src);
      if (!ts)
        return parser.emitError(srcLoc) << "unknown time source '" << src
                                        << "'; expected 'static' or 'measured'";
      timeSource = *ts;
      return success();
    }
    if (key == "params")
      return parser.parseAttribute(params);
    return parser.parseAttribute(coupling);
  };
  if (parser.parseLess() || parser.parseString(&kernelId) ||
      fields.parseAfterComma(parseField) || parser.parseGreater() ||
      fields.require(loc, {"source", "device", "precision", "cost", "time_ns"}))
    return {};
  return CandidateAttr::getChecked(
      [&] { return parser.emitError(loc); }, ctx, kernelId, source,
      backend.value_or(device.getKind()), device, ArrayAttr::get(ctx, caps),
      precision, cost, timeNs, timeSource, noiseNs, staticTimeNs, hostBytes,
      deviceBytes, transferNs, params, coupling, revision, priority, fallback);
}

void CandidateAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printString(getKernelId());
  printer << ", source = ";
  printer.printString(getSource());
  printer << ", backend = " << stringifyDeviceKind(getBackend())
          << ", device = ";
  getDevice().printBare(printer);
  if (!getCaps().empty()) {
    printer << ", caps = [";
    llvm::interleaveComma(getCaps(), printer, [&](Attribute cap) {
      printer.printKeywordOrString(cast<StringAttr>(cap).getValue());
    });
    printer << ']';
  }
  if (getRevision() != 0) {
    printer << ", revision = ";
    printer << ::fuel::plan::formatHash(getRevision());
  }
  if (getPriority() != 0)
    printer << ", priority = " << getPriority();
  printer << ", precision = ";
  getPrecision().printNested(printer);
  printer << ", cost = ";
  getCost().print(printer);
  printer << ", time_ns = " << getTimeNs() << ' '
          << stringifyTimeSource(getTimeSource());
  if (getTimeSource() == TimeSource::measured)
    printer << ", noise_ns = " << getNoiseNs()
            << ", static_time_ns = " << getStaticTimeNs();
  printer << ", host_bytes = " << getHostBytes()
          << ", device_bytes = " << getDeviceBytes();
  if (getTransferNs() != 0)
    printer << ", transfer_ns = " << getTransferNs();
  if (!getParams().empty()) {
    printer << ", params = ";
    printer.printAttribute(getParams());
  }
  if (!getCoupling().empty()) {
    printer << ", coupling = ";
    printer.printAttribute(getCoupling());
  }
  if (getFallback())
    printer << ", fallback";
  printer << '>';
}

//===----------------------------------------------------------------------===//
// AlternativeSetAttr
//===----------------------------------------------------------------------===//

LogicalResult
AlternativeSetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           DecisionAttr decision,
                           ArrayRef<CandidateAttr> candidates) {
  if (!decision)
    return emitError() << "an alternative set needs a decision context";
  if (candidates.empty())
    return emitError() << "an alternative set needs at least one candidate "
                          "(index 0 is the winner)";
  std::set<std::tuple<StringRef, uint32_t, int64_t>> seen;
  for (auto [index, candidate] : llvm::enumerate(candidates)) {
    if (!candidate)
      return emitError() << "alternative #" << index << " is null";
    DeviceAttr device = candidate.getDevice();
    if (!seen.insert({candidate.getKernelId(), uint32_t(device.getKind()),
                      device.getOrdinal()})
             .second)
      return emitError() << "alternative #" << index << " repeats kernel '"
                         << candidate.getKernelId() << "' on device '"
                         << device.str() << "'";
  }
  return success();
}

Attribute AlternativeSetAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<CandidateAttr> candidates;
  if (parser.parseLess() || parser.parseKeyword("decision") ||
      parser.parseEqual())
    return {};
  auto decision =
      llvm::dyn_cast_or_null<DecisionAttr>(DecisionAttr::parse(parser, {}));
  if (!decision || parser.parseComma() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       CandidateAttr candidate;
                                       if (parser.parseAttribute(candidate))
                                         return failure();
                                       candidates.push_back(candidate);
                                       return success();
                                     }) ||
      parser.parseGreater())
    return {};
  return AlternativeSetAttr::getChecked([&] { return parser.emitError(loc); },
                                        parser.getContext(), decision,
                                        candidates);
}

void AlternativeSetAttr::print(AsmPrinter &printer) const {
  printer << "<decision = ";
  getDecision().print(printer);
  printer << ", [";
  llvm::interleaveComma(getCandidates(), printer,
                        [&](CandidateAttr c) { printer.printAttribute(c); });
  printer << "]>";
}

//===----------------------------------------------------------------------===//
// PlanConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult
PlanConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError, bool, bool,
                       DeviceAttr, PrecisionAttr precisionRequirement,
                       ArrayRef<::fuel::target::KernelSource> sources) {
  // Canonical order without repeats: one list per set of sources, as the
  // text prints.
  for (size_t i = 1; i < sources.size(); ++i)
    if (!(sources[i - 1] < sources[i]))
      return emitError() << "kernel sources must be in the order "
                         << ::fuel::target::formatKernelSources(
                                ::fuel::target::allKernelSources())
                         << " without repeats";
  if (!precisionRequirement)
    return emitError() << "a planning configuration needs a precision "
                          "requirement";
  if (!precisionRequirement.getNote().empty())
    return emitError() << "a precision requirement has no note";
  return success();
}

::fuel::plan::Precision PlanConfigAttr::getRequirement() const {
  return getPrecisionRequirement().toPlan();
}

std::string PlanConfigAttr::getPrecision() const {
  return ::fuel::plan::formatPrecisionRequirement(getRequirement());
}

std::vector<::fuel::target::KernelSource>
PlanConfigAttr::getSourceList() const {
  return std::vector<::fuel::target::KernelSource>(getSources().begin(),
                                                   getSources().end());
}

std::string PlanConfigAttr::getKernelSources() const {
  return ::fuel::target::formatKernelSources(getSources());
}

/// The kernel sources `text` names, which must be in canonical form (as
/// fuel-attach-topology writes them); an error otherwise.
static FailureOr<std::vector<::fuel::target::KernelSource>>
parseConfigSources(function_ref<InFlightDiagnostic()> emitError,
                   StringRef text) {
  llvm::Expected<std::vector<::fuel::target::KernelSource>> sources =
      ::fuel::target::parseKernelSources(text);
  if (!sources)
    return emitError() << "invalid kernel sources '" << text
                       << "': " << llvm::toString(sources.takeError());
  if (::fuel::target::formatKernelSources(*sources) != text)
    return emitError() << "kernel sources '" << text
                       << "' are not in canonical form; write '"
                       << ::fuel::target::formatKernelSources(*sources) << "'";
  return std::move(*sources);
}

/// The precision requirement `text` spells, which must be in canonical form
/// (as fuel-attach-topology writes it); an error otherwise.
static FailureOr<::fuel::plan::Precision>
parseConfigPrecision(function_ref<InFlightDiagnostic()> emitError,
                     StringRef text) {
  llvm::Expected<::fuel::plan::Precision> parsed =
      ::fuel::plan::parsePrecisionRequirement(text);
  if (!parsed)
    return emitError() << "invalid precision requirement '" << text
                       << "': " << llvm::toString(parsed.takeError());
  if (::fuel::plan::formatPrecisionRequirement(*parsed) != text)
    return emitError() << "precision requirement '" << text
                       << "' is not in canonical form; write '"
                       << ::fuel::plan::formatPrecisionRequirement(*parsed)
                       << "'";
  return std::move(*parsed);
}

/// Parses `= true` or `= false`.
static ParseResult parseEqBool(AsmParser &parser, bool &value) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseEqual() || parser.parseKeyword(&word))
    return failure();
  if (word != "true" && word != "false")
    return parser.emitError(loc)
           << "expected 'true' or 'false', got '" << word << "'";
  value = word == "true";
  return success();
}

Attribute PlanConfigAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  bool price = true, allow = true;
  DeviceAttr pinned;
  std::string precision = "none", kernelSources;
  static constexpr StringRef all[] = {"price_transfers", "allow_cost_placement",
                                      "pinned_device", "precision",
                                      "kernel_sources"};
  static constexpr StringRef required[] = {
      "price_transfers", "allow_cost_placement", "pinned_device", "precision"};
  FieldListParser fields(parser, "config", all);
  if (parser.parseLess() || fields.parse([&](StringRef key) -> ParseResult {
        if (key == "price_transfers")
          return parseEqBool(parser, price);
        if (key == "allow_cost_placement")
          return parseEqBool(parser, allow);
        if (key == "pinned_device") {
          if (parser.parseEqual())
            return failure();
          if (succeeded(parser.parseOptionalKeyword("none"))) {
            pinned = {};
            return success();
          }
          FailureOr<DeviceAttr> device = DeviceAttr::parseBare(parser);
          if (failed(device))
            return failure();
          pinned = *device;
          return success();
        }
        if (key == "kernel_sources")
          return failure(parser.parseEqual() ||
                         parser.parseString(&kernelSources));
        return failure(parser.parseEqual() || parser.parseString(&precision));
      }) ||
      parser.parseGreater() || fields.require(loc, required))
    return {};
  // The text is checked here, the only place it can be other than
  // canonical; the attribute holds what it names.
  auto emitError = [&] { return parser.emitError(loc); };
  FailureOr<std::vector<::fuel::target::KernelSource>> sources =
      parseConfigSources(emitError, kernelSources);
  if (failed(sources))
    return {};
  FailureOr<::fuel::plan::Precision> requirement =
      parseConfigPrecision(emitError, precision);
  if (failed(requirement))
    return {};
  MLIRContext *ctx = parser.getContext();
  return PlanConfigAttr::getChecked(
      emitError, ctx, price, allow, pinned,
      PrecisionAttr::fromPlan(ctx, *requirement),
      ArrayRef<::fuel::target::KernelSource>(*sources));
}

void PlanConfigAttr::print(AsmPrinter &printer) const {
  printer << "<price_transfers = " << (getPriceTransfers() ? "true" : "false")
          << ", allow_cost_placement = "
          << (getAllowCostPlacement() ? "true" : "false")
          << ", pinned_device = ";
  if (DeviceAttr d = getPinnedDevice())
    d.printBare(printer);
  else
    printer << "none";
  printer << ", precision = ";
  printer.printString(getPrecision());
  if (!getSources().empty()) {
    printer << ", kernel_sources = ";
    printer.printString(getKernelSources());
  }
  printer << '>';
}

//===----------------------------------------------------------------------===//
// PredictedAttr
//===----------------------------------------------------------------------===//

LogicalResult
PredictedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t total, int64_t nodes, int64_t copies,
                      int64_t coupling) {
  if (nodes < 0 || copies < 0)
    return emitError() << "predicted node and copy times must be "
                          "non-negative, got nodes = "
                       << nodes << ", copies = " << copies;
  int64_t sum =
      ::fuel::plan::satAdd(::fuel::plan::satAdd(nodes, copies), coupling);
  if (sum != total)
    return emitError() << "predicted total " << total
                       << " is not nodes + copies + coupling = " << sum;
  return success();
}
