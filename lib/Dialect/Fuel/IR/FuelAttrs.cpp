//===- FuelAttrs.cpp - Attributes of the fuel dialect ---------------------===//
//
// Parsing, printing and verification of the fuel attributes, and conversion
// of `#fuel.topology` to and from the planner's plain struct.
//
// Keyed attributes (candidates, devices of a topology, couplings, ...) accept
// their fields in any order and report unknown, duplicate and missing fields
// by name; they print in one canonical order.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Planner/Numbers.h"
#include "fuel/Planner/PrecisionRules.h"
#include "fuel/Planner/SizeClass.h"

#include "fuel/Dialect/Fuel/IR/CpuTarget.h"
#include "fuel/Dialect/Fuel/IR/GpuLimits.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h" // used by the generated attribute parser
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace mlir::fuel;

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
// Shared parsing helpers
//===----------------------------------------------------------------------===//

namespace {
/// Parses a comma-separated list of `key` or `key = value` fields (the
/// callback consumes `= value` itself). Rejects unknown and duplicate keys,
/// naming them and listing the known ones.
class FieldListParser {
public:
  FieldListParser(AsmParser &parser, StringRef what, ArrayRef<StringRef> keys)
      : parser(parser), what(what), keys(keys.begin(), keys.end()) {}

  ParseResult parse(function_ref<ParseResult(StringRef key)> parseField) {
    return parser.parseCommaSeparatedList([&]() -> ParseResult {
      SMLoc keyLoc = parser.getCurrentLocation();
      StringRef key;
      if (parser.parseKeyword(&key))
        return failure();
      if (!llvm::is_contained(keys, key)) {
        InFlightDiagnostic diag = parser.emitError(keyLoc)
                                  << "unknown " << what << " field '" << key
                                  << "'; expected one of: ";
        llvm::interleaveComma(keys, diag);
        return diag;
      }
      if (!seen.insert(key).second)
        return parser.emitError(keyLoc)
               << "duplicate " << what << " field '" << key << "'";
      return parseField(key);
    });
  }

  /// Parses the field list only when a comma follows.
  ParseResult parseAfterComma(function_ref<ParseResult(StringRef)> fn) {
    if (failed(parser.parseOptionalComma()))
      return success();
    return parse(fn);
  }

  bool has(StringRef key) const { return seen.contains(key); }

  /// Emits an error at `loc` for the first required key not seen.
  ParseResult require(SMLoc loc, ArrayRef<StringRef> required) {
    for (StringRef key : required)
      if (!has(key))
        return parser.emitError(loc)
               << what << " is missing field '" << key << "'";
    return success();
  }

private:
  AsmParser &parser;
  StringRef what;
  SmallVector<StringRef> keys;
  llvm::StringSet<> seen;
};
} // namespace

/// Parses `= <integer>` into a signed 64-bit value.
static ParseResult parseEqInt(AsmParser &parser, int64_t &value) {
  return failure(parser.parseEqual() || parser.parseInteger(value));
}

/// Parses `= <integer>` into an unsigned 64-bit value (hex allowed). A
/// minus sign is refused here: AsmParser would read `-1` as 2^64 - 1.
static ParseResult parseEqUInt(AsmParser &parser, uint64_t &value) {
  if (parser.parseEqual())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalMinus()))
    return parser.emitError(loc, "expected a non-negative integer");
  return parser.parseInteger(value);
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
// DeviceAttr
//===----------------------------------------------------------------------===//

LogicalResult DeviceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 DeviceKind kind, int64_t ordinal) {
  if (ordinal < 0)
    return emitError() << "device ordinal must be non-negative, got "
                       << ordinal;
  if (ordinal > UINT32_MAX)
    return emitError() << "device ordinal " << ordinal << " is too large";
  if (kind == DeviceKind::cpu && ordinal != 0)
    return emitError() << "the host device 'cpu' has no ordinal (got "
                       << ordinal << ")";
  return success();
}

std::string DeviceAttr::str() const {
  if (isHost())
    return "cpu";
  return (stringifyDeviceKind(getKind()) + ":" + Twine(getOrdinal())).str();
}

bool DeviceAttr::operator<(DeviceAttr other) const {
  return std::make_pair(uint32_t(getKind()), getOrdinal()) <
         std::make_pair(uint32_t(other.getKind()), other.getOrdinal());
}

void DeviceAttr::printBare(AsmPrinter &printer) const { printer << str(); }

