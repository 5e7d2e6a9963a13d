//===- ConvertFuelToLLVM.cpp - cpu kernel modules to the LLVM dialect -----===//
//
// convert-fuel-to-llvm: the guards on scheduled kernels, the mapping of each
// kernel's workgroup scf.forall onto the kernel ABI's workgroup ids, the
// lowering of each cpu kernel module to the LLVM dialect with bare-pointer
// memrefs, and one fuel_kernel_fn entry per kernel (include/fuel-c/
// KernelABI.h; docs/CPU-CODEGEN.md, stage `llvm`).
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/Passes.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Target/Cpu/CpuTarget.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_CONVERTFUELTOLLVMPASS
#include "fuel/Conversion/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "convert-fuel-to-llvm"

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// The kernel attributes the entry keeps.
constexpr llvm::StringLiteral kKeptAttrs[] = {
    kernel_attr::kKernelId,   kernel_attr::kOpKind,
    kernel_attr::kRevision,   kernel_attr::kSchedule,
    kernel_attr::kWorkgroups, kernel_attr::kWorkspaceBytes};

/// Whether `op` computes on vectors of more than one element: a 1-lane
/// vector (vector<1xf32>, vector<1x1xf32>) is scalar code in vector types.
bool isVectorOp(Operation *op) {
  auto isVector = [](Type t) {
    auto vector = dyn_cast<VectorType>(t);
    return vector && (vector.isScalable() || vector.getNumElements() > 1);
  };
  return llvm::any_of(op->getResultTypes(), isVector) ||
         llvm::any_of(op->getOperandTypes(), isVector);
}

/// The guards of a scheduled kernel (Passes.td): no linalg op left, and no
/// scalar floating-point loop over at least `2 * width` iterations.
LogicalResult checkKernel(func::FuncOp kernel, unsigned width) {
  Operation *linalgOp = nullptr;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!linalgOp && isa<linalg::LinalgDialect>(op->getDialect()))
      linalgOp = op;
  });
  if (linalgOp) {
    InFlightDiagnostic diag = kernel.emitError()
                              << "kernel " << describeKernel(kernel) << ": '"
                              << linalgOp->getName()
                              << "' is left after the schedule; schedules must "
                                 "vectorize every linalg op";
    diag.attachNote(linalgOp->getLoc()) << "left here";
    return failure();
  }
  scf::ForOp scalarLoop;
  kernel.walk([&](scf::ForOp loop) {
    if (scalarLoop)
      return;
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!lb || !ub || !step || *step <= 0)
      return;
    int64_t trips = (*ub - *lb + *step - 1) / *step;
    if (trips < 2 * int64_t(width))
      return;
    bool scalarFloat = false, vector = false;
    loop.getBody()->walk([&](Operation *op) {
      if (isVectorOp(op))
        vector = true;
      else if (isa<arith::ArithDialect>(op->getDialect()) &&
               llvm::any_of(op->getResultTypes(), [](Type t) {
                 return isa<FloatType>(getElementTypeOrSelf(t));
               }))
        scalarFloat = true;
    });
    if (scalarFloat && !vector)
      scalarLoop = loop;
  });
  if (scalarLoop) {
    InFlightDiagnostic diag =
        kernel.emitError()
        << "kernel " << describeKernel(kernel)
        << ": a scalar loop runs over a dimension of at least twice the "
           "vector width ("
        << width << " f32 lanes); the schedule left a dynamic or unvectorized "
        << "tile";
    diag.attachNote(scalarLoop.getLoc()) << "scalar loop here";
    return failure();
  }
  return success();
}

/// Replaces the workgroup loop by its body with the ivs as the function's
/// three new trailing index arguments (x, y, z), and renames the function
/// `<name>.body`, private.
LogicalResult outlineBody(func::FuncOp kernel, std::string &bodyName) {
  FailureOr<scf::ForallOp> forall = getWorkgroupLoop(kernel);
  if (failed(forall))
    return failure();
  MLIRContext *ctx = kernel.getContext();
  Block &entry = kernel.getBody().front();
  Location loc = kernel.getLoc();
  SmallVector<Value> ids;
  for (int i = 0; i < 3; ++i)
    ids.push_back(entry.addArgument(IndexType::get(ctx), loc));
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.append(3, IndexType::get(ctx));
  kernel.setType(FunctionType::get(ctx, inputs, kernel.getResultTypes()));
  if (*forall) {
    scf::ForallOp loop = *forall;
    if (loop.getNumResults() != 0)
      return kernel.emitError()
             << "kernel " << describeKernel(kernel)
             << ": the workgroup scf.forall still has tensor results; run "
                "fuel-bufferize-kernels first";
    Block *body = loop.getBody();
    for (auto [iv, id] : llvm::zip(loop.getInductionVars(), ids))
      iv.replaceAllUsesWith(id);
    body->getTerminator()->erase();
    loop->getBlock()->getOperations().splice(Block::iterator(loop),
                                             body->getOperations());
    loop->erase();
  }
  bodyName = (kernel.getSymName() + ".body").str();
  kernel.setSymName(bodyName);
  kernel.setPrivate();
  return success();
}

struct KernelInfo {
  std::string name;
  std::string bodyName;
  unsigned numBindings;
  SmallVector<NamedAttribute> attrs;
  Location loc;
};

