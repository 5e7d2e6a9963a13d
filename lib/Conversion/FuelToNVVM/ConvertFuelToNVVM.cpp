//===- ConvertFuelToNVVM.cpp - CUDA kernel modules to PTX -----------------===//
//
// convert-fuel-to-nvvm: each bufferized cuda kernel module becomes one
// gpu.binary holding the PTX of all its kernels, through a gpu.func per
// kernel (its workgroup scf.forall linearized over blocks and threads,
// GpuKernels.h; the shared-memory matmul and conv2d, GpuMatmul.h; the
// warp row kernels, GpuRowKernels.h), the upstream gpu-to-nvvm conversion
// and LLVM's NVPTX backend in-process (Passes.td has the contract,
// docs/LOWERING.md "CUDA" the design).
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/Passes.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/GPU/CudaKernels.h"
#include "fuel/Codegen/GPU/GpuKernels.h"
#include "fuel/Codegen/GPU/GpuMatmul.h"
#include "fuel/Codegen/GPU/GpuRowKernels.h"
#include "fuel/Codegen/GPU/VulkanKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/IR/GpuLimits.h"
#include "fuel/Planner/CudaLimits.h"
#include "fuel/Target/Cpu/CpuTarget.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/ModuleToObject.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_CONVERTFUELTONVVMPASS
#include "fuel/Conversion/Passes.h.inc"
} // namespace mlir::fuel

using namespace mlir;
using namespace mlir::fuel;

namespace {

constexpr llvm::StringLiteral kNvptxTriple = "nvptx64-nvidia-cuda";

/// The libdevice functions convert-gpu-to-nvvm calls for math ops that have
/// an exact NVPTX instruction, by the LLVM intrinsic that the NVPTX backend
/// lowers to that instruction (sqrt.rn, abs, cvt.rmi/rpi/rni/rzi, fma.rn,
/// min/max, copysign), so that no such kernel needs libdevice. The f32
/// names end in 'f'.
enum class Native {
  Sqrt,
  FAbs,
  Floor,
  Ceil,
  RoundEven,
  Trunc,
  Round,
  Fma,
  Min,
  Max,
  CopySign
};
const llvm::StringMap<Native> &nativeLibdeviceFunctions() {
  static const llvm::StringMap<Native> table = [] {
    llvm::StringMap<Native> t;
    auto add = [&](StringRef base, Native n) {
      t[("__nv_" + base).str()] = n;
      t[("__nv_" + base + "f").str()] = n;
    };
    add("sqrt", Native::Sqrt);
    add("fabs", Native::FAbs);
    add("floor", Native::Floor);
    add("ceil", Native::Ceil);
    add("rint", Native::RoundEven);
    add("nearbyint", Native::RoundEven);
    add("trunc", Native::Trunc);
    add("round", Native::Round);
    add("fma", Native::Fma);
    add("fmin", Native::Min);
    add("fmax", Native::Max);
    add("copysign", Native::CopySign);
    return t;
  }();
  return table;
}

/// Serializes a gpu.module in the NVVM dialect to PTX text with LLVM's
/// NVPTX backend, linking libdevice only when a path to it is given: unlike
/// the upstream NVVM serializer it never looks for a toolkit through the
/// environment, so the same IR gives the same PTX on every machine.
class PtxSerializer : public LLVM::ModuleToObject {
public:
  PtxSerializer(Operation &module, StringRef chip, StringRef features,
                StringRef libdevice)
      : ModuleToObject(module, kNvptxTriple, chip, features, /*optLevel=*/3),
        libdevice(libdevice.str()) {}

protected:
  std::optional<SmallVector<std::unique_ptr<llvm::Module>>>
  loadBitcodeFiles(llvm::Module &module) override {
    SmallVector<std::unique_ptr<llvm::Module>> libs;
    if (libdevice.empty())
      return libs;
    std::unique_ptr<llvm::Module> lib =
        loadBitcodeFile(module.getContext(), libdevice);
    if (!lib)
      return std::nullopt;
    libs.push_back(std::move(lib));
    return libs;
  }

  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine)) {
      getOperation().emitError()
          << "LLVM has no NVPTX target for chip '" << chip << "'";
      return failure();
    }
    FailureOr<SmallString<0>> ptx = translateModuleToISA(
        llvmModule, **machine, [&] { return getOperation().emitError(); });
    if (failed(ptx))
      return failure();
    return SmallVector<char, 0>(ptx->begin(), ptx->end());
  }