FailureOr<DeviceAttr> DeviceAttr::parseBare(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kindName;
  if (parser.parseKeyword(&kindName))
    return failure();
  std::optional<DeviceKind> kind = symbolizeDeviceKind(kindName);
  if (!kind)
    return parser.emitError(loc) << "unknown device kind '" << kindName
                                 << "'; expected 'cpu', 'cuda:N' or 'vulkan:N'";
  if (*kind == DeviceKind::cpu) {
    if (succeeded(parser.parseOptionalColon()))
      return parser.emitError(loc)
             << "the host device 'cpu' takes no ordinal; write 'cpu'";
    return DeviceAttr::get(parser.getContext(), *kind, 0);
  }
  if (failed(parser.parseOptionalColon()))
    return parser.emitError(loc)
           << "device kind '" << kindName << "' needs an ordinal, e.g. '"
           << kindName << ":0'";
  SMLoc ordinalLoc = parser.getCurrentLocation();
  int64_t ordinal = 0;
  if (parser.parseInteger(ordinal))
    return failure();
  DeviceAttr device =
      DeviceAttr::getChecked([&] { return parser.emitError(ordinalLoc); },
                             parser.getContext(), *kind, ordinal);
  if (!device)
    return failure();
  return device;
}

Attribute DeviceAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<DeviceAttr> device = parseBare(parser);
  if (failed(device) || parser.parseGreater())
    return {};
  return *device;
}

void DeviceAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBare(printer);
  printer << '>';
}

Attribute DeviceAttr::getSingleDevice() const { return *this; }

bool DeviceAttr::admits(Attribute device) const { return device == *this; }

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

static FloatAttr getF64(MLIRContext *ctx, double value) {
  return FloatAttr::get(Float64Type::get(ctx), value);
}

/// Prints a float without its type as a decimal literal that reads back as
/// the same float. MLIR's printer falls back to a hexadecimal bit pattern for
/// whole numbers of 7 or more significant digits (1000001.0, 2147483648.0),
/// which a dictionary entry reads back as an integer; those print here in
/// APFloat's shortest exact form with a `.0` the lexer needs.
static void printFloatLiteral(AsmPrinter &printer, Attribute attr) {
  auto f = dyn_cast<FloatAttr>(attr);
  if (!f || !f.getValue().isFinite()) {
    printer.printAttributeWithoutType(attr);
    return;
  }
  const llvm::APFloat &v = f.getValue();
  SmallString<32> text;
  v.toString(text, /*FormatPrecision=*/6, /*FormatMaxPadding=*/0,
             /*TruncateZero=*/false);
  if (llvm::APFloat(v.getSemantics(), text).bitwiseIsEqual(v)) {
    printer << text;
    return;
  }
  text.clear();
  v.toString(text);
  if (!StringRef(text).contains('.')) {
    size_t exponent = StringRef(text).find_first_of("eE");
    text.insert(exponent == StringRef::npos ? text.end()
                                            : text.begin() + exponent,
                {'.', '0'});
  }
  printer << text;
}

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
// DeviceInfoAttr and LinkAttr
//===----------------------------------------------------------------------===//

/// True for a finite, non-negative f64 figure.
static bool isFigure(FloatAttr f) {
  if (!f || !f.getType().isF64())
    return false;
  double v = f.getValueAsDouble();
  return v >= 0 && std::isfinite(v);
}