struct ConvertFuelToLLVMPass
    : public mlir::fuel::impl::ConvertFuelToLLVMPassBase<
          ConvertFuelToLLVMPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<LLVM::LLVMDialect, scf::SCFDialect, vector::VectorDialect>();
    registerAllExtensions(registry);
  }

  LogicalResult lowerModule(ModuleOp kernels) {
    FailureOr<CpuTargetSpec> target = resolveCpuTarget(kernels);
    if (failed(target))
      return failure();
    unsigned width = vectorWidthF32(isaClass(*target));

    SmallVector<KernelInfo> infos;
    for (func::FuncOp kernel : getKernelFuncs(kernels)) {
      if (failed(checkKernel(kernel, width)))
        return failure();
      KernelInfo info{kernel.getSymName().str(),
                      "",
                      kernel.getNumArguments(),
                      {},
                      kernel.getLoc()};
      for (StringRef name : kKeptAttrs)
        if (Attribute value = kernel->getAttr(name))
          info.attrs.push_back(NamedAttribute(name, value));
      if (!kernel->hasAttr(kernel_attr::kWorkgroups))
        info.attrs.push_back(
            NamedAttribute(kernel_attr::kWorkgroups,
                           Builder(kernel).getDenseI64ArrayAttr({1, 1, 1})));
      if (!kernel->hasAttr(kernel_attr::kWorkspaceBytes))
        info.attrs.push_back(
            NamedAttribute(kernel_attr::kWorkspaceBytes,
                           Builder(kernel).getI64IntegerAttr(0)));
      if (failed(outlineBody(kernel, info.bodyName)))
        return failure();
      for (StringRef name : kKeptAttrs)
        kernel->removeAttr(name);
      infos.push_back(std::move(info));
    }

    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createForallToForLoopPass());
    VectorTransferToSCFOptions toScf;
    toScf.unroll = true;
    pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(toScf));
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
    pm.addPass(memref::createFoldMemRefAliasOpsPass());
    pm.addPass(createSCFToControlFlowPass());
    pm.addPass(memref::createExpandStridedMetadataPass());
    pm.addPass(createLowerAffinePass());
    pm.addPass(createCanonicalizerPass());
    ConvertVectorToLLVMPassOptions toLlvm;
    toLlvm.reassociateFPReductions = true;
    pm.addPass(createConvertVectorToLLVMPass(toLlvm));
    pm.addPass(createFinalizeMemRefToLLVMConversionPass());
    pm.addPass(createArithToLLVMConversionPass());
    pm.addPass(createConvertMathToLLVMPass());
    pm.addPass(createConvertIndexToLLVMPass());
    pm.addPass(createUBToLLVMConversionPass());
    pm.addPass(createConvertControlFlowToLLVMPass());
    ConvertFuncToLLVMPassOptions funcs;
    funcs.useBarePtrCallConv = true;
    pm.addPass(createConvertFuncToLLVMPass(funcs));
    pm.addPass(createReconcileUnrealizedCastsPass());
    pm.addPass(createCanonicalizerPass());
    if (failed(runPipeline(pm, kernels)))
      return kernels.emitError("lowering the cpu kernels to LLVM failed");

    // A call to a function the module does not define would be an
    // undefined symbol of the shared object.
    for (auto fn : kernels.getOps<LLVM::LLVMFuncOp>()) {
      if (!fn.isExternal())
        continue;
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(fn.getSymNameAttr(), kernels);
      for (SymbolTable::SymbolUse use : *uses) {
        auto caller = use.getUser()->getParentOfType<LLVM::LLVMFuncOp>();
        std::string kernel = caller ? caller.getSymName().str() : "?";
        if (caller && kernel.size() > 5 && StringRef(kernel).ends_with(".body"))
          kernel.resize(kernel.size() - 5);
        return use.getUser()->emitError()
               << "kernel @" << kernel << " calls '" << fn.getSymName()
               << "', which no kernel defines; kernels call no library";
      }
    }

    OpBuilder b(kernels.getBodyRegion());
    b.setInsertionPointToEnd(kernels.getBody());
    MLIRContext *ctx = kernels.getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32);
    Type i64 = IntegerType::get(ctx, 64);
    for (KernelInfo &info : infos) {
      auto body = kernels.lookupSymbol<LLVM::LLVMFuncOp>(info.bodyName);
      if (!body)
        return kernels.emitError()
               << "kernel @" << info.name << ": its lowered body is missing";
      body.setLinkage(LLVM::Linkage::Internal);
      auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                                {ptr, ptr, i32, i32, i32});
      auto entry = LLVM::LLVMFuncOp::create(b, info.loc, info.name, fnType);
      for (NamedAttribute attr : info.attrs)
        entry->setAttr(attr.getName(), attr.getValue());
      entry->setAttr(kernel_attr::kKernelBody,
                     FlatSymbolRefAttr::get(ctx, info.bodyName));
      Block *block = entry.addEntryBlock(b);
      OpBuilder eb = OpBuilder::atBlockBegin(block);
      Location loc = info.loc;
      // fuel_dispatch { void *const *bindings; ... }: bindings at offset 0.
      Value bindings =
          LLVM::LoadOp::create(eb, loc, ptr, block->getArgument(0));
      SmallVector<Value> args;
      for (unsigned i = 0; i < info.numBindings; ++i) {
        Value slot = LLVM::GEPOp::create(eb, loc, ptr, ptr, bindings,
                                         ArrayRef<LLVM::GEPArg>{int32_t(i)});
        args.push_back(LLVM::LoadOp::create(eb, loc, ptr, slot));
      }
      for (unsigned i = 2; i < 5; ++i)
        args.push_back(
            LLVM::ZExtOp::create(eb, loc, i64, block->getArgument(i)));
      LLVM::CallOp::create(eb, loc, body, args);
      LLVM::ReturnOp::create(eb, loc, ValueRange());
    }
    return success();
  }

  void runOnOperation() override {
    for (ModuleOp kernels : getCpuKernelModules(getOperation()))
      if (failed(lowerModule(kernels)))
        return signalPassFailure();
  }
};
} // namespace