private:
  std::string libdevice;
};

struct ConvertFuelToNVVMPass
    : public mlir::fuel::impl::ConvertFuelToNVVMPassBase<
          ConvertFuelToNVVMPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<affine::AffineDialect, func::FuncDialect, LLVM::LLVMDialect,
                    NVVM::NVVMDialect>();
    // fuel::gpu::buildRowKernel records a SPIR-V workgroup size on the
    // kernels it builds, which the warp row kernels drop.
    registry.insert<spirv::SPIRVDialect>();
    // The ConvertToLLVM interfaces convert-gpu-to-nvvm lowers the kernels'
    // ops through, and the translations to LLVM IR.
    arith::registerConvertArithToLLVMInterface(registry);
    cf::registerConvertControlFlowToLLVMInterface(registry);
    registerConvertFuncToLLVMInterface(registry);
    index::registerConvertIndexToLLVMInterface(registry);
    registerConvertMathToLLVMInterface(registry);
    registerConvertMemRefToLLVMInterface(registry);
    registerConvertNVVMToLLVMInterface(registry);
    ub::registerConvertUBToLLVMInterface(registry);
    NVVM::registerConvertGpuToNVVMInterface(registry);
    registerBuiltinDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerNVVMDialectTranslation(registry);
  }

  /// libdevice of the toolkit the option names, or "" without one. A
  /// toolkit without libdevice is an error at the module.
  FailureOr<std::string> libdevicePath(ModuleOp root) {
    if (cudaToolkit.empty())
      return std::string();
    SmallString<256> path(cudaToolkit);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (!llvm::sys::fs::is_regular_file(path)) {
      root.emitError() << "convert-fuel-to-nvvm: option cuda-toolkit='"
                       << cudaToolkit << "' has no libdevice (expected " << path
                       << ")";
      return failure();
    }
    return path.str().str();
  }

  /// Builds the gpu.func of `kernel` in `gpuModule` and leaves the kernel a
  /// declaration naming its PTX entry.
  LogicalResult buildKernel(func::FuncOp kernel, gpu::GPUModuleOp gpuModule) {
    for (BlockArgument arg : kernel.getArguments()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
        return kernel.emitError()
               << "kernel " << describeKernel(kernel) << ": binding #"
               << arg.getArgNumber() << " has type " << arg.getType()
               << "; cuda kernels bind static identity-layout memrefs";
    }
    FailureOr<gpu::GPUFuncOp> fn =
        buildLinearizedGpuFunc(kernel, gpuModule, "cuda");
    if (failed(fn))
      return failure();
    auto size =
        kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroupSize);
    int32_t block[3] = {static_cast<int32_t>(size[0]), 1, 1};
    (*fn).setKnownBlockSizeAttr(
        DenseI32ArrayAttr::get(&getContext(), ArrayRef<int32_t>(block)));
    declareEntry(kernel);
    return success();
  }

  /// Leaves `kernel` the declaration its dispatches name, with its PTX entry.
  void declareEntry(func::FuncOp kernel) {
    kernel.eraseBody();
    kernel.setPrivate();
    kernel->setAttr(kernel_attr::kPtxEntry,
                    StringAttr::get(&getContext(), kernel.getName()));
  }

  /// The block size `fuel.workgroup_size` records, as the gpu.func's known
  /// block size (nvvm.maxntid).
  void setBlockSize(func::FuncOp kernel, gpu::GPUFuncOp fn) {
    auto size =
        kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroupSize);
    int32_t block[3] = {static_cast<int32_t>(size[0]),
                        static_cast<int32_t>(size[1]),
                        static_cast<int32_t>(size[2])};
    fn.setKnownBlockSizeAttr(
        DenseI32ArrayAttr::get(&getContext(), ArrayRef<int32_t>(block)));
  }

  /// The gpu.func of a kernel of the shared-memory matmul or conv2d
  /// schedule (`fuel.gpu_matmul` / `fuel.gpu_conv2d`, GpuMatmul.h): each
  /// binding one pointer to its first element, the panels in shared memory.
  LogicalResult buildTiledKernel(func::FuncOp kernel,
                                 gpu::GPUModuleOp gpuModule,
                                 const ::fuel::plan::GpuLimits &limits) {
    ::fuel::plan::GpuLimits table =
        ::fuel::plan::cudaLimitsFor(::fuel::plan::kDefaultComputeCapability);
    TiledMatmulTarget target;
    target.backend = "cuda";
    target.defaultSharedMemoryBytes = table.sharedMemoryBytes;
    target.defaultInvocations = table.maxWorkgroupInvocations;
    auto argumentType = [](MemRefType binding) -> Type {
      return MemRefType::get({binding.getNumElements()},
                             binding.getElementType());
    };
    auto elementOffset = [](OpBuilder &, gpu::GPUFuncOp, unsigned) {
      return Value();
    };
    target.argumentType = argumentType;
    target.elementOffset = elementOffset;
    FailureOr<gpu::GPUFuncOp> fn =
        buildTiledMatmulFunc(kernel, gpuModule, target, limits);
    if (failed(fn))
      return failure();
    setBlockSize(kernel, *fn);
    promoteWorkgroupAllocations(*fn);
    declareEntry(kernel);
    return success();
  }

  /// The gpu.func of a kernel of the warp row schedule (`fuel.row_kernel`,
  /// GpuRowKernels.h): its subgroup reductions as butterfly `gpu.shuffle`s
  /// over the warp (`shfl.sync.bfly`), the warp of thread t being t / S, its
  /// workgroup buffer in shared memory. The record's S must be the device's
  /// warp size.
  LogicalResult buildWarpRowKernel(func::FuncOp kernel,
                                   gpu::GPUModuleOp gpuModule,
                                   const ::fuel::plan::GpuLimits &limits) {
    auto tiling =
        kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kRowTiling);
    if (tiling && tiling.size() == 4 &&
        tiling[2] != int64_t(limits.subgroupSize))
      return kernel.emitError()
             << "kernel " << describeKernel(kernel)
             << ": its row kernel was sized for warps of " << tiling[2]
             << " threads, but the device's subgroup_size is "
             << limits.subgroupSize;
    FailureOr<gpu::GPUFuncOp> built = buildRowKernelFunc(kernel, gpuModule);
    if (failed(built))
      return failure();
    gpu::GPUFuncOp fn = *built;
    const int64_t warp = tiling[2];
    fn->removeAttr(spirv::getEntryPointABIAttrName());
    setBlockSize(kernel, fn);
    promoteWorkgroupAllocations(fn);
    // CUDA forms warps of consecutive thread indices: a 1-D block's warp
    // of thread t is t / S.
    SmallVector<gpu::SubgroupIdOp> ids;
    fn.walk([&](gpu::SubgroupIdOp op) { ids.push_back(op); });
    for (gpu::SubgroupIdOp op : ids) {
      OpBuilder b(op);
      Value tid = gpu::ThreadIdOp::create(b, op.getLoc(), gpu::Dimension::x);
      Value id = arith::DivUIOp::create(
          b, op.getLoc(), tid,
          arith::ConstantIndexOp::create(b, op.getLoc(), warp));
      op.replaceAllUsesWith(id);
      op.erase();
    }
    RewritePatternSet patterns(&getContext());
    populateGpuLowerSubgroupReduceToShufflePatterns(
        patterns, static_cast<unsigned>(warp), /*shuffleBitwidth=*/32);
    if (failed(applyPatternsGreedily(fn, std::move(patterns))))
      return kernel.emitError() << "kernel " << describeKernel(kernel)
                                << ": lowering its warp reductions to "
                                   "shuffles did not converge";
    bool left = false;
    fn.walk([&](gpu::SubgroupReduceOp) { left = true; });
    if (left)
      return kernel.emitError()
             << "kernel " << describeKernel(kernel)
             << ": a subgroup reduction has no warp-shuffle form";
    declareEntry(kernel);
    return success();
  }

  /// Replaces the calls of libdevice functions that have an NVPTX
  /// instruction by the LLVM intrinsic (nativeLibdeviceFunctions); any other
  /// libdevice call needs libdevice: an error at it unless `haveLibdevice`.
  LogicalResult replaceLibdeviceCalls(gpu::GPUModuleOp gpuModule,
                                      bool haveLibdevice, StringRef exeName) {
    SmallVector<LLVM::CallOp> calls;
    gpuModule.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (callee && callee->starts_with("__nv_"))
        calls.push_back(call);
    });
    const llvm::StringMap<Native> &table = nativeLibdeviceFunctions();
    for (LLVM::CallOp call : calls) {
      StringRef callee = *call.getCallee();
      auto it = table.find(callee);
      if (it == table.end()) {
        if (haveLibdevice)
          continue;
        return call.emitError()
               << "a cuda kernel of @" << exeName << " calls libdevice's '"
               << callee
               << "', which has no polynomial approximation or NVPTX "
                  "instruction: give convert-fuel-to-nvvm a cuda-toolkit "
                  "(fuel-compile --cuda-toolkit=DIR) to link libdevice";
      }
      OpBuilder b(call);
      Location loc = call.getLoc();
      ValueRange args = call.getArgOperands();
      Type type = call.getResult().getType();
      Value result;
      switch (it->second) {
      case Native::Sqrt:
        result = LLVM::SqrtOp::create(b, loc, type, args[0]);
        break;
      case Native::FAbs:
        result = LLVM::FAbsOp::create(b, loc, type, args[0]);
        break;
      case Native::Floor:
        result = LLVM::FFloorOp::create(b, loc, type, args[0]);
        break;
      case Native::Ceil:
        result = LLVM::FCeilOp::create(b, loc, type, args[0]);
        break;
      case Native::RoundEven:
        result = LLVM::RoundEvenOp::create(b, loc, type, args[0]);
        break;
      case Native::Trunc:
        result = LLVM::FTruncOp::create(b, loc, type, args[0]);
        break;
      case Native::Round:
        result = LLVM::RoundOp::create(b, loc, type, args[0]);
        break;
      case Native::Fma:
        result = LLVM::FMAOp::create(b, loc, type, args[0], args[1], args[2]);
        break;
      case Native::Min:
        result = LLVM::MinNumOp::create(b, loc, type, args[0], args[1]);
        break;
      case Native::Max:
        result = LLVM::MaxNumOp::create(b, loc, type, args[0], args[1]);
        break;
      case Native::CopySign:
        result = LLVM::CopySignOp::create(b, loc, type, args[0], args[1]);
        break;
      }
      call.getResult().replaceAllUsesWith(result);
      call.erase();
    }
    // Declarations nothing calls any more.
    SmallVector<LLVM::LLVMFuncOp> unused;
    for (auto fn : gpuModule.getOps<LLVM::LLVMFuncOp>())
      if (fn.isExternal() && fn.getName().starts_with("__nv_") &&
          SymbolTable::symbolKnownUseEmpty(fn, gpuModule))
        unused.push_back(fn);
    for (LLVM::LLVMFuncOp fn : unused)
      fn.erase();
    return success();
  }

  LogicalResult convert(ExecutableOp exe, ModuleOp kernels,
                        StringRef libdevice) {
    SmallVector<func::FuncOp> funcs = getKernelFuncs(kernels);
    if (funcs.empty())
      return success();
    MLIRContext *ctx = &getContext();
    if (failed(lowerGpuKernelsToLoops(kernels, "cuda", exe.getSymName(),
                                      [&](OpPassManager &pm, Operation *op) {
                                        return runPipeline(pm, op);
                                      })))
      return failure();

    // The chip from the device's compute capability in the topology.
    ::fuel::plan::ComputeCapability cc =
        getComputeCapability(getOperation(), toPlan(exe.getDevice()));
    std::string chip = cc.chip();
    std::string features = ptxFeatures(cc);
    auto target = NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3, kNvptxTriple,
                                            chip, features);

    kernels->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                     UnitAttr::get(ctx));
    OpBuilder b = OpBuilder::atBlockEnd(kernels.getBody());
    std::string name = (exe.getSymName() + "_ptx").str();
    auto gpuModule = gpu::GPUModuleOp::create(
        b, kernels.getLoc(), name,
        ArrayAttr::get(ctx, ArrayRef<Attribute>{target}));
    ::fuel::plan::GpuLimits limits =
        getCudaLimits(getOperation(), toPlan(exe.getDevice()));
    for (func::FuncOp kernel : funcs) {
      LogicalResult built = kernel->hasAttr(kernel_attr::kGpuMatmul) ||
                                    kernel->hasAttr(kernel_attr::kGpuConv2d)
                                ? buildTiledKernel(kernel, gpuModule, limits)
                            : kernel->hasAttr(kernel_attr::kRowKernel)
                                ? buildWarpRowKernel(kernel, gpuModule, limits)
                                : buildKernel(kernel, gpuModule);
      if (failed(built))
        return failure();
    }

    OpPassManager pm(ModuleOp::getOperationName());
    OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
    gpm.addPass(createSCFToControlFlowPass());
    ConvertGpuOpsToNVVMOpsOptions nvvm;
    // Each binding one pointer (docs/LOWERING.md, "CUDA").
    nvvm.useBarePtrCallConv = true;
    gpm.addPass(createConvertGpuOpsToNVVMOps(nvvm));
    gpm.addPass(createReconcileUnrealizedCastsPass());
    if (failed(runPipeline(pm, kernels)))
      return kernels.emitError()
             << "the NVVM conversion of the cuda kernels of @"
             << exe.getSymName() << " failed";
    if (failed(replaceLibdeviceCalls(gpuModule, !libdevice.empty(),
                                     exe.getSymName())))
      return failure();

    PtxSerializer serializer(*gpuModule, chip, features, libdevice);
    std::optional<SmallVector<char, 0>> ptx = serializer.run();
    if (!ptx)
      return kernels.emitError()
             << "emitting the PTX of the cuda kernels of @" << exe.getSymName()
             << " for " << chip << " failed";
    // What gpu-module-to-binary{format=isa} would leave: the PTX as the
    // assembly of a gpu.object for the module's target.
    b.setInsertionPoint(gpuModule);
    auto object = gpu::ObjectAttr::get(
        ctx, target, gpu::CompilationTarget::Assembly,
        StringAttr::get(ctx, StringRef(ptx->data(), ptx->size())),
        /*properties=*/nullptr, /*kernels=*/nullptr);
    gpu::BinaryOp::create(b, gpuModule.getLoc(), name, Attribute(),
                          ArrayAttr::get(ctx, ArrayRef<Attribute>{object}));
    gpuModule.erase();
    kernels->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
    return success();
  }

  void runOnOperation() override {
    initializeNativeCpuTarget();
    FailureOr<std::string> libdevice = libdevicePath(getOperation());
    if (failed(libdevice))
      return signalPassFailure();
    for (auto exe : getOperation().getOps<ExecutableOp>()) {
      if (exe.getDevice().getKind() != DeviceKind::cuda)
        continue;
      ModuleOp kernels = exe.getKernelModule();
      if (!kernels)
        continue;
      if (failed(convert(exe, kernels, *libdevice)))
        return signalPassFailure();
    }
  }
};
} // namespace