LogicalResult DeviceInfoAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, DeviceAttr device,
    StringRef name, bool cpuType, DictionaryAttr peak, FloatAttr bytesPerNs,
    int64_t dispatchNs, int64_t memory, int64_t alignment, StringRef cpuTarget,
    StringRef cpuFeatures, GpuLimitsAttr limits, StringRef computeCapability,
    StringRef driver) {
  if (!device || !peak)
    return emitError() << "device_info needs a device and a peak dictionary";
  for (NamedAttribute entry : peak) {
    StringRef dtype = entry.getName().getValue();
    if (dtype.empty() || !llvm::all_of(dtype, [](char c) {
          return llvm::isAlnum(c) || c == '_';
        }))
      return emitError() << "peak key '" << dtype << "' of device '"
                         << device.str() << "' is not an element type name";
    if (!isFigure(dyn_cast<FloatAttr>(entry.getValue())))
      return emitError() << "peak figure '" << dtype << "' of device '"
                         << device.str()
                         << "' must be a finite, non-negative f64 (flop/ns)";
  }
  if (bytesPerNs && !isFigure(bytesPerNs))
    return emitError() << "bytes_per_ns of device '" << device.str()
                       << "' must be a finite, non-negative f64";
  if (dispatchNs < 0)
    return emitError() << "device '" << device.str()
                       << "' needs a non-negative dispatch_ns";
  // memory and alignment hold unsigned 64-bit values (a topology file allows
  // up to 2^64 - 1) in the int64_t parameters: every figure is valid memory
  // and the alignment is a power of two up to 2^63.
  if (!llvm::isPowerOf2_64(uint64_t(alignment)))
    return emitError() << "device '" << device.str()
                       << "' needs an alignment that is a power of two";
  if (cpuTarget.empty() && !cpuFeatures.empty())
    return emitError() << "device '" << device.str()
                       << "' has cpu_features but no cpu_target";
  if (!cpuTarget.empty()) {
    if (!toPlan(device).isHost())
      return emitError() << "device '" << device.str()
                         << "' has a cpu_target; only the host 'cpu' has one";
    std::string problem =
        ::fuel::plan::validateCpuTarget({cpuTarget.str(), cpuFeatures.str()});
    if (!problem.empty())
      return emitError() << "invalid cpu_target of device 'cpu': " << problem;
  }
  if (limits && toPlan(device).isHost())
    return emitError() << "device 'cpu' has limits; only GPU devices "
                          "(cuda:N, vulkan:N) have them";
  if (!computeCapability.empty()) {
    if (toPlan(device).kind != ::fuel::DeviceKind::Cuda)
      return emitError() << "device '" << device.str()
                         << "' has a compute_capability; only CUDA devices "
                            "(cuda:N) have one";
    if (!::fuel::plan::parseComputeCapability(computeCapability))
      return emitError() << "compute_capability of device '" << device.str()
                         << "' must be \"major.minor\" from \"3.0\" to "
                            "\"99.9\", got \""
                         << computeCapability << "\"";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GpuLimitsAttr
//===----------------------------------------------------------------------===//

LogicalResult GpuLimitsAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t subgroupSize,
    int64_t sharedMemoryBytes, int64_t maxWorkgroupInvocations,
    ArrayRef<int64_t> maxWorkgroupSize, int64_t minStorageBufferOffsetAlignment,
    int64_t maxPushConstantsBytes, llvm::APFloat timestampPeriod) {
  if (&timestampPeriod.getSemantics() != &llvm::APFloat::IEEEdouble())
    return emitError() << "gpu_limits timestamp_period_ns must be an f64";
  double timestampPeriodNs = timestampPeriod.convertToDouble();
  if (maxWorkgroupSize.size() != 3)
    return emitError() << "gpu_limits max_workgroup_size needs three sizes "
                          "[x, y, z], got "
                       << maxWorkgroupSize.size();
  auto checkRange = [&](StringRef key, int64_t v,
                        uint64_t max) -> LogicalResult {
    if (v < 0 || uint64_t(v) > max)
      return emitError() << "gpu_limits " << key << " " << v
                         << " is out of range [0, " << max << "]";
    return success();
  };
  if (failed(checkRange("subgroup_size", subgroupSize,
                        ::fuel::plan::kMaxSubgroupSize)) ||
      failed(checkRange("shared_memory_bytes", sharedMemoryBytes,
                        ::fuel::plan::kMaxSharedMemoryBytes)) ||
      failed(checkRange("max_workgroup_invocations", maxWorkgroupInvocations,
                        ::fuel::plan::kMaxWorkgroupInvocations)) ||
      failed(checkRange("min_storage_buffer_offset_alignment",
                        minStorageBufferOffsetAlignment,
                        ::fuel::plan::kMaxStorageBufferOffsetAlignment)) ||
      failed(checkRange("max_push_constants_bytes", maxPushConstantsBytes,
                        ::fuel::plan::kMaxPushConstantsBytes)))
    return failure();
  for (int64_t size : maxWorkgroupSize)
    if (failed(checkRange("max_workgroup_size", size,
                          ::fuel::plan::kMaxWorkgroupInvocations)))
      return failure();
  ::fuel::plan::GpuLimits l;
  l.subgroupSize = uint32_t(subgroupSize);
  l.sharedMemoryBytes = uint64_t(sharedMemoryBytes);
  l.maxWorkgroupInvocations = uint32_t(maxWorkgroupInvocations);
  for (int i = 0; i < 3; ++i)
    l.maxWorkgroupSize[i] = uint32_t(maxWorkgroupSize[i]);
  l.minStorageBufferOffsetAlignment = uint64_t(minStorageBufferOffsetAlignment);
  l.maxPushConstantsBytes = uint32_t(maxPushConstantsBytes);
  l.timestampPeriodNs = timestampPeriodNs;
  std::string problem = ::fuel::plan::validateGpuLimits(l);
  if (!problem.empty())
    return emitError() << "invalid gpu_limits: " << problem;
  return success();
}

::fuel::plan::GpuLimits GpuLimitsAttr::toPlan() const {
  ::fuel::plan::GpuLimits l;
  l.subgroupSize = uint32_t(getSubgroupSize());
  l.sharedMemoryBytes = uint64_t(getSharedMemoryBytes());
  l.maxWorkgroupInvocations = uint32_t(getMaxWorkgroupInvocations());
  ArrayRef<int64_t> sizes = getMaxWorkgroupSize();
  for (size_t i = 0; i < 3 && i < sizes.size(); ++i)
    l.maxWorkgroupSize[i] = uint32_t(sizes[i]);
  l.minStorageBufferOffsetAlignment =
      uint64_t(getMinStorageBufferOffsetAlignment());
  l.maxPushConstantsBytes = uint32_t(getMaxPushConstantsBytes());
  l.timestampPeriodNs = getTimestampPeriodNs().convertToDouble();
  return l;
}

GpuLimitsAttr GpuLimitsAttr::fromPlan(MLIRContext *ctx,
                                      const ::fuel::plan::GpuLimits &l) {
  int64_t sizes[3] = {l.maxWorkgroupSize[0], l.maxWorkgroupSize[1],
                      l.maxWorkgroupSize[2]};
  return get(ctx, l.subgroupSize, int64_t(l.sharedMemoryBytes),
             l.maxWorkgroupInvocations, sizes,
             int64_t(l.minStorageBufferOffsetAlignment),
             l.maxPushConstantsBytes, llvm::APFloat(l.timestampPeriodNs));
}

static constexpr StringLiteral kGpuLimitsKeys[] = {
    "subgroup_size",
    "shared_memory_bytes",
    "max_workgroup_invocations",
    "max_workgroup_size",
    "min_storage_buffer_offset_alignment",
    "max_push_constants_bytes",
    "timestamp_period_ns"};

Attribute GpuLimitsAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t subgroup = 0, shared = 0, invocations = 0, alignment = 0, push = 0;
  SmallVector<int64_t, 3> sizes = {0, 0, 0};
  double period = 0;
  SmallVector<StringRef> keys(std::begin(kGpuLimitsKeys),
                              std::end(kGpuLimitsKeys));
  FieldListParser fields(parser, "gpu_limits", keys);
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (fields.parse([&](StringRef key) -> ParseResult {
          if (key == "subgroup_size")
            return parseEqInt(parser, subgroup);
          if (key == "shared_memory_bytes")
            return parseEqInt(parser, shared);
          if (key == "max_workgroup_invocations")
            return parseEqInt(parser, invocations);
          if (key == "min_storage_buffer_offset_alignment")
            return parseEqInt(parser, alignment);
          if (key == "max_push_constants_bytes")
            return parseEqInt(parser, push);
          if (parser.parseEqual())
            return failure();
          if (key == "timestamp_period_ns")
            return parser.parseFloat(period);
          sizes.clear();
          return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                                [&]() -> ParseResult {
                                                  int64_t v;
                                                  if (parser.parseInteger(v))
                                                    return failure();
                                                  sizes.push_back(v);
                                                  return success();
                                                });
        }) ||
        parser.parseGreater())
      return {};
  }
  return GpuLimitsAttr::getChecked(
      [&] { return parser.emitError(loc); }, parser.getContext(), subgroup,
      shared, invocations, sizes, alignment, push, llvm::APFloat(period));
}

