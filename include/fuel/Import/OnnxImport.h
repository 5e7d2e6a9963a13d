//===- OnnxImport.h - ONNX models to fuel's ingress IR ----------*- C++ -*-===//
//
// The ONNX importer: reads an ONNX model and builds one func.func on tensors
// in linalg/tensor/arith/math, the IR fuel plans (docs/ONNX.md). Initializers
// become dense_resource constants, the function's arguments are the graph's
// inputs and its results the graph's outputs, in order. Errors are reported
// as diagnostics through the context; the importer never throws.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_IMPORT_ONNXIMPORT_H
#define FUEL_IMPORT_ONNXIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::fuel {

/// Options of an import.
struct OnnxImportOptions {
  /// Graph inputs turned into constants: (input name, serialized TensorProto
  /// file).
  std::vector<std::pair<std::string, std::string>> foldInputs;
  /// Shapes fixing graph inputs with dynamic dimensions: (input name, dims).
  std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
  /// The name of the function built (default: "main").
  std::string functionName = "main";
};

/// Parses a `--shape` value `NAME=D0xD1x...` (a scalar: `NAME=`). Returns
/// false with `error` set when it is malformed.
bool parseOnnxShapeOption(llvm::StringRef text, std::string &name,
                          std::vector<int64_t> &dims, std::string &error);

/// Parses a `--fold-input` value `NAME=FILE`.
bool parseOnnxFoldOption(llvm::StringRef text, std::string &name,
                         std::string &file, std::string &error);

/// Registers the dialects the imported IR uses.
void registerOnnxImportDialects(DialectRegistry &registry);

/// Imports the model in the file `path`; external data is read from its
/// folder. Returns null after reporting errors.
OwningOpRef<ModuleOp> importOnnxFile(MLIRContext *context, llvm::StringRef path,
                                     const OnnxImportOptions &options);

/// Imports a model held in memory. `bufferName` names it in diagnostics;
/// with an empty `modelDir`, external data is refused.
OwningOpRef<ModuleOp> importOnnxBuffer(MLIRContext *context,
                                       llvm::StringRef bytes,
                                       llvm::StringRef bufferName,
                                       llvm::StringRef modelDir,
                                       const OnnxImportOptions &options);

} // namespace mlir::fuel

#endif // FUEL_IMPORT_ONNXIMPORT_H
