//===- MlirRoundTrip.h - Printed IR read back by fuzz targets ---*- C++ -*-===//
//
// The round trip the IR and plan-import targets require of a module fuel
// produced: its printed text, parsed into a fresh context (as another
// process would read it; a context that parsed the input already would
// rename its resources), verifies and prints the same text. Included by
// exactly one file of each target that uses MLIR (it defines the target's
// ASan defaults).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_FUZZ_MLIRROUNDTRIP_H
#define FUEL_FUZZ_MLIRROUNDTRIP_H

#include "FuzzCheck.h"

#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Target/TopologyFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

// Debian's libMLIR.so is not instrumented, but the LLVM allocator code that
// fuel's instrumented objects inline poisons the unused part of each slab of
// a BumpPtrAllocator they share with libMLIR, whose uninstrumented copies
// then hand that memory out without unpoisoning it: a false use-after-poison
// on the first string libMLIR copies into the slab. Manual poisoning is off
// in the targets that use MLIR (every access is still checked; only the
// allocator's red zones between its own allocations go).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
#endif
#endif

namespace fuel::fuzz {

/// The diagnostics of a context while it lives: how many errors, and the
/// text of all of them.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(mlir::MLIRContext &ctx)
      : handler(&ctx, [this](mlir::Diagnostic &d) {
          if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
            ++errors;
          text += d.str() + "\n";
          return mlir::success();
        }) {}
  void clear() {
    errors = 0;
    text.clear();
  }

  int errors = 0;
  std::string text;

private:
  mlir::ScopedDiagnosticHandler handler;
};

/// The fixed topology a target plans on, read from `json` (a target's own
/// constant, so a refusal is the target's bug).
inline ::fuel::plan::Topology fixedTopology(std::string_view target,
                                            llvm::StringRef json) {
  llvm::Expected<::fuel::plan::Topology> parsed =
      ::fuel::target::parseTopology(json, "fixed-topology.json");
  if (!parsed)
    fuzzFail(target, "the fixed topology is refused: " +
                         llvm::toString(parsed.takeError()));
  return std::move(*parsed);
}

/// `op` as text, in the generic printer's default (custom) form.
inline std::string printOp(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

/// Fails `target` unless `printed` (a module fuel produced) parses into a
/// fresh context of `registry`, verifies, and prints as `printed` again.
inline void checkRoundTrip(std::string_view target,
                           const mlir::DialectRegistry &registry,
                           const std::string &printed) {
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  ctx.loadDialect<mlir::fuel::FuelDialect>();
  DiagnosticCapture diagnostics(ctx);
  mlir::ParserConfig config(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(printed, config, "printed.mlir");
  if (!module)
    fuzzFail(target, "the printed module does not parse: " + diagnostics.text,
             printed);
  if (mlir::failed(mlir::verify(*module)))
    fuzzFail(target, "the printed module does not verify: " + diagnostics.text,
             printed);
  std::string again = printOp(module->getOperation());
  if (again != printed)
    fuzzFail(target, "the printed module prints differently once parsed",
             printed, again);
}

} // namespace fuel::fuzz

#endif // FUEL_FUZZ_MLIRROUNDTRIP_H