void GpuLimitsAttr::print(AsmPrinter &printer) const {
  printer << '<';
  bool first = true;
  auto field = [&](StringRef key) -> AsmPrinter & {
    printer << (first ? "" : ", ") << key << " = ";
    first = false;
    return printer;
  };
  // Unknown (0) figures are left out.
  if (getSubgroupSize())
    field("subgroup_size") << getSubgroupSize();
  if (getSharedMemoryBytes())
    field("shared_memory_bytes") << getSharedMemoryBytes();
  if (getMaxWorkgroupInvocations())
    field("max_workgroup_invocations") << getMaxWorkgroupInvocations();
  if (llvm::any_of(getMaxWorkgroupSize(), [](int64_t v) { return v != 0; })) {
    field("max_workgroup_size") << '[';
    llvm::interleaveComma(getMaxWorkgroupSize(), printer);
    printer << ']';
  }
  if (getMinStorageBufferOffsetAlignment())
    field("min_storage_buffer_offset_alignment")
        << getMinStorageBufferOffsetAlignment();
  if (getMaxPushConstantsBytes())
    field("max_push_constants_bytes") << getMaxPushConstantsBytes();
  if (!getTimestampPeriodNs().isZero()) {
    field("timestamp_period_ns");
    printer.printFloat(getTimestampPeriodNs());
  }
  printer << '>';
}

