//===- OnnxImportFuzzer.cpp - libFuzzer target for the ONNX importer ------===//
//
// Feeds arbitrary bytes to the ONNX importer as a model held in memory (no
// folder, so external data is refused). A refusal must have said why (an
// error diagnostic); an accepted model must give a module that verifies and
// prints as IR that parses and prints the same. No exception of the ONNX
// library may escape (it would abort the process).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"
#include "MlirRoundTrip.h"

#include "fuel/Import/OnnxImport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace mlir;
using ::fuel::fuzz::fuzzFail;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const DialectRegistry registry = [] {
    DialectRegistry r;
    mlir::fuel::registerOnnxImportDialects(r);
    return r;
  }();
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ::fuel::fuzz::DiagnosticCapture diagnostics(ctx);
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      mlir::fuel::importOnnxBuffer(&ctx, bytes, "fuzz.onnx", /*modelDir=*/"",
                                   mlir::fuel::OnnxImportOptions());
  if (!module) {
    if (diagnostics.errors == 0)
      fuzzFail("onnx-import", "a model was refused without an error");
    ::fuel::fuzz::fuzzNoteRefusal("onnx-import", diagnostics.text);
    return 0;
  }
  if (failed(verify(*module)))
    fuzzFail("onnx-import",
             "the imported module does not verify: " + diagnostics.text);
  ::fuel::fuzz::checkRoundTrip("onnx-import", registry,
                               ::fuel::fuzz::printOp(module->getOperation()));
  return 0;
}
