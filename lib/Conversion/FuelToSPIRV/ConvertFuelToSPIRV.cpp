//===- ConvertFuelToSPIRV.cpp - Vulkan kernel modules to SPIR-V -----------===//
//
// convert-fuel-to-spirv: each bufferized vulkan kernel module becomes one
// spirv.module with an entry point per kernel, through a gpu.func per kernel
// (its workgroup scf.forall linearized over workgroups and invocations) and
// the upstream gpu-to-spirv conversion (Passes.td has the contract,
// docs/LOWERING.md "Vulkan" the design).
//
//===----------------------------------------------------------------------===//

#include "fuel/Conversion/Passes.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/GPU/GpuKernels.h"
#include "fuel/Codegen/GPU/GpuMatmul.h"
#include "fuel/Codegen/GPU/GpuRowKernels.h"
#include "fuel/Codegen/GPU/VulkanKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/IR/GpuLimits.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRVPass.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::fuel {
#define GEN_PASS_DEF_CONVERTFUELTOSPIRVPASS
#include "fuel/Conversion/Passes.h.inc"
} // namespace mlir::fuel

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// The target every vulkan kernel module is converted for: SPIR-V 1.3
/// (Vulkan 1.1) shaders with storage buffers; spirv-update-vce lowers the
/// version to what the code needs.
/// The op attribute the SPIR-V serializer writes as the NoContraction
/// decoration.
constexpr llvm::StringLiteral kNoContraction = "no_contraction";

constexpr llvm::StringLiteral kTargetEnv =
    "#spirv.target_env<#spirv.vce<v1.3, [Shader], "
    "[SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, "
    "#spirv.resource_limits<>>";

/// The loop iterations one invocation runs in `region`, counted the way
/// Mesa's llvmpipe (lavapipe) limits them: each iteration of each loop,
/// nested ones included (a loop of n iterations around loops of m in all
/// counts n (1 + m)), both branches of a conditional; an scf.forall (the
/// invocations) counts its body once. std::nullopt where a trip count is not
/// static. Saturates at UINT64_MAX.
std::optional<uint64_t> loopIterations(Region &region) {
  uint64_t total = 0;
  for (Block &block : region)
    for (Operation &op : block) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        std::optional<APInt> trip = loop.getStaticTripCount();
        std::optional<uint64_t> inner = loopIterations(loop.getRegion());
        if (!trip || !inner || trip->getActiveBits() > 64)
          return std::nullopt;
        total = llvm::SaturatingAdd(
            total,
            llvm::SaturatingMultiply(trip->getZExtValue(),
                                     llvm::SaturatingAdd(*inner, uint64_t{1})));
        continue;
      }
      if (isa<LoopLikeOpInterface>(op) && !isa<scf::ForallOp>(op))
        return std::nullopt;
      for (Region &nested : op.getRegions()) {
        std::optional<uint64_t> inner = loopIterations(nested);
        if (!inner)
          return std::nullopt;
        total = llvm::SaturatingAdd(total, *inner);
      }
    }
  return total;
}