LogicalResult LinkAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               DeviceAttr from, DeviceAttr to,
                               int64_t bandwidth, int64_t latencyNs,
                               PathClass pathClass) {
  if (!from || !to)
    return emitError() << "link needs two devices";
  if (from == to)
    return emitError() << "link from '" << from.str() << "' to itself";
  if (bandwidth <= 0)
    return emitError() << "link '" << from.str() << "' -> '" << to.str()
                       << "' needs a positive bandwidth";
  if (latencyNs < 0)
    return emitError() << "link '" << from.str() << "' -> '" << to.str()
                       << "' has a negative latency";
  return success();
}

Attribute DeviceInfoAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  std::string name, cpuTarget, cpuFeatures, computeCapability, driver;
  bool cpuType = false;
  DictionaryAttr peak = DictionaryAttr::get(ctx);
  FloatAttr bytesPerNs;
  int64_t dispatchNs = 0;
  uint64_t memory = 0, alignment = 64;
  FieldListParser fields(parser, "device_info",
                         {"name", "cpu_type", "peak", "bytes_per_ns",
                          "dispatch_ns", "memory", "alignment", "cpu_target",
                          "cpu_features", "limits", "compute_capability",
                          "driver"});
  GpuLimitsAttr limits;
  if (parser.parseLess())
    return {};
  FailureOr<DeviceAttr> device = DeviceAttr::parseBare(parser);
  if (failed(device) ||
      fields.parseAfterComma([&](StringRef key) -> ParseResult {
        if (key == "cpu_type") {
          cpuType = true;
          return success();
        }
        if (key == "dispatch_ns")
          return parseEqInt(parser, dispatchNs);
        // Unsigned figures, held in the int64_t parameters bit for bit.
        if (key == "memory")
          return parseEqUInt(parser, memory);
        if (key == "alignment")
          return parseEqUInt(parser, alignment);
        if (parser.parseEqual())
          return failure();
        if (key == "name")
          return parser.parseString(&name);
        if (key == "cpu_target")
          return parser.parseString(&cpuTarget);
        if (key == "cpu_features")
          return parser.parseString(&cpuFeatures);
        if (key == "compute_capability")
          return parser.parseString(&computeCapability);
        if (key == "driver")
          return parser.parseString(&driver);
        if (key == "limits") {
          limits = dyn_cast_or_null<GpuLimitsAttr>(
              GpuLimitsAttr::parse(parser, Type()));
          return failure(!limits);
        }
        if (key == "peak")
          return parser.parseAttribute(peak);
        double v;
        if (parser.parseFloat(v))
          return failure();
        bytesPerNs = getF64(ctx, v);
        return success();
      }) ||
      parser.parseGreater())
    return {};
  return DeviceInfoAttr::getChecked(
      [&] { return parser.emitError(loc); }, ctx, *device, name, cpuType, peak,
      bytesPerNs, dispatchNs, int64_t(memory), int64_t(alignment), cpuTarget,
      cpuFeatures, limits, computeCapability, driver);
}

void DeviceInfoAttr::print(AsmPrinter &printer) const {
  printer << '<';
  getDevice().printBare(printer);
  if (!getName().empty()) {
    printer << ", name = ";
    printer.printString(getName());
  }
  if (getCpuType())
    printer << ", cpu_type";
  // Rates print without their (always f64) type: `peak = {f32 = 3.2e+01}`.
  printer << ", peak = {";
  llvm::interleaveComma(getPeak(), printer, [&](NamedAttribute entry) {
    printer.printKeywordOrString(entry.getName().getValue());
    printer << " = ";
    printFloatLiteral(printer, entry.getValue());
  });
  printer << '}';
  if (FloatAttr bw = getBytesPerNs()) {
    printer << ", bytes_per_ns = ";
    printFloatLiteral(printer, bw);
  }
  printer << ", dispatch_ns = " << getDispatchNs()
          << ", memory = " << uint64_t(getMemory())
          << ", alignment = " << uint64_t(getAlignment());
  if (!getCpuTarget().empty()) {
    printer << ", cpu_target = ";
    printer.printString(getCpuTarget());
  }
  if (!getCpuFeatures().empty()) {
    printer << ", cpu_features = ";
    printer.printString(getCpuFeatures());
  }
  if (GpuLimitsAttr limits = getLimits()) {
    printer << ", limits = ";
    limits.print(printer);
  }
  if (!getComputeCapability().empty()) {
    printer << ", compute_capability = ";
    printer.printString(getComputeCapability());
  }
  if (!getDriver().empty()) {
    printer << ", driver = ";
    printer.printString(getDriver());
  }
  printer << '>';
}

