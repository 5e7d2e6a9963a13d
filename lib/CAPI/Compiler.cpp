//===- Compiler.cpp - The C API of fuel's compiler ------------------------===//
//
// include/fuel-c/Compiler.h over the C++ compile API (fuel/Compiler/
// Compiler.h). The C options become mlir::fuel::CompileOptions (the
// fuel-plan option text is read by parsePlanningOptions);
// the compile's diagnostics are formatted as a SourceMgrDiagnosticHandler
// prints them and collected into the returned fuelStatus; the result is
// copied into a fuelBuffer. No C++ exception leaves an entry point.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Compiler.h"

#include "fuel/Compiler/Compiler.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"

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
  if (options->planOptions && failed(fc::parsePlanningOptions(
                                  options->planOptions, out.planning, message)))
    return failure();
  // NULL keeps the default (the toolkit found at build time); "" is none.
  if (options->cudaToolkit)
    out.cudaToolkit = std::string(options->cudaToolkit);
  // fuelCompileStage k (k >= 1) is CompileStage k - 1, in the same order.
  static_assert(fuelCompileStagePlanned - 1 ==
                        static_cast<int>(fc::CompileStage::Planned) &&
                    fuelCompileStageHost - 1 ==
                        static_cast<int>(fc::CompileStage::Host) &&
                    fuelCompileStagePtx - 1 ==
                        static_cast<int>(fc::CompileStage::Ptx),
                "fuelCompileStage and mlir::fuel::CompileStage differ");
  // An int: a C caller may pass any value.
  int value = static_cast<int>(options->stage);
  if (value < fuelCompileStageExecutable || value > fuelCompileStagePtx) {
    message = "fuelCompileOptions.stage " + std::to_string(value) +
              " is not a fuelCompileStage";
    return failure();
  }
  if (value != fuelCompileStageExecutable)
    stage = static_cast<fc::CompileStage>(value - 1);
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
/// Meanwhile the context attaches no op text to a diagnostic (a planned
/// node's runs to kilobytes): the location names the op.
class DiagnosticCollector {
public:
  DiagnosticCollector(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                      const fuelCompileOptions *options)
      : context(context), printedOp(context->shouldPrintOpOnDiagnostic()),
        os(current), printer(sourceMgr, context, os),
        handler(context, [this, options](Diagnostic &diag) {
          current.clear();
          printer.emitDiagnostic(diag);
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            errors += current;
          if (options && options->diagnosticHandler)
            options->diagnosticHandler(toC(diag.getSeverity()), current.c_str(),
                                       options->diagnosticUserData);
          return success();
        }) {
    context->printOpOnDiagnostic(false);
  }
  ~DiagnosticCollector() { context->printOpOnDiagnostic(printedOp); }
  DiagnosticCollector(const DiagnosticCollector &) = delete;
  DiagnosticCollector &operator=(const DiagnosticCollector &) = delete;

  /// The status of a failed step: every error so far, or `fallback` when
  /// the step failed without one.
  fuelStatus failure(const char *function, llvm::StringRef fallback) const {
    if (errors.empty())
      return error(fuelStatusInvalidArgument,
                   std::string(function) + ": " + fallback.str());
    return error(fuelStatusInvalidArgument, errors);
  }

private:
  MLIRContext *context;
  bool printedOp;
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
