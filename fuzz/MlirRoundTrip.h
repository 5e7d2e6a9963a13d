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
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  mlir::ParserConfig config(&ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(printed, config, "printed.mlir");
  if (!module)
    fuzzFail(target, "the printed module does not parse: " + diagnostics,
             printed);
  if (mlir::failed(mlir::verify(*module)))
    fuzzFail(target, "the printed module does not verify: " + diagnostics,
             printed);
  std::string again = printOp(module->getOperation());
  if (again != printed)
    fuzzFail(target, "the printed module prints differently once parsed",
             printed, again);
}

} // namespace fuel::fuzz

#endif // FUEL_FUZZ_MLIRROUNDTRIP_H
