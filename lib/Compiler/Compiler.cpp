//===- Compiler.cpp - fuel as a stage of a caller's compiler --------------===//
//
// The C++ compile API (fuel/Compiler/Compiler.h): the registries a frontend
// needs, the planning and lowering pipelines for its own pass manager, and
// `lower`/`compile`, which plan (unless the module is planned), lower and
// serialize in one pass manager and return the executable's bytes. Nothing
// here reads or writes command-line options or prints: errors are
// diagnostics in the module's context.
//
//===----------------------------------------------------------------------===//

#include "fuel/Compiler/Compiler.h"

#include "fuel/Codegen/Passes.h"
#include "fuel/Conversion/Passes.h"
#include "fuel/Dialect/Fuel/IR/FuelDialect.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Lowering/Passes.h"
#include "fuel/Lowering/SerializeExecutable.h"
#include "fuel/Planning/NodeAnalysis.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Target/TopologyFile.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/InlinerInterfaceImpl.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/AllInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/MemRefMemorySlot.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorInferTypeOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include <mutex>

using namespace mlir;
using namespace mlir::fuel;

void mlir::fuel::registerCompilerDialects(DialectRegistry &registry) {
  // The input (func, arith, math, linalg, tensor on tensors), what the
  // lowering creates (affine, bufferization, memref, scf, vector, x86vector,
  // cf, index, ub, llvm) and the schedules' transform dialect.
  registry.insert<FuelDialect, affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, linalg::LinalgDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, tensor::TensorDialect,
                  transform::TransformDialect, ub::UBDialect,
                  vector::VectorDialect, x86vector::X86VectorDialect>();

  // The interface models of those dialects that bufferization, tiling and
  // the schedules use (registerAllDialects' for these dialects).
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferViewFlowOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  builtin::registerCastOpInterfaceExternalModels(registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  LLVM::registerInlinerInterface(registry);
  linalg::registerAllDialectInterfaceImplementations(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  memref::registerBufferViewFlowOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerMemorySlotExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerFindPayloadReplacementOpInterfaceExternalModels(registry);
  tensor::registerInferTypeOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerSubsetOpInterfaceExternalModels(registry);
  vector::registerValueBoundsOpInterfaceExternalModels(registry);

  // The dialect extensions (transform ops of linalg, scf, tensor, vector,
  // ...; the to-LLVM interfaces), which the lowering passes also declare as
  // dependencies; they load only with their dialects.
  registerAllExtensions(registry);

  // The kernel modules' translation to LLVM IR.
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void mlir::fuel::registerCompilerPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerFuelPlanningPasses();
    registerFuelCodegenPasses();
    registerFuelLoweringPasses();
    registerFuelPlanPipeline();
    registerFuelConversionPasses();
    registerFuelLowerPipeline();
  });
}

namespace {
struct StageName {
  CompileStage stage;
  const char *name;
};
constexpr StageName kStageNames[] = {
    {CompileStage::Planned, "planned"},
    {CompileStage::Outlined, "outlined"},
    {CompileStage::Kernels, "kernels"},
    {CompileStage::Bufferized, "bufferized"},
    {CompileStage::Host, "host"},
    {CompileStage::Llvm, "llvm"},
    {CompileStage::Spirv, "spirv"},
    {CompileStage::Ptx, "ptx"},
};
// The stages after Planned are fuel-lower's passes, one each, in order.
static_assert(static_cast<unsigned>(CompileStage::Ptx) == kNumLowerSteps);
} // namespace

StringRef mlir::fuel::stringifyCompileStage(CompileStage stage) {
  return kStageNames[static_cast<unsigned>(stage)].name;
}

std::optional<CompileStage> mlir::fuel::symbolizeCompileStage(StringRef name) {
  for (const StageName &entry : kStageNames)
    if (name == entry.name)
      return entry.stage;
  return std::nullopt;
}

