//===- fuel-import-onnx.cpp - ONNX models to fuel's ingress IR ------------===//
//
//   fuel-import-onnx IN.onnx -o OUT.mlir [--fold-input=NAME=FILE.pb]...
//       [--shape=NAME=D0xD1...]...
//
// Reads an ONNX model and prints one func.func on tensors in
// linalg/tensor/arith/math, which fuel-opt and fuel-compile read
// (docs/ONNX.md). Initializers are printed as dense_resource blobs.
//
//===----------------------------------------------------------------------===//

#include "fuel/Import/OnnxImport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static llvm::cl::OptionCategory toolOptions("fuel-import-onnx options");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<model.onnx>"),
                                                llvm::cl::Required,
                                                llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string> outputFilename("o",
                                                 llvm::cl::desc("Output file"),
                                                 llvm::cl::value_desc("file"),
                                                 llvm::cl::init("-"),
                                                 llvm::cl::cat(toolOptions));
static llvm::cl::list<std::string> foldInputs(
    "fold-input",
    llvm::cl::desc("Turn a graph input into a constant read from a serialized "
                   "TensorProto (NAME=FILE.pb)"),
    llvm::cl::value_desc("name=file"), llvm::cl::cat(toolOptions));
static llvm::cl::list<std::string>
    shapes("shape",
           llvm::cl::desc("Fix the shape of a graph input with dynamic "
                          "dimensions (NAME=D0xD1...)"),
           llvm::cl::value_desc("name=dims"), llvm::cl::cat(toolOptions));
static llvm::cl::opt<std::string>
    functionName("function-name", llvm::cl::desc("Name of the function built"),
                 llvm::cl::init("main"), llvm::cl::cat(toolOptions));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(toolOptions);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "fuel-import-onnx: ONNX to fuel IR\n");

  fuel::OnnxImportOptions options;
  options.functionName = functionName;
  std::string error;
  for (const std::string &f : foldInputs) {
    std::string name, file;
    if (!fuel::parseOnnxFoldOption(f, name, file, error)) {
      llvm::errs() << "fuel-import-onnx: error: --fold-input: " << error
                   << "\n";
      return 1;
    }
    options.foldInputs.emplace_back(name, file);
  }
  for (const std::string &s : shapes) {
    std::string name;
    std::vector<int64_t> dims;
    if (!fuel::parseOnnxShapeOption(s, name, dims, error)) {
      llvm::errs() << "fuel-import-onnx: error: --shape: " << error << "\n";
      return 1;
    }
    options.shapes.emplace_back(name, dims);
  }

  DialectRegistry registry;
  fuel::registerOnnxImportDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      fuel::importOnnxFile(&context, inputFilename, options);
  if (!module)
    return 1;

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "fuel-import-onnx: error: " << error << "\n";
    return 1;
  }
  module->print(output->os());
  output->os() << "\n";
  output->keep();
  return 0;
}
