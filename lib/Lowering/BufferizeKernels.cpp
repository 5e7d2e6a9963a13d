//===- BufferizeKernels.cpp - Bufferize the cpu kernel modules ------------===//
//
// fuel-bufferize-kernels: each scheduled cpu kernel module from tensors to
// memrefs (docs/CPU-CODEGEN.md, stage `bufferized`): math functions by
// polynomial approximation, outputs written in place, scratch on the stack,
// and no heap allocation left.
//
//===----------------------------------------------------------------------===//

#include "fuel/Lowering/Passes.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/CPU/FastExp.h"
#include "fuel/Codegen/CPU/MinMax.h"
#include "fuel/Target/Cpu/CpuTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELBUFFERIZEKERNELSPASS
#include "fuel/Lowering/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-bufferize-kernels"

using namespace mlir;
using namespace mlir::fuel;

namespace {
/// Inside an `scf.forall`, a slice of a shared output's initial value that is
/// exactly the slice this iteration writes back (its
/// `tensor.parallel_insert_slice`) holds the same bytes as that slice of the
/// iteration's shared-output argument: no other iteration writes there. Reading
/// it through the argument lets bufferization keep the output in place instead
/// of copying the whole output first (a fused producer whose destination is the
/// kernel's output, such as the exp of a decomposed softmax, reads it so).
void readOwnedSlicesThroughSharedOutputs(ModuleOp kernels) {
  kernels.walk([](scf::ForallOp forall) {
    for (auto [init, arg] :
         llvm::zip(forall.getOutputs(), forall.getRegionIterArgs())) {
      tensor::ParallelInsertSliceOp owned;
      for (Operation &op : forall.getTerminator().getYieldingOps())
        if (auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(op))
          if (insert.getDest() == arg)
            owned = insert;
      if (!owned)
        continue;
      for (OpOperand &use : llvm::make_early_inc_range(init.getUses())) {
        auto slice = dyn_cast<tensor::ExtractSliceOp>(use.getOwner());
        if (!slice || !forall->isProperAncestor(slice) ||
            slice.getMixedOffsets() != owned.getMixedOffsets() ||
            slice.getMixedSizes() != owned.getMixedSizes() ||
            slice.getMixedStrides() != owned.getMixedStrides() ||
            slice.getType() != owned.getSourceType())
          continue;
        use.set(arg);
      }
    }
  });
}

/// In a softmax kernel, the normalising divide of every element by the row
/// sum (`arith.divf %x, vector.broadcast %s`) becomes a multiply by the
/// reciprocal, whose `1 / s` is computed once per row (the broadcast's
/// operand is defined outside the element loop): one divide per row instead
/// of one per element, at most one rounding more (docs/CPU-CODEGEN.md).
void divideByReciprocal(func::FuncOp kernel) {
  auto kind = kernel->getAttrOfType<StringAttr>(kernel_attr::kOpKind);
  if (!kind || kind.getValue() != "softmax")
    return;
  SmallVector<arith::DivFOp> divides;
  kernel.walk([&](arith::DivFOp div) {
    if (auto broadcast = div.getRhs().getDefiningOp<vector::BroadcastOp>())
      if (isa<FloatType>(broadcast.getSourceType()))
        divides.push_back(div);
  });
  for (arith::DivFOp div : divides) {
    auto broadcast = div.getRhs().getDefiningOp<vector::BroadcastOp>();
    OpBuilder builder(broadcast);
    Location loc = div.getLoc();
    Value sum = broadcast.getSource();
    Value one = arith::ConstantOp::create(
        builder, loc, builder.getFloatAttr(sum.getType(), 1.0));
    Value reciprocal = arith::DivFOp::create(builder, loc, one, sum);
    Value splat = vector::BroadcastOp::create(builder, loc, broadcast.getType(),
                                              reciprocal);
    builder.setInsertionPoint(div);
    Value product = arith::MulFOp::create(builder, loc, div.getLhs(), splat);
    div.replaceAllUsesWith(product);
    div.erase();
  }
}

struct BufferizeKernelsPass
    : public mlir::fuel::impl::FuelBufferizeKernelsPassBase<
          BufferizeKernelsPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<bufferization::BufferizationDialect, math::MathDialect,
                    memref::MemRefDialect, vector::VectorDialect,
                    x86vector::X86VectorDialect>();
    // BufferizableOpInterface models of tensor, linalg, scf, vector, ...
    registerAllExtensions(registry);
  }

  /// Bufferizes a kernel module; `vulkan` for a GPU (vulkan or cuda)
  /// executable's (no CPU target: exp by the same polynomial as the generic
  /// ISA class).
  LogicalResult bufferize(ModuleOp kernels, bool vulkan = false) {
    // math.exp/tanh/erf/... as polynomials, so no kernel calls libm and
    // vector math stays vector code; f32 exp by fuel's cheaper lowering
    // (FastExp.h), whose multiply-adds are fused where the target has FMA.
    bool useFma = false;
    if (!vulkan) {
      FailureOr<CpuTargetSpec> target = resolveCpuTarget(kernels);
      if (failed(target))
        return failure();
      useFma = isaClass(*target) != IsaClass::Generic;
    }
    RewritePatternSet patterns(&getContext());
    populateFastExpPatterns(patterns, useFma);
    populateMathPolynomialApproximationPatterns(patterns);
    populateBranchFreeMinMaxPatterns(patterns);
    if (failed(applyPatternsGreedily(kernels, std::move(patterns))))
      return kernels.emitError("polynomial approximation did not converge");

    readOwnedSlicesThroughSharedOutputs(kernels);
    for (func::FuncOp kernel : getKernelFuncs(kernels))
      divideByReciprocal(kernel);

    OpPassManager pm(ModuleOp::getOperationName());
    // Computes each output into its binding: a tensor.empty the result is
    // materialized into becomes the binding itself, not a full-size copy.
    pm.addPass(bufferization::createEmptyTensorEliminationPass());
    bufferization::OneShotBufferizePassOptions oneShot;
    pm.addPass(bufferization::createOneShotBufferizePass(oneShot));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    fpm.addPass(bufferization::createBufferHoistingPass());
    fpm.addPass(bufferization::createBufferLoopHoistingPass());
    bufferization::PromoteBuffersToStackPassOptions stack;
    stack.maxAllocSizeInBytes = maxStackBytes;
    fpm.addPass(bufferization::createPromoteBuffersToStackPass(stack));
    bufferization::BufferDeallocationPipelineOptions dealloc;
    bufferization::buildBufferDeallocationPipeline(pm, dealloc);
    pm.addPass(createCanonicalizerPass());
    if (failed(runPipeline(pm, kernels)))
      return kernels.emitError()
             << "bufferization of the " << (vulkan ? "gpu" : "cpu")
             << " kernels failed";

    // Kernels never call malloc: any heap allocation left is an error.
    for (func::FuncOp kernel : getKernelFuncs(kernels)) {
      WalkResult walk = kernel.walk([&](memref::AllocOp alloc) {
        InFlightDiagnostic diag =
            kernel.emitError()
            << "kernel " << describeKernel(kernel) << " needs a heap buffer "
            << alloc.getType() << " (scratch above "
            << static_cast<unsigned>(maxStackBytes)
            << " bytes or of dynamic size); kernels never call malloc";
        diag.attachNote(alloc.getLoc()) << "allocated here";
        return WalkResult::interrupt();
      });
      if (walk.wasInterrupted())
        return failure();
    }
    return success();
  }

  void runOnOperation() override {
    for (ModuleOp kernels : getCpuKernelModules(getOperation()))
      if (failed(bufferize(kernels)))
        return signalPassFailure();
    for (ModuleOp kernels : getVulkanKernelModules(getOperation()))
      if (failed(bufferize(kernels, /*vulkan=*/true)))
        return signalPassFailure();
    // CUDA kernels: the same polynomials as Vulkan's, so that their PTX
    // needs no libdevice (convert-fuel-to-nvvm).
    for (ModuleOp kernels : getCudaKernelModules(getOperation()))
      if (failed(bufferize(kernels, /*vulkan=*/true)))
        return signalPassFailure();
  }
};
} // namespace
