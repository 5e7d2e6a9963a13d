//===- Compiler.cpp - The C API of fuel's compiler ------------------------===//
//
// include/fuel-c/Compiler.h over the C++ compile API (fuel/Compiler/
// Compiler.h). The C options become mlir::fuel::CompileOptions (the
// fuel-plan option text is read here, key by key, into PlanningOptions);
// the compile's diagnostics are formatted as a SourceMgrDiagnosticHandler
// prints them and collected into the returned fuelStatus; the result is
// copied into a fuelBuffer. No C++ exception leaves an entry point.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Compiler.h"

#include "fuel/Compiler/Compiler.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Planner/Placement.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <new>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;
namespace fc = mlir::fuel;

/// An owned result of a compile (fuelBuffer).
struct fuelBuffer_ {
  /// The bytes, then one NUL that size() does not count.
  std::vector<uint8_t> bytes;
  size_t size() const { return bytes.size() - 1; }
};

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Fuel, fuel, mlir::fuel::FuelDialect)

namespace {

/// An error status of libfuelrt's kind.
fuelStatus error(fuelStatusCode code, const std::string &message) {
  return fuelStatusCreate(code, message.c_str());
}

/// The status of a NULL required argument, naming the call and argument.
fuelStatus nullArgument(const char *function, const char *argument) {
  return error(fuelStatusInvalidArgument,
               std::string(function) + ": " + argument + " is null");
}

/// Runs `body` (returning fuelStatus), turning exceptions into statuses.
template <class F> fuelStatus guarded(const char *function, F &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return error(fuelStatusResourceExhausted,
                 std::string(function) + ": out of memory");
  } catch (const std::exception &e) {
    return error(fuelStatusInternal, std::string(function) + ": " + e.what());
  } catch (...) {
    return error(fuelStatusInternal,
                 std::string(function) + ": unknown exception");
  }
}

//===----------------------------------------------------------------------===//
// The fuel-plan option text
//===----------------------------------------------------------------------===//

/// One `key=value` (or bare `key`) of fuel-plan option text.
struct OptionItem {
  std::string key;
  std::optional<std::string> value;
};

/// Splits fuel-plan option text into key=value items as the pass-option
/// parser does: items are separated by spaces; a value may be quoted with '
/// or " (the quotes are dropped) or braced with {} (kept), and may then
/// hold spaces.
LogicalResult splitOptions(llvm::StringRef text,
                           llvm::SmallVectorImpl<OptionItem> &items,
                           std::string &message) {
  size_t i = 0, n = text.size();
  auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  };
  while (i < n) {
    while (i < n && isSpace(text[i]))
      ++i;
    if (i == n)
      break;
    size_t keyStart = i;
    while (i < n && text[i] != '=' && !isSpace(text[i]))
      ++i;
    std::string key = text.slice(keyStart, i).str();
    std::optional<std::string> value;
    if (i < n && text[i] == '=') {
      ++i;
      std::string v;
      while (i < n && !isSpace(text[i])) {
        char c = text[i];
        if (c == '\'' || c == '"') {
          size_t close = text.find(c, i + 1);
          if (close == llvm::StringRef::npos) {
            message = "unterminated quote in the value of '" + key + "'";
            return failure();
          }
          v += text.slice(i + 1, close).str();
          i = close + 1;
        } else if (c == '{') {
          int depth = 0;
          size_t start = i;
          for (; i < n; ++i) {
            if (text[i] == '{')
              ++depth;
            else if (text[i] == '}' && --depth == 0)
              break;
          }
          if (i == n) {
            message = "unbalanced '{' in the value of '" + key + "'";
            return failure();
          }
          ++i;
          v += text.slice(start, i).str();
        } else {
          v += c;
          ++i;
        }
      }
      value = std::move(v);
    }
    if (key.empty()) {
      message = "an option without a name";
      return failure();
    }
    items.push_back({std::move(key), std::move(value)});
  }
  return success();
}

/// A boolean as llvm::cl reads one.
std::optional<bool> parseBool(llvm::StringRef v) {
  if (v == "true" || v == "TRUE" || v == "True" || v == "1")
    return true;
  if (v == "false" || v == "FALSE" || v == "False" || v == "0")
    return false;
  return std::nullopt;
}