struct ConvertFuelToSPIRVPass
    : public mlir::fuel::impl::ConvertFuelToSPIRVPassBase<
          ConvertFuelToSPIRVPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<affine::AffineDialect, func::FuncDialect>();
  }

  /// Rebinds every argument of `fn` as a 1-D runtime array (`memref<?xT>`)
  /// read from element `offset_i` on, `offset_i` being push constant `i`
  /// (of `pushCount` 32-bit words): the element offset of binding `i`
  /// (docs/LOWERING.md, "Binding offsets"). Every load and store of an
  /// argument (after alias folding they are its only users) is linearized
  /// row-major.
  LogicalResult rebindArguments(gpu::GPUFuncOp fn, func::FuncOp kernel,
                                unsigned pushCount) {
    Block &entry = fn.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    Location loc = fn.getLoc();
    Type i32 = b.getI32Type();
    SmallVector<Type> argTypes;
    for (BlockArgument arg : entry.getArguments()) {
      auto type = cast<MemRefType>(arg.getType());
      if (!type.hasStaticShape() || !type.getLayout().isIdentity())
        return kernel.emitError()
               << "kernel " << describeKernel(kernel) << ": binding #"
               << arg.getArgNumber() << " has type " << type
               << "; vulkan kernels bind static identity-layout memrefs";
      Value word = spirv::getPushConstantValue(fn, pushCount,
                                               arg.getArgNumber(), i32, b);
      if (!word)
        return kernel.emitError()
               << "kernel " << describeKernel(kernel)
               << ": cannot read the element offset of binding #"
               << arg.getArgNumber() << " from the push constants";
      Value offset =
          arith::IndexCastUIOp::create(b, loc, b.getIndexType(), word);
      SmallVector<int64_t> strides(type.getRank(), 1);
      for (int64_t d = type.getRank() - 2; d >= 0; --d)
        strides[d] = strides[d + 1] * type.getDimSize(d + 1);
      SmallVector<Operation *> users(arg.getUsers().begin(),
                                     arg.getUsers().end());
      for (Operation *user : users) {
        OpBuilder ub(user);
        auto linearize = [&](ValueRange indices) {
          Value linear = offset;
          for (auto [index, stride] : llvm::zip(indices, strides)) {
            Value term = index;
            if (stride != 1)
              term = arith::MulIOp::create(
                  ub, loc, index,
                  arith::ConstantIndexOp::create(ub, loc, stride));
            linear = arith::AddIOp::create(ub, loc, linear, term);
          }
          return linear;
        };
        if (auto load = dyn_cast<memref::LoadOp>(user)) {
          if (load.getMemRef() != arg)
            return load.emitError("binding used as a load index");
          Value linear = linearize(load.getIndices());
          load.getIndicesMutable().assign(linear);
          continue;
        }
        if (auto store = dyn_cast<memref::StoreOp>(user)) {
          if (store.getMemRef() != arg)
            return store.emitError("binding stored as a value");
          Value linear = linearize(store.getIndices());
          store.getIndicesMutable().assign(linear);
          continue;
        }
        return user->emitError()
               << "kernel " << describeKernel(kernel) << ": binding #"
               << arg.getArgNumber() << " is used by '" << user->getName()
               << "', which the SPIR-V lowering cannot rebind (only loads "
                  "and stores)";
      }
      auto flat =
          MemRefType::get({ShapedType::kDynamic}, type.getElementType());
      arg.setType(flat);
      argTypes.push_back(flat);
    }
    fn.setFunctionType(FunctionType::get(fn.getContext(), argTypes, {}));
    return success();
  }

  /// Keeps the loop iterations one invocation of `kernel` runs within
  /// `max-loop-iterations` by unrolling its innermost loops by 2 until they
  /// fit (at most kMaxUnrollRounds times). lavapipe's compiler (Mesa's
  /// gallivm, LP_MAX_TGSI_LOOP_ITERATIONS) gives every shader invocation one
  /// budget of 65535 loop iterations shared by all its loops and silently
  /// leaves every loop once it is spent: the per-element softmax of a row of
  /// 65536 columns (four passes) stopped after its first pass, and a sum of
  /// more columns than that dropped the rest. Unrolling keeps each
  /// iteration's work but runs fewer iterations; only loops of at least two
  /// iterations are unrolled, so no unrolled loop runs zero times (the
  /// zero-trip trap, docs/LOWERING.md "Vulkan: fast schedules").
  LogicalResult fitLoopBudget(func::FuncOp kernel) {
    constexpr unsigned kMaxUnrollRounds = 10;
    uint64_t budget = maxLoopIterations;
    if (budget == 0)
      return success();
    for (unsigned round = 0;; ++round) {
      std::optional<uint64_t> count = loopIterations(kernel.getBody());
      if (!count)
        return kernel.emitError()
               << "kernel " << describeKernel(kernel)
               << " has a loop without a static trip count: its loop "
                  "iterations cannot be kept within max-loop-iterations = "
               << budget;
      if (*count <= budget)
        return success();
      SmallVector<scf::ForOp> innermost;
      kernel.walk([&](scf::ForOp loop) {
        bool hasInner = false;
        loop.getBody()->walk([&](scf::ForOp) { hasInner = true; });
        std::optional<APInt> trip = loop.getStaticTripCount();
        if (!hasInner && trip && trip->uge(2))
          innermost.push_back(loop);
      });
      if (round == kMaxUnrollRounds || innermost.empty())
        return kernel.emitError()
               << "kernel " << describeKernel(kernel) << " runs " << *count
               << " loop iterations per invocation, more than "
                  "max-loop-iterations = "
               << budget << " even with its innermost loops "
               << "unrolled " << (1u << round) << " times";
      for (scf::ForOp loop : innermost)
        if (failed(loopUnrollByFactor(loop, 2)))
          return loop.emitError()
                 << "kernel " << describeKernel(kernel)
                 << ": cannot unroll this loop to keep the kernel within "
                    "max-loop-iterations = "
                 << budget;
    }
  }

  /// Builds the gpu.func of `kernel` at the end of `gpuModule`; its binding
  /// element offsets are push constants of `pushCount` words.
  LogicalResult buildGpuFunc(func::FuncOp kernel, gpu::GPUModuleOp gpuModule,
                             unsigned pushCount) {
    FailureOr<gpu::GPUFuncOp> built =
        buildLinearizedGpuFunc(kernel, gpuModule, "vulkan");
    if (failed(built))
      return failure();
    gpu::GPUFuncOp fn = *built;
    MLIRContext *ctx = &getContext();
    OpBuilder b(fn);
    auto sizeAttr =
        kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroupSize);
    int32_t abiSize[3] = {static_cast<int32_t>(sizeAttr[0]), 1, 1};
    fn->setAttr(spirv::getEntryPointABIAttrName(),
                spirv::getEntryPointABIAttr(ctx, abiSize));

    // Scratch is the invocation's own: the Function storage class. After
    // alias folding only loads and stores use it, whose types do not
    // depend on the memory space.
    auto function =
        spirv::StorageClassAttr::get(ctx, spirv::StorageClass::Function);
    WalkResult walk = fn.walk([&](memref::AllocaOp alloca) {
      MemRefType type = alloca.getType();
      for (Operation *user : alloca->getUsers())
        if (!isa<memref::LoadOp, memref::StoreOp>(user)) {
          user->emitError() << "kernel " << describeKernel(kernel)
                            << ": a scratch buffer used by '" << user->getName()
                            << "' (only loads and stores have a SPIR-V form)";
          return WalkResult::interrupt();
        }
      alloca.getResult().setType(MemRefType::get(
          type.getShape(), type.getElementType(), type.getLayout(), function));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (failed(rebindArguments(fn, kernel, pushCount)))
      return failure();

    // The declaration the program's dispatches keep naming.
    kernel.eraseBody();
    kernel.setPrivate();
    kernel->setAttr(kernel_attr::kSpirvEntry,
                    b.getStringAttr(kernel.getName()));
    return success();
  }

  /// The gpu.func of a kernel of the subgroup row schedule
  /// (GpuRowKernels.h), its bindings rebound like every kernel's.
  LogicalResult buildRowGpuFunc(func::FuncOp kernel, gpu::GPUModuleOp gpuModule,
                                unsigned pushCount) {
    FailureOr<gpu::GPUFuncOp> fn = buildRowKernelFunc(kernel, gpuModule);
    if (failed(fn) || failed(rebindArguments(*fn, kernel, pushCount)))
      return failure();
    kernel.eraseBody();
    kernel.setPrivate();
    kernel->setAttr(kernel_attr::kSpirvEntry,
                    StringAttr::get(&getContext(), kernel.getName()));
    return success();
  }

  /// The gpu.func of a kernel of the shared-memory matmul schedule
  /// (GpuMatmul.h): runtime arrays from element `offset_i`, push
  /// constant `i` of `pushCount` words, the tiling's LocalSize.
  LogicalResult
  buildTiledGpuFunc(func::FuncOp kernel, gpu::GPUModuleOp gpuModule,
                    unsigned pushCount,
                    const std::optional<::fuel::plan::GpuLimits> &limits) {
    MLIRContext *ctx = &getContext();
    TiledMatmulTarget target;
    target.backend = "vulkan";
    target.defaultSharedMemoryBytes = kVulkanMinSharedMemoryBytes;
    target.defaultInvocations = kVulkanMinWorkgroupInvocations;
    auto argumentType = [](MemRefType binding) -> Type {
      return MemRefType::get({ShapedType::kDynamic}, binding.getElementType());
    };
    auto elementOffset = [&](OpBuilder &b, gpu::GPUFuncOp fn,
                             unsigned index) -> Value {
      Value word =
          spirv::getPushConstantValue(fn, pushCount, index, b.getI32Type(), b);
      return arith::IndexCastUIOp::create(b, fn.getLoc(), b.getIndexType(),
                                          word);
    };
    target.argumentType = argumentType;
    target.elementOffset = elementOffset;
    FailureOr<gpu::GPUFuncOp> fn =
        buildTiledMatmulFunc(kernel, gpuModule, target, limits);
    if (failed(fn))
      return failure();
    auto size =
        kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroupSize);
    int32_t abiSize[3] = {static_cast<int32_t>(size[0]),
                          static_cast<int32_t>(size[1]), 1};
    (*fn)->setAttr(spirv::getEntryPointABIAttrName(),
                   spirv::getEntryPointABIAttr(ctx, abiSize));
    // The declaration the program's dispatches keep naming.
    kernel.eraseBody();
    kernel.setPrivate();
    kernel->setAttr(kernel_attr::kSpirvEntry,
                    StringAttr::get(ctx, kernel.getName()));
    return success();
  }

  /// kTargetEnv, with the subgroup capabilities and the subgroup size
  /// where a kernel of the row schedule uses subgroup operations.
  static std::string targetEnvFor(ArrayRef<func::FuncOp> funcs) {
    uint32_t subgroupSize = rowKernelSubgroupSize(funcs);
    if (!subgroupSize)
      return kTargetEnv.str();
    return "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, "
           "GroupNonUniformArithmetic], "
           "[SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, "
           "#spirv.resource_limits<subgroup_size = " +
           std::to_string(subgroupSize) + ">>";
  }

  LogicalResult convert(ExecutableOp exe, ModuleOp kernels) {
    SmallVector<func::FuncOp> funcs = getKernelFuncs(kernels);
    if (funcs.empty())
      return success();
    MLIRContext *ctx = &getContext();
    if (failed(lowerGpuKernelsToLoops(kernels, "vulkan", exe.getSymName(),
                                      [&](OpPassManager &pm, Operation *op) {
                                        return runPipeline(pm, op);
                                      })))
      return failure();

    Attribute targetEnv = parseAttribute(targetEnvFor(funcs), ctx);
    kernels->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                     UnitAttr::get(ctx));
    OpBuilder b = OpBuilder::atBlockEnd(kernels.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(
        b, kernels.getLoc(), (exe.getSymName() + "_spirv").str());
    gpuModule->setAttr(spirv::getTargetEnvAttrName(), targetEnv);
    // One push-constant block for every entry point: a word per binding of
    // the kernel with the most, within the device's push-constant bytes.
    unsigned pushCount = 1;
    for (func::FuncOp kernel : funcs)
      pushCount = std::max(pushCount, kernel.getNumArguments());
    // The device's push-constant bytes where the topology states them,
    // else the option.
    unsigned pushBytes = maxPushConstantsBytes;
    if (std::optional<::fuel::plan::GpuLimits> limits =
            getGpuLimits(getOperation(), toPlan(exe.getDevice())))
      if (limits->maxPushConstantsBytes)
        pushBytes = limits->maxPushConstantsBytes;
    if (pushCount * 4 > pushBytes)
      return kernels.emitError()
             << "a vulkan kernel of @" << exe.getSymName() << " has "
             << pushCount << " bindings: their element offsets need "
             << pushCount * 4 << " bytes of push constants, more than the "
             << pushBytes << " allowed";
    for (func::FuncOp kernel : funcs) {
      // The shared-memory matmul and conv2d schedules (GpuMatmul.cpp).
      if (kernel->hasAttr(kernel_attr::kGpuMatmul) ||
          kernel->hasAttr(kernel_attr::kGpuConv2d)) {
        if (failed(buildTiledGpuFunc(
                kernel, gpuModule, pushCount,
                getGpuLimits(getOperation(), toPlan(exe.getDevice())))))
          return failure();
        continue;
      }
      if (failed(isGpuRowKernel(kernel)
                     ? buildRowGpuFunc(kernel, gpuModule, pushCount)
                 : fitLoopBudget(kernel).succeeded()
                     ? buildGpuFunc(kernel, gpuModule, pushCount)
                     : failure()))
        return failure();
    }

    OpPassManager pm(ModuleOp::getOperationName());
    pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToSPIRVPass());
    pm.addPass(createConvertGPUToSPIRVPass(/*mapMemorySpace=*/true));
    OpPassManager &spv = pm.nest<spirv::ModuleOp>();
    spv.addPass(spirv::createSPIRVLowerABIAttributesPass());
    spv.addPass(spirv::createSPIRVUpdateVCEPass());
    if (failed(runPipeline(pm, kernels)))
      return kernels.emitError()
             << "the SPIR-V conversion of the vulkan kernels of @"
             << exe.getSymName() << " failed";
    gpuModule.erase();
    kernels->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());

    // Floating-point arithmetic exactly as written: NoContraction, which
    // drivers also honour against algebraic rewrites (Mesa's NIR treats
    // undecorated float ops as inexact and folds (x + c) - c to x, which
    // breaks the round-to-integer step of the exp polynomial).
    UnitAttr exact = UnitAttr::get(ctx);
    kernels.walk([&](Operation *op) {
      if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp, spirv::FDivOp,
              spirv::FRemOp, spirv::FModOp, spirv::FNegateOp>(op))
        op->setAttr(kNoContraction, exact);
    });
    return success();
  }

  void runOnOperation() override {
    for (auto exe : getOperation().getOps<ExecutableOp>()) {
      if (exe.getDevice().getKind() != DeviceKind::vulkan)
        continue;
      ModuleOp kernels = exe.getKernelModule();
      if (!kernels)
        continue;
      if (failed(convert(exe, kernels)))
        return signalPassFailure();
    }
  }
};
} // namespace
