//===- RowKernelFuncs.cpp - GPU row kernels as gpu.funcs ------------------===//
//
// See RowKernelFuncs.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/RowKernelFuncs.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/CPU/FastExp.h"
#include "fuel/Codegen/GPU/GpuSchedules.h"
#include "fuel/Codegen/GPU/VulkanKernels.h"
#include "fuel/Codegen/GPU/VulkanRowKernels.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::fuel;

bool mlir::fuel::isVulkanRowKernel(func::FuncOp kernel) {
  return kernel->hasAttr(kernel_attr::kRowKernel);
}

uint32_t mlir::fuel::rowKernelSubgroupSize(ArrayRef<func::FuncOp> kernels) {
  for (func::FuncOp kernel : kernels)
    if (auto tiling =
            kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kRowTiling))
      if (tiling.size() == 4)
        return static_cast<uint32_t>(tiling[2]);
  return 0;
}

FailureOr<gpu::GPUFuncOp>
mlir::fuel::buildRowKernelFunc(func::FuncOp kernel,
                               gpu::GPUModuleOp gpuModule) {
  auto kindAttr = kernel->getAttrOfType<StringAttr>(kernel_attr::kRowKernel);
  auto tilingAttr =
      kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kRowTiling);
  std::optional<::fuel::gpu::RowKernelKind> kind =
      kindAttr ? symbolizeRowKernelKind(kindAttr.getValue()) : std::nullopt;
  if (!kind || !tilingAttr || tilingAttr.size() != 4)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": '"
           << kernel_attr::kRowKernel << "' must name sum, max, min or "
           << "softmax, with '" << kernel_attr::kRowTiling
           << "' = array<i64: rows, cols, subgroup size, subgroups>";
  int64_t rows = tilingAttr[0], cols = tilingAttr[1];
  // The bindings the record was matched on: in (rows x cols), out (rows,
  // or rows x cols for softmax), f32.
  int64_t outElements =
      *kind == ::fuel::gpu::RowKernelKind::Softmax ? rows * cols : rows;
  auto elements = [](Type type) -> int64_t {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape() || !memref.getElementType().isF32())
      return -1;
    return memref.getNumElements();
  };
  if (kernel.getNumArguments() != 2 ||
      elements(kernel.getArgumentTypes()[0]) != rows * cols ||
      elements(kernel.getArgumentTypes()[1]) != outElements)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": its row kernel record ("
           << rows << " x " << cols
           << ") does not match its bindings, which must be f32 memrefs of "
           << rows * cols << " and " << outElements << " elements";

  ::fuel::target::ReductionTiling tiling;
  tiling.subgroupSize = static_cast<uint32_t>(tilingAttr[2]);
  tiling.subgroups = static_cast<uint32_t>(tilingAttr[3]);
  tiling.workgroupSize = tiling.subgroupSize * tiling.subgroups;
  tiling.sharedBytes = uint64_t(tiling.subgroups) * 4;
  auto sizeAttr =
      kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroupSize);
  if (!sizeAttr || sizeAttr.size() != 3 ||
      sizeAttr[0] != int64_t(tiling.workgroupSize))
    return kernel.emitError()
           << "kernel " << describeKernel(kernel)
           << ": 'fuel.workgroup_size' must be [" << tiling.workgroupSize
           << ", 1, 1], the row kernel's " << tiling.subgroups
           << " subgroups of " << tiling.subgroupSize;

  OpBuilder b(kernel.getContext());
  FailureOr<gpu::GPUFuncOp> fn = ::fuel::gpu::buildRowKernel(
      b, kernel.getLoc(), gpuModule, kernel.getName(), *kind, rows, cols,
      b.getF32Type(), tiling);
  if (failed(fn))
    return failure();
  // exp by the same polynomial as every other GPU kernel
  // (fuel-bufferize-kernels, without FMA).
  RewritePatternSet patterns(kernel.getContext());
  populateFastExpPatterns(patterns, /*useFma=*/false);
  populateMathPolynomialApproximationPatterns(patterns);
  if (failed(applyPatternsGreedily(*fn, std::move(patterns))))
    return kernel.emitError() << "kernel " << describeKernel(kernel)
                              << ": polynomial approximation did not converge";
  return fn;
}
