//===- TestKernelImages.h - Kernel images test passes write -----*- C++ -*-===//
//
// What test-fuel-emit-ptx and test-fuel-emit-spirv share: the kernel images
// of one device kind's executables written to FILE (the first image) and
// FILE.<n> (the n-th after it), so that lit tests can hand exactly what the
// executable carries to the vendor tools (ptxas, spirv-val, spirv-dis).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_CONVERSION_TESTKERNELIMAGES_H
#define FUEL_LIB_CONVERSION_TESTKERNELIMAGES_H

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::fuel::test {

/// Writes one file per kernel image: for every fuel.executable of `kind`
/// with a kernel module, `images(kernels, write)` calls `write(bytes)` once
/// per image of the module (and returns failure after emitting its own
/// error). Errors at `module`, naming the pass `pass`: no `output`, a file
/// that cannot be written, and no image at all (`noImage`).
inline LogicalResult writeKernelImages(
    ModuleOp module, StringRef pass, StringRef output, DeviceKind kind,
    StringRef noImage,
    llvm::function_ref<LogicalResult(
        ModuleOp kernels, llvm::function_ref<LogicalResult(StringRef)> write)>
        images) {
  if (output.empty())
    return module.emitError() << pass << " needs 'output'";
  unsigned n = 0;
  auto write = [&](StringRef bytes) -> LogicalResult {
    std::string path = output.str();
    if (n)
      path += "." + std::to_string(n);
    ++n;
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return module.emitError()
             << "cannot write '" << path << "': " << ec.message();
    os << bytes;
    return success();
  };
  for (auto exe : module.getOps<ExecutableOp>()) {
    if (exe.getDevice().getKind() != kind)
      continue;
    if (ModuleOp kernels = exe.getKernelModule())
      if (failed(images(kernels, write)))
        return failure();
  }
  if (n == 0)
    return module.emitError(noImage);
  return success();
}

} // namespace mlir::fuel::test

#endif // FUEL_LIB_CONVERSION_TESTKERNELIMAGES_H
