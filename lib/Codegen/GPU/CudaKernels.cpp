//===- CudaKernels.cpp - The PTX of a cuda kernel module ------------------===//
//
// The limits CUDA code generation sizes kernels with, and the PTX text that
// convert-fuel-to-nvvm leaves in a cuda executable's kernel module, for
// fuel-serialize-executable and the test pass that writes it out.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/CudaKernels.h"

#include "fuel/Dialect/Fuel/IR/GpuLimits.h"
#include "fuel/Planner/CudaLimits.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

FailureOr<StringRef> mlir::fuel::getKernelModulePtx(ModuleOp kernels) {
  auto binaries = kernels.getOps<gpu::BinaryOp>();
  if (!llvm::hasSingleElement(binaries))
    return kernels.emitError("a cuda kernel module needs exactly one "
                             "gpu.binary: run convert-fuel-to-nvvm first");
  gpu::BinaryOp binary = *binaries.begin();
  ArrayAttr objects = binary.getObjects();
  auto object = objects.size() == 1 ? dyn_cast<gpu::ObjectAttr>(objects[0])
                                    : gpu::ObjectAttr();
  if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
    return binary.emitError("expected one #gpu.object of PTX assembly");
  return object.getObject().getValue();
}

::fuel::plan::GpuLimits
mlir::fuel::getCudaLimits(ModuleOp module, const ::fuel::Device &device) {
  std::optional<::fuel::plan::GpuLimits> stated = getGpuLimits(module, device);
  return ::fuel::plan::completeCudaLimits(getComputeCapability(module, device),
                                          stated ? &*stated : nullptr);
}