/// Reads fuel-plan option text (the options of fuel-compile --plan) into
/// `planning`; on an error `message` names the offending option.
LogicalResult parsePlanOptions(llvm::StringRef text,
                               fc::PlanningOptions &planning,
                               std::string &message) {
  llvm::SmallVector<OptionItem> items;
  if (failed(splitOptions(text, items, message)))
    return failure();
  for (const OptionItem &item : items) {
    const std::string &key = item.key;
    // A bare key is a flag (`explain` is `explain=true`); only booleans
    // may be bare.
    const std::string value = item.value.value_or("");
    auto badValue = [&](llvm::StringRef what) {
      message = "fuel-plan option '" + key + "': '" + value + "' is not " +
                what.str();
      return failure();
    };
    auto setString = [&](std::string &field) -> LogicalResult {
      if (!item.value) {
        message =
            "fuel-plan option '" + key + "' needs a value (" + key + "=...)";
        return failure();
      }
      field = value;
      return success();
    };
    auto setBool = [&](bool &field) -> LogicalResult {
      std::optional<bool> b = item.value ? parseBool(value) : true;
      if (!b)
        return badValue("a boolean (true or false)");
      field = *b;
      return success();
    };
    LogicalResult ok = success();
    if (key == "topology") {
      message = "fuel-plan option 'topology' is not taken here; set "
                "fuelCompileOptions.topology instead";
      return failure();
    } else if (key == "precision") {
      ok = setString(planning.precision);
    } else if (key == "prefer-bit-stable") {
      ok = setBool(planning.preferBitStable);
    } else if (key == "pinned-device") {
      ok = setString(planning.pinnedDevice);
    } else if (key == "price-transfers") {
      ok = setBool(planning.priceTransfers);
    } else if (key == "allow-cost-placement") {
      ok = setBool(planning.allowCostPlacement);
    } else if (key == "require-transfer-pricing") {
      ok = setBool(planning.requireTransferPricing);
    } else if (key == "kernel-sources") {
      std::string list;
      if (failed(setString(list)))
        return failure();
      planning.kernelSources.clear();
      llvm::SmallVector<llvm::StringRef> parts;
      llvm::StringRef(list).split(parts, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef part : parts)
        planning.kernelSources.push_back(part.trim().str());
    } else if (key == "keep-per-device") {
      unsigned n = 0;
      if (!item.value || llvm::StringRef(value).getAsInteger(0, n))
        ok = badValue("an unsigned integer");
      else
        planning.keepPerDevice = n;
    } else if (key == "placement-algorithm") {
      std::optional<::fuel::plan::PlacementAlgorithm> a =
          item.value ? ::fuel::plan::symbolizePlacementAlgorithm(value)
                     : std::nullopt;
      if (!a)
        ok = badValue("a placement algorithm (auto, greedy, exact-tree, "
                      "mincut or brute-force)");
      else
        planning.placementAlgorithm = *a;
    } else if (key == "export-plan") {
      ok = setString(planning.exportPlan);
    } else if (key == "import-plan") {
      ok = setString(planning.importPlan);
    } else if (key == "export-dot") {
      ok = setString(planning.exportDot);
    } else if (key == "explain") {
      ok = setBool(planning.explain);
    } else {
      message = "unknown fuel-plan option '" + key +
                "' (docs/SEMANTICS.md §9 lists them)";
      return failure();
    }
    if (failed(ok))
      return failure();
  }
  return success();
}

/// The C++ options of `options` (NULL: the defaults); `message` says why
/// they are bad.
LogicalResult toCompileOptions(const fuelCompileOptions *options,
                               fc::CompileOptions &out,
                               std::optional<fc::CompileStage> &stage,
                               std::string &message) {
  stage.reset();
  if (!options)
    return success();
  if (options->topology)
    out.planning.topology = options->topology;
  if (options->planOptions &&
      failed(parsePlanOptions(options->planOptions, out.planning, message)))
    return failure();
  // An int: a C caller may pass any value.
  switch (static_cast<int>(options->stage)) {
  case fuelCompileStageExecutable:
    break;
  case fuelCompileStagePlanned:
    stage = fc::CompileStage::Planned;
    break;
  case fuelCompileStageOutlined:
    stage = fc::CompileStage::Outlined;
    break;
  case fuelCompileStageKernels:
    stage = fc::CompileStage::Kernels;
    break;
  case fuelCompileStageBufferized:
    stage = fc::CompileStage::Bufferized;
    break;
  case fuelCompileStageHost:
    stage = fc::CompileStage::Host;
    break;
  case fuelCompileStageLlvm:
    stage = fc::CompileStage::Llvm;
    break;
  default:
    message = "fuelCompileOptions.stage " +
              std::to_string(static_cast<int>(options->stage)) +
              " is not a fuelCompileStage";
    return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

/// The C severity of an MLIR diagnostic.
fuelDiagnosticSeverity toC(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return fuelDiagnosticError;
  case DiagnosticSeverity::Warning:
    return fuelDiagnosticWarning;
  case DiagnosticSeverity::Note:
    return fuelDiagnosticNote;
  case DiagnosticSeverity::Remark:
    return fuelDiagnosticRemark;
  }
  return fuelDiagnosticError;
}

/// A SourceMgrDiagnosticHandler whose printing of a whole diagnostic (with
/// its notes) is callable.
struct DiagnosticPrinter : SourceMgrDiagnosticHandler {
  using SourceMgrDiagnosticHandler::emitDiagnostic;
  using SourceMgrDiagnosticHandler::SourceMgrDiagnosticHandler;
};

/// Takes every diagnostic of `context` while it lives: each is formatted as
/// a SourceMgrDiagnosticHandler over `sourceMgr` prints it (with its notes,
/// `name:line:col: error: ...` and the source line where the location is
/// in a known buffer), errors are kept for the status, and every one goes
/// to the options' handler. The context's own handlers see none of them.
class DiagnosticCollector {
public:
  DiagnosticCollector(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                      const fuelCompileOptions *options)
      : os(current), printer(sourceMgr, context, os),
        handler(context, [this, options](Diagnostic &diag) {
          current.clear();
          printer.emitDiagnostic(diag);
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            errors += current;
          if (options && options->diagnosticHandler)
            options->diagnosticHandler(toC(diag.getSeverity()), current.c_str(),
                                       options->diagnosticUserData);
          return success();
        }) {}

  /// The status of a failed step: every error so far, or `fallback` when
  /// the step failed without one.
  fuelStatus failure(const char *function, llvm::StringRef fallback) const {
    if (errors.empty())
      return error(fuelStatusInvalidArgument,
                   std::string(function) + ": " + fallback.str());
    return error(fuelStatusInvalidArgument, errors);
  }

private:
  std::string current;
  llvm::raw_string_ostream os;
  DiagnosticPrinter printer;
  ScopedDiagnosticHandler handler;
  std::string errors;
};

/// Compiles `module` (lowered in place) into a new buffer.
fuelStatus compileInPlace(const char *function, ModuleOp module,
                          const fc::CompileOptions &options,
                          std::optional<fc::CompileStage> stage,
                          const DiagnosticCollector &diagnostics,
                          fuelBuffer *outBuffer) {
  auto buffer = std::make_unique<fuelBuffer_>();
  if (stage) {
    if (failed(fc::lower(module, options, *stage)))
      return diagnostics.failure(function, "lowering failed");
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    os << "\n";
    buffer->bytes.assign(text.begin(), text.end());
  } else {
    FailureOr<std::vector<uint8_t>> bytes = fc::compile(module, options);
    if (failed(bytes))
      return diagnostics.failure(function, "compilation failed");
    buffer->bytes = std::move(*bytes);
  }
  buffer->bytes.push_back(0);
  *outBuffer = buffer.release();
  return nullptr;
}

} // namespace