Attribute LinkAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t bandwidth = 0, latency = 0;
  PathClass pathClass = PathClass::device_copy;
  FieldListParser fields(parser, "link", {"bandwidth", "latency_ns", "class"});
  if (parser.parseLess())
    return {};
  FailureOr<DeviceAttr> from = DeviceAttr::parseBare(parser);
  if (failed(from) || parser.parseArrow())
    return {};
  FailureOr<DeviceAttr> to = DeviceAttr::parseBare(parser);
  if (failed(to) || fields.parseAfterComma([&](StringRef key) -> ParseResult {
        if (key == "bandwidth")
          return parseEqInt(parser, bandwidth);
        if (key == "latency_ns")
          return parseEqInt(parser, latency);
        SMLoc classLoc = parser.getCurrentLocation();
        std::string name;
        if (parser.parseEqual() || parser.parseKeywordOrString(&name))
          return failure();
        std::optional<PathClass> parsed = symbolizePathClass(name);
        if (!parsed)
          return parser.emitError(classLoc)
                 << "unknown path class '" << name
                 << "'; expected 'peer', 'shared-memory' or 'device-copy'";
        pathClass = *parsed;
        return success();
      }) ||
      parser.parseGreater() ||
      fields.require(loc, {"bandwidth", "latency_ns", "class"}))
    return {};
  return LinkAttr::getChecked([&] { return parser.emitError(loc); },
                              parser.getContext(), *from, *to, bandwidth,
                              latency, pathClass);
}

void LinkAttr::print(AsmPrinter &printer) const {
  printer << '<';
  getFrom().printBare(printer);
  printer << " -> ";
  getTo().printBare(printer);
  printer << ", bandwidth = " << getBandwidth()
          << ", latency_ns = " << getLatencyNs() << ", class = ";
  printer.printKeywordOrString(stringifyPathClass(getPathClass()));
  printer << '>';
}

//===----------------------------------------------------------------------===//
// TopologyAttr
//===----------------------------------------------------------------------===//

/// Converts verified device and link records to the planner's struct.
static ::fuel::plan::Topology
buildPlanTopology(ArrayRef<DeviceInfoAttr> devices, ArrayRef<LinkAttr> links) {
  ::fuel::plan::Topology topology;
  for (DeviceInfoAttr info : devices) {
    ::fuel::plan::DeviceInfo d;
    d.device = toPlan(info.getDevice());
    d.name = info.getName().str();
    d.cpuType = info.getCpuType();
    for (NamedAttribute entry : info.getPeak())
      d.peakFlopsPerNs[entry.getName().str()] =
          cast<FloatAttr>(entry.getValue()).getValueAsDouble();
    if (FloatAttr bw = info.getBytesPerNs())
      d.bytesPerNs = bw.getValueAsDouble();
    d.dispatchOverheadNs = info.getDispatchNs();
    d.memoryBytes = uint64_t(info.getMemory());
    d.alignment = uint64_t(info.getAlignment());
    if (!info.getCpuTarget().empty())
      d.cpuTarget = ::fuel::plan::CpuTarget{info.getCpuTarget().str(),
                                            info.getCpuFeatures().str()};
    if (GpuLimitsAttr limits = info.getLimits())
      d.gpuLimits = limits.toPlan();
    if (!info.getComputeCapability().empty())
      d.computeCapability =
          ::fuel::plan::parseComputeCapability(info.getComputeCapability());
    d.driver = info.getDriver().str();
    topology.devices.push_back(std::move(d));
  }
  for (LinkAttr link : links) {
    ::fuel::plan::Link l;
    l.from = toPlan(link.getFrom());
    l.to = toPlan(link.getTo());
    l.bandwidthBytesPerSec = link.getBandwidth();
    l.latencyNs = link.getLatencyNs();
    switch (link.getPathClass()) {
    case PathClass::peer:
      l.pathClass = ::fuel::plan::PathClass::Peer;
      break;
    case PathClass::shared_memory:
      l.pathClass = ::fuel::plan::PathClass::SharedMemory;
      break;
    case PathClass::device_copy:
      l.pathClass = ::fuel::plan::PathClass::DeviceCopy;
      break;
    }
    topology.links.push_back(l);
  }
  return topology;
}

