//===- CpuKernels.cpp - The generated kernels of cpu executables ----------===//
//
// The helpers of CpuKernels.h; the schedule files are the ones the kernel
// registry embeds (lib/Target/EmbedSchedules.cmake).
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/CPU/CpuKernels.h"

#include "fuel/Target/KernelRegistry.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::fuel;

SmallVector<ModuleOp> mlir::fuel::getCpuKernelModules(ModuleOp root) {
  SmallVector<ModuleOp> modules;
  for (auto executable : root.getOps<ExecutableOp>())
    if (executable.getDevice().isHost())
      if (ModuleOp module = executable.getKernelModule())
        modules.push_back(module);
  return modules;
}

SmallVector<ModuleOp> mlir::fuel::getVulkanKernelModules(ModuleOp root) {
  SmallVector<ModuleOp> modules;
  for (auto executable : root.getOps<ExecutableOp>())
    if (executable.getDevice().getKind() == DeviceKind::vulkan)
      if (ModuleOp module = executable.getKernelModule())
        modules.push_back(module);
  return modules;
}

SmallVector<ModuleOp> mlir::fuel::getCudaKernelModules(ModuleOp root) {
  SmallVector<ModuleOp> modules;
  for (auto executable : root.getOps<ExecutableOp>())
    if (executable.getDevice().getKind() == DeviceKind::cuda)
      if (ModuleOp module = executable.getKernelModule())
        modules.push_back(module);
  return modules;
}

SmallVector<func::FuncOp> mlir::fuel::getKernelFuncs(ModuleOp kernelModule) {
  SmallVector<func::FuncOp> kernels;
  for (auto func : kernelModule.getOps<func::FuncOp>())
    if (func->hasAttr(kernel_attr::kKernelId))
      kernels.push_back(func);
  return kernels;
}

std::string mlir::fuel::describeKernel(Operation *kernel) {
  std::string text = "@";
  if (auto name =
          kernel->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    text += name.getValue().str();
  if (auto id = kernel->getAttrOfType<StringAttr>(kernel_attr::kKernelId))
    text += " (" + id.getValue().str() + ")";
  return text;
}

FailureOr<scf::ForallOp> mlir::fuel::getWorkgroupLoop(func::FuncOp kernel) {
  SmallVector<scf::ForallOp> outermost;
  kernel.walk([&](scf::ForallOp forall) {
    if (!forall->getParentOfType<scf::ForallOp>())
      outermost.push_back(forall);
  });
  if (outermost.empty())
    return scf::ForallOp();
  if (outermost.size() > 1)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << " has " << outermost.size()
           << " outermost scf.forall loops; the workgroup split must be one";
  scf::ForallOp forall = outermost.front();
  if (forall->getParentOp() != kernel.getOperation() &&
      forall->getParentRegion() != &kernel.getBody())
    return kernel.emitError()
           << "kernel " << describeKernel(kernel)
           << ": the workgroup scf.forall must be in the function body, not "
              "nested in another loop";
  auto all = [](ArrayRef<OpFoldResult> values, auto pred) {
    return llvm::all_of(values, [&](OpFoldResult v) {
      std::optional<int64_t> c = getConstantIntValue(v);
      return c && pred(*c);
    });
  };
  if (forall.getRank() > 3 ||
      !all(forall.getMixedLowerBound(), [](int64_t v) { return v == 0; }) ||
      !all(forall.getMixedStep(), [](int64_t v) { return v == 1; }) ||
      !all(forall.getMixedUpperBound(), [](int64_t v) { return v > 0; }))
    return kernel.emitError()
           << "kernel " << describeKernel(kernel)
           << ": the workgroup scf.forall must have at most 3 dimensions, "
              "static trip counts, zero lower bounds and unit steps";
  return forall;
}

std::optional<StringRef> mlir::fuel::getEmbeddedSchedule(StringRef path) {
  // The registry embeds every schedule file once, and hashes the same bytes
  // into the revisions of the records that name it.
  return ::fuel::target::KernelRegistry::scheduleFileText(path);
}