extern "C" {

uint32_t fuelCompilerCApiVersion(void) { return FUEL_COMPILER_C_API_VERSION; }

const void *fuelBufferData(fuelBuffer buffer) {
  return buffer ? buffer->bytes.data() : nullptr;
}

size_t fuelBufferSize(fuelBuffer buffer) { return buffer ? buffer->size() : 0; }

void fuelBufferDestroy(fuelBuffer buffer) { delete buffer; }

void fuelRegisterCompilerDialects(MlirDialectRegistry registry) {
  if (registry.ptr)
    fc::registerCompilerDialects(*unwrap(registry));
}

void fuelRegisterCompilerPasses(void) { fc::registerCompilerPasses(); }

fuelStatus fuelCompileText(const char *text, size_t length,
                           const char *sourceName,
                           const fuelCompileOptions *options,
                           fuelBuffer *outBuffer) {
  const char *function = "fuelCompileText";
  return guarded(function, [&]() -> fuelStatus {
    if (!outBuffer)
      return nullArgument(function, "outBuffer");
    *outBuffer = nullptr;
    if (!text)
      return nullArgument(function, "text");
    fc::CompileOptions compileOptions;
    std::optional<fc::CompileStage> stage;
    std::string message;
    if (failed(toCompileOptions(options, compileOptions, stage, message)))
      return error(fuelStatusInvalidArgument,
                   std::string(function) + ": " + message);

    DialectRegistry registry;
    fc::registerCompilerDialects(registry);
    MLIRContext context(registry);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(
            llvm::StringRef(text, length), sourceName ? sourceName : "<input>"),
        llvm::SMLoc());
    DiagnosticCollector diagnostics(sourceMgr, &context, options);
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return diagnostics.failure(function, "the input does not parse");
    return compileInPlace(function, *module, compileOptions, stage, diagnostics,
                          outBuffer);
  });
}

fuelStatus fuelCompileModule(MlirModule module,
                             const fuelCompileOptions *options,
                             fuelBuffer *outBuffer) {
  const char *function = "fuelCompileModule";
  return guarded(function, [&]() -> fuelStatus {
    if (!outBuffer)
      return nullArgument(function, "outBuffer");
    *outBuffer = nullptr;
    if (mlirModuleIsNull(module))
      return nullArgument(function, "module");
    fc::CompileOptions compileOptions;
    std::optional<fc::CompileStage> stage;
    std::string message;
    if (failed(toCompileOptions(options, compileOptions, stage, message)))
      return error(fuelStatusInvalidArgument,
                   std::string(function) + ": " + message);

    ModuleOp original = unwrap(module);
    MLIRContext *context = original.getContext();
    // Lowering needs every dialect, extension and translation of
    // registerCompilerDialects; appending is a no-op for a context created
    // with them.
    DialectRegistry registry;
    fc::registerCompilerDialects(registry);
    context->appendDialectRegistry(registry);
    // No buffers: a location names a file the frontend may have read,
    // which the printer then opens for the source line.
    llvm::SourceMgr sourceMgr;
    DiagnosticCollector diagnostics(sourceMgr, context, options);
    OwningOpRef<ModuleOp> copy(original.clone());
    return compileInPlace(function, *copy, compileOptions, stage, diagnostics,
                          outBuffer);
  });
}

} // extern "C"