LogicalResult TopologyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<DeviceInfoAttr> devices,
                                   ArrayRef<LinkAttr> links, uint64_t hash) {
  // Each record is checked by its own verifier (records built with the
  // unchecked `get` are re-checked here); the whole by the planner's rules.
  for (DeviceInfoAttr d : devices)
    if (!d ||
        failed(DeviceInfoAttr::verify(
            emitError, d.getDevice(), d.getName(), d.getCpuType(), d.getPeak(),
            d.getBytesPerNs(), d.getDispatchNs(), d.getMemory(),
            d.getAlignment(), d.getCpuTarget(), d.getCpuFeatures(),
            d.getLimits(), d.getComputeCapability(), d.getDriver())))
      return d ? failure() : emitError() << "topology device is null";
  for (LinkAttr l : links)
    if (!l || failed(LinkAttr::verify(emitError, l.getFrom(), l.getTo(),
                                      l.getBandwidth(), l.getLatencyNs(),
                                      l.getPathClass())))
      return l ? failure() : emitError() << "topology link is null";
  ::fuel::plan::Topology topology = buildPlanTopology(devices, links);
  std::string problem = topology.validate();
  if (!problem.empty())
    return emitError() << "invalid topology: " << problem;
  uint64_t expected = topology.contentHash();
  if (hash != expected)
    return emitError() << "topology hash " << ::fuel::plan::formatHash(hash)
                       << " does not match its content (expected "
                       << ::fuel::plan::formatHash(expected) << ")";
  return success();
}

std::optional<std::pair<std::string, std::string>>
mlir::fuel::getCpuTarget(ModuleOp module) {
  auto topology =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  if (!topology)
    return std::nullopt;
  for (DeviceInfoAttr info : topology.getDevices())
    if (toPlan(info.getDevice()).isHost() && !info.getCpuTarget().empty())
      return std::make_pair(info.getCpuTarget().str(),
                            info.getCpuFeatures().str());
  return std::nullopt;
}

std::optional<::fuel::plan::GpuLimits>
mlir::fuel::getGpuLimits(ModuleOp module, const ::fuel::Device &device) {
  auto topology =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  if (!topology)
    return std::nullopt;
  for (DeviceInfoAttr info : topology.getDevices())
    if (toPlan(info.getDevice()) == device)
      if (GpuLimitsAttr limits = info.getLimits())
        return limits.toPlan();
  return std::nullopt;
}

::fuel::plan::ComputeCapability
mlir::fuel::getComputeCapability(ModuleOp module,
                                 const ::fuel::Device &device) {
  auto topology =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  if (topology)
    for (DeviceInfoAttr info : topology.getDevices())
      if (toPlan(info.getDevice()) == device &&
          !info.getComputeCapability().empty())
        if (auto cc = ::fuel::plan::parseComputeCapability(
                info.getComputeCapability()))
          return *cc;
  return ::fuel::plan::kDefaultComputeCapability;
}

::fuel::plan::Topology TopologyAttr::toPlan() const {
  return buildPlanTopology(getDevices(), getLinks());
}

TopologyAttr TopologyAttr::fromPlan(MLIRContext *ctx,
                                    const ::fuel::plan::Topology &input) {
  ::fuel::plan::Topology topology = input;
  topology.canonicalize();
  SmallVector<DeviceInfoAttr> devices;
  for (const ::fuel::plan::DeviceInfo &d : topology.devices) {
    SmallVector<NamedAttribute> peak;
    for (const auto &[dtype, rate] : d.peakFlopsPerNs)
      peak.emplace_back(StringAttr::get(ctx, dtype), getF64(ctx, rate));
    devices.push_back(DeviceInfoAttr::get(
        ctx, mlir::fuel::fromPlan(ctx, d.device), d.name, d.cpuType,
        DictionaryAttr::get(ctx, peak),
        d.bytesPerNs ? getF64(ctx, *d.bytesPerNs) : FloatAttr(),
        d.dispatchOverheadNs, int64_t(d.memoryBytes), int64_t(d.alignment),
        d.cpuTarget ? StringRef(d.cpuTarget->cpu) : StringRef(),
        d.cpuTarget ? StringRef(d.cpuTarget->features) : StringRef(),
        d.gpuLimits ? GpuLimitsAttr::fromPlan(ctx, *d.gpuLimits)
                    : GpuLimitsAttr(),
        d.computeCapability ? d.computeCapability->str() : std::string(),
        d.driver));
  }
  SmallVector<LinkAttr> links;
  for (const ::fuel::plan::Link &l : topology.links) {
    PathClass pathClass = PathClass::device_copy;
    if (l.pathClass == ::fuel::plan::PathClass::Peer)
      pathClass = PathClass::peer;
    else if (l.pathClass == ::fuel::plan::PathClass::SharedMemory)
      pathClass = PathClass::shared_memory;
    links.push_back(LinkAttr::get(
        ctx, mlir::fuel::fromPlan(ctx, l.from), mlir::fuel::fromPlan(ctx, l.to),
        l.bandwidthBytesPerSec, l.latencyNs, pathClass));
  }
  return get(ctx, devices, links, topology.contentHash());
}