bool mlir::fuel::isPlanned(ModuleOp module) {
  if (!module->hasAttr(FuelDialect::kTopologyAttrName))
    return false;
  WalkResult walk = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (auto node = dyn_cast<NodeOp>(op))
      return node.getPlacementAttr() ? WalkResult::skip()
                                     : WalkResult::interrupt();
    return isKernelBearing(op) ? WalkResult::interrupt()
                               : WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

void mlir::fuel::addPlanningPipeline(OpPassManager &pm,
                                     const PlanningOptions &options) {
  buildPlanPipeline(pm, options);
}

void mlir::fuel::addLoweringPipeline(OpPassManager &pm, CompileStage last,
                                     std::optional<std::string> cudaToolkit) {
  buildLowerPipeline(pm, static_cast<unsigned>(last),
                     cudaToolkit ? *cudaToolkit : defaultCudaToolkit().str());
}

// Set by CMake for this file (cmake/FuelCudaToolkit.cmake).
#ifndef FUEL_CUDA_TOOLKIT_DIR
#define FUEL_CUDA_TOOLKIT_DIR ""
#endif
StringRef mlir::fuel::defaultCudaToolkit() { return FUEL_CUDA_TOOLKIT_DIR; }

/// The first planning option of `options` that differs from its default,
/// by its fuel-plan name, other than the topology; empty when none does.
static StringRef changedPlanningOption(const PlanningOptions &options) {
  PlanningOptions defaults;
  defaults.topology = options.topology;
  return PlanningOptions::firstDifference(options, defaults);
}

/// Checks that a module that is already planned is compiled with planning
/// options that agree with it: a topology, when given, with the stamped
/// one's hash, and every other option at its default.
static LogicalResult checkPlannedModule(ModuleOp module,
                                        const PlanningOptions &options) {
  if (StringRef changed = changedPlanningOption(options); !changed.empty())
    return module.emitError()
           << "the module is already planned; the planning option '" << changed
           << "' applies only to a module fuel plans";
  if (options.topology.empty())
    return success();
  auto stamped =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  llvm::Expected<::fuel::plan::Topology> resolved =
      ::fuel::target::resolveTopology(options.topology);
  if (!resolved)
    return module.emitError() << "cannot use topology '" << options.topology
                              << "': " << llvm::toString(resolved.takeError());
  TopologyAttr given = TopologyAttr::fromPlan(module.getContext(), *resolved);
  if (given.getHash() != stamped.getHash())
    return module.emitError()
           << "the module is already planned for topology "
           << ::fuel::plan::formatHash(stamped.getHash()) << " but topology '"
           << options.topology << "' has hash "
           << ::fuel::plan::formatHash(given.getHash())
           << "; remove 'fuel.topology' and the placements to plan again";
  return success();
}

namespace {
/// Sets the context's kernel registry for the duration of a call, when the
/// options name one, and restores the previous one.
class ScopedKernelRegistry {
public:
  ScopedKernelRegistry(MLIRContext *ctx,
                       const ::fuel::target::KernelRegistry *registry) {
    if (!registry)
      return;
    dialect = ctx->getOrLoadDialect<FuelDialect>();
    previous = dialect->getKernelRegistry();
    dialect->setKernelRegistry(registry);
  }
  ~ScopedKernelRegistry() {
    if (dialect)
      dialect->setKernelRegistry(previous);
  }
  ScopedKernelRegistry(const ScopedKernelRegistry &) = delete;
  ScopedKernelRegistry &operator=(const ScopedKernelRegistry &) = delete;

private:
  FuelDialect *dialect = nullptr;
  const ::fuel::target::KernelRegistry *previous = nullptr;
};
} // namespace

/// Plans (unless planned), lowers through `stage` and, when `bytes` is set,
/// serializes into it, in one pass manager.
static LogicalResult run(ModuleOp module, const CompileOptions &options,
                         CompileStage stage, std::vector<uint8_t> *bytes) {
  MLIRContext *ctx = module.getContext();
  ScopedKernelRegistry registry(ctx, options.kernelRegistry);

  PassManager pm(ctx, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  if (isPlanned(module)) {
    if (failed(checkPlannedModule(module, options.planning)))
      return failure();
  } else {
    addPlanningPipeline(pm, options.planning);
  }
  addLoweringPipeline(pm, stage, options.cudaToolkit);

  // The compile's timer, hidden: the passes show at the caller's level.
  Timer timer = Timer(options.timing).nest("fuel compile");
  timer.hide();
  if (bytes)
    pm.addPass(createFuelSerializeExecutablePass(bytes, timer, options.stats));

  if (options.configurePassManager && failed(options.configurePassManager(pm)))
    return failure();
  // Timing last, so it times no other instrumentation.
  TimingScope timing(timer);
  pm.enableTiming(timing);
  return pm.run(module);
}

LogicalResult mlir::fuel::lower(ModuleOp module, const CompileOptions &options,
                                CompileStage stage) {
  return run(module, options, stage, nullptr);
}

FailureOr<std::vector<uint8_t>> mlir::fuel::serialize(ModuleOp module,
                                                      SerializeStats *stats) {
  return serializeExecutable(module, Timer(), stats);
}

FailureOr<std::vector<uint8_t>>
mlir::fuel::compile(ModuleOp module, const CompileOptions &options) {
  std::vector<uint8_t> bytes;
  if (failed(run(module, options, CompileStage::Ptx, &bytes)))
    return failure();
  return bytes;
}