DeviceInfoAttr TopologyAttr::lookup(DeviceAttr device) const {
  for (DeviceInfoAttr info : getDevices())
    if (info.getDevice() == device)
      return info;
  return {};
}

Attribute TopologyAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::optional<uint64_t> hash;
  SmallVector<DeviceInfoAttr> devices;
  SmallVector<LinkAttr> links;
  FieldListParser fields(parser, "topology", {"hash", "devices", "links"});
  auto parseList = [&](auto &out, auto parseOne) {
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          auto attr = llvm::dyn_cast_or_null<
              typename std::decay_t<decltype(out)>::value_type>(
              parseOne(parser, Type()));
          if (!attr)
            return failure();
          out.push_back(attr);
          return success();
        });
  };
  if (parser.parseLess() || fields.parse([&](StringRef key) -> ParseResult {
        if (key == "hash") {
          uint64_t h;
          if (parseEqUInt(parser, h))
            return failure();
          hash = h;
          return success();
        }
        if (parser.parseEqual())
          return failure();
        if (key == "devices")
          return parseList(devices, &DeviceInfoAttr::parse);
        return parseList(links, &LinkAttr::parse);
      }) ||
      parser.parseGreater() || fields.require(loc, {"devices"}))
    return {};
  auto emitError = [&] { return parser.emitError(loc); };
  if (!hash) {
    // No hash written: compute it. Records are already verified; a topology
    // that breaks the planner's rules is reported by getChecked below.
    hash = buildPlanTopology(devices, links).contentHash();
  }
  return TopologyAttr::getChecked(emitError, parser.getContext(), devices,
                                  links, *hash);
}

void TopologyAttr::print(AsmPrinter &printer) const {
  printer << "<hash = ";
  printer << ::fuel::plan::formatHash(getHash());
  printer << ", devices = [";
  llvm::interleaveComma(getDevices(), printer,
                        [&](DeviceInfoAttr d) { d.print(printer); });
  printer << "], links = [";
  llvm::interleaveComma(getLinks(), printer,
                        [&](LinkAttr l) { l.print(printer); });
  printer << "]>";
}

//===----------------------------------------------------------------------===//
// PlanConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult
PlanConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError, bool, bool,
                       DeviceAttr, StringRef precision,
                       StringRef kernelSources) {
  llvm::Expected<std::vector<::fuel::target::KernelSource>> sources =
      ::fuel::target::parseKernelSources(kernelSources);
  if (!sources)
    return emitError() << "invalid kernel sources '" << kernelSources
                       << "': " << llvm::toString(sources.takeError());
  if (::fuel::target::formatKernelSources(*sources) != kernelSources)
    return emitError() << "kernel sources '" << kernelSources
                       << "' are not in canonical form; write '"
                       << ::fuel::target::formatKernelSources(*sources) << "'";
  llvm::Expected<::fuel::plan::Precision> parsed =
      ::fuel::plan::parsePrecisionRequirement(precision);
  if (!parsed)
    return emitError() << "invalid precision requirement '" << precision
                       << "': " << llvm::toString(parsed.takeError());
  if (::fuel::plan::formatPrecisionRequirement(*parsed) != precision)
    return emitError() << "precision requirement '" << precision
                       << "' is not in canonical form; write '"
                       << ::fuel::plan::formatPrecisionRequirement(*parsed)
                       << "'";
  return success();
}

std::vector<::fuel::target::KernelSource>
PlanConfigAttr::getSourceList() const {
  llvm::Expected<std::vector<::fuel::target::KernelSource>> sources =
      ::fuel::target::parseKernelSources(getKernelSources());
  // The verifier accepted the text, so this cannot fail.
  if (!sources) {
    llvm::consumeError(sources.takeError());
    return {};
  }
  return *sources;
}

::fuel::plan::Precision PlanConfigAttr::getRequirement() const {
  llvm::Expected<::fuel::plan::Precision> parsed =
      ::fuel::plan::parsePrecisionRequirement(getPrecision());
  // The verifier accepted the text, so this cannot fail.
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return {};
  }
  return *parsed;
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
  return PlanConfigAttr::getChecked([&] { return parser.emitError(loc); },
                                    parser.getContext(), price, allow, pinned,
                                    precision, kernelSources);
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
  if (!getKernelSources().empty()) {
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
