//===- GpuKernels.cpp - Kernel modules to gpu.func for GPUs ---------------===//
//
// The steps convert-fuel-to-spirv and convert-fuel-to-nvvm share: kernels
// lowered to loops, and one gpu.func per kernel whose invocations run the
// iterations of its workgroup scf.forall (GpuKernels.h).
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/GpuKernels.h"

#include "fuel/Codegen/CPU/CpuKernels.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <algorithm>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::fuel;

bool mlir::fuel::runsPerInvocation(Operation *op) {
  if (isa<memref::AllocaOp>(op))
    return true;
  if (isPure(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  return !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Free>() &&
         !effects.hasEffect<MemoryEffects::Allocate>();
}

LogicalResult mlir::fuel::lowerGpuKernelsToLoops(ModuleOp kernels,
                                                 StringRef backend,
                                                 StringRef exeName,
                                                 RunPipelineFn runPipeline) {
  // memref.copy as linalg.copy, so that it becomes loops like every other
  // linalg op.
  SmallVector<memref::CopyOp> copies;
  kernels.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
  for (memref::CopyOp copy : copies) {
    OpBuilder b(copy);
    linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                           copy.getTarget());
    copy.erase();
  }
  OpPassManager pm(ModuleOp::getOperationName());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (failed(runPipeline(pm, kernels)))
    return kernels.emitError() << "lowering the " << backend << " kernels of @"
                               << exeName << " to loops failed";
  for (func::FuncOp kernel : getKernelFuncs(kernels)) {
    WalkResult left = kernel.walk([&](linalg::LinalgOp op) {
      op->emitError() << "kernel " << describeKernel(kernel)
                      << ": a linalg op is left after the lowering to loops";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      return failure();
  }
  return success();
}

FailureOr<gpu::GPUFuncOp> mlir::fuel::buildLinearizedGpuFunc(
    func::FuncOp kernel, gpu::GPUModuleOp gpuModule, StringRef backend) {
  auto sizeAttr =
      kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroupSize);
  if (!sizeAttr || sizeAttr.size() != 3 || sizeAttr[0] < 1 ||
      sizeAttr[1] != 1 || sizeAttr[2] != 1)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel)
           << " has no 'fuel.workgroup_size' = [x, 1, 1]: run "
              "fuel-apply-schedules first";
  int64_t size = sizeAttr[0];
  auto gridAttr =
      kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroups);
  if (!gridAttr || gridAttr.size() != 3 || gridAttr[0] < 1)
    return kernel.emitError() << "kernel " << describeKernel(kernel)
                              << " has no 'fuel.workgroups' grid: run "
                                 "fuel-apply-schedules first";
  int64_t gridX = gridAttr[0];

  scf::ForallOp forall;
  for (Operation &op : kernel.getBody().getOps()) {
    auto loop = dyn_cast<scf::ForallOp>(op);
    if (!loop)
      continue;
    if (forall)
      return kernel.emitError() << "kernel " << describeKernel(kernel)
                                << " has more than one outermost scf.forall; a "
                                << backend << " kernel runs one";
    forall = loop;
  }
  // With a forall, every invocation runs the ops around it: they must not
  // write memory.
  if (forall)
    for (Operation &op : kernel.getBody().getOps())
      if (&op != forall.getOperation() && !isa<func::ReturnOp>(op) &&
          !runsPerInvocation(&op)) {
        InFlightDiagnostic diag =
            kernel.emitError()
            << "kernel " << describeKernel(kernel)
            << " writes memory outside its workgroup scf.forall, which "
               "every invocation runs";
        diag.attachNote(op.getLoc()) << "written here";
        return diag;
      }

  SmallVector<int64_t> lbs, counts, steps;
  int64_t iterations = 1;
  if (forall) {
    FailureOr<GpuForallSpace> space = getGpuForallSpace(kernel, forall);
    if (failed(space))
      return failure();
    lbs = space->lowerBounds;
    steps = space->steps;
    counts = space->counts;
    iterations = space->iterations;
    if (iterations > std::numeric_limits<int32_t>::max())
      return kernel.emitError()
             << "kernel " << describeKernel(kernel) << " runs " << iterations
             << " invocations, more than 32-bit indices address";
  }

  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(gpuModule.getBody());
  auto fn = gpu::GPUFuncOp::create(b, loc, kernel.getName(),
                                   kernel.getFunctionType());
  fn->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());

  Block &entry = fn.getBody().front();
  b.setInsertionPointToStart(&entry);
  IRMapping map;
  for (auto [from, to] : llvm::zip(kernel.getArguments(), entry.getArguments()))
    map.map(from, to);
  // The workgroup's linear id: y * gridX + x (the grid wraps in x).
  Value groupX = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value groupY = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value group = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, groupY,
                            arith::ConstantIndexOp::create(b, loc, gridX)),
      groupX);
  Value local = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value sizeValue = arith::ConstantIndexOp::create(b, loc, size);
  Value linear = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, group, sizeValue), local);

  // Ops before the forall run in every invocation (views, constants,
  // scratch); the forall's body runs for the invocation's iteration.
  Block &body = kernel.getBody().front();
  auto cloneRange = [&](Block::iterator begin, Block::iterator end) {
    for (Operation &op : llvm::make_range(begin, end))
      if (!isa<func::ReturnOp>(op))
        b.clone(op, map);
  };
  if (!forall) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, linear, zero);
    auto guard = scf::IfOp::create(b, loc, first, /*withElse=*/false);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    cloneRange(body.begin(), body.end());
  } else {
    cloneRange(body.begin(), forall->getIterator());
    Value total = arith::ConstantIndexOp::create(b, loc, iterations);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, linear, total);
    auto guard = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    Value rest = linear;
    SmallVector<Value> ivs(counts.size());
    for (int64_t d = static_cast<int64_t>(counts.size()) - 1; d >= 0; --d) {
      Value count = arith::ConstantIndexOp::create(b, loc, counts[d]);
      Value index = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, count);
      if (d > 0)
        rest = arith::DivUIOp::create(b, loc, rest, count);
      Value iv = index;
      if (steps[d] != 1)
        iv = arith::MulIOp::create(
            b, loc, iv, arith::ConstantIndexOp::create(b, loc, steps[d]));
      if (lbs[d] != 0)
        iv = arith::AddIOp::create(
            b, loc, iv, arith::ConstantIndexOp::create(b, loc, lbs[d]));
      ivs[d] = iv;
    }
    for (auto [from, to] : llvm::zip(forall.getInductionVars(), ivs))
      map.map(from, to);
    for (Operation &op : forall.getBody()->without_terminator())
      b.clone(op, map);
    b.setInsertionPointAfter(guard);
    cloneRange(std::next(forall->getIterator()), body.end());
  }
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
  return fn;
}

void mlir::fuel::promoteWorkgroupAllocations(gpu::GPUFuncOp fn) {
  SmallVector<memref::AllocOp> allocs;
  fn.walk([&](memref::AllocOp alloc) {
    auto space =
        dyn_cast_or_null<IntegerAttr>(alloc.getType().getMemorySpace());
    if (space && space.getInt() == kGpuWorkgroupMemorySpace)
      allocs.push_back(alloc);
  });
  auto workgroup =
      gpu::AddressSpaceAttr::get(fn.getContext(), gpu::AddressSpace::Workgroup);
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    BlockArgument buffer = fn.addWorkgroupAttribution(
        MemRefType::get(type.getShape(), type.getElementType(),
                        type.getLayout(), workgroup),
        alloc.getLoc());
    // Only loads and stores use the buffers, whose types do not depend on
    // the memory space.
    alloc.getResult().replaceAllUsesWith(buffer);
    alloc.erase();
  }
}

FailureOr<mlir::fuel::GpuForallSpace>
mlir::fuel::getGpuForallSpace(Operation *kernel, scf::ForallOp forall) {
  GpuForallSpace space;
  for (auto [lb, ub, step] :
       llvm::zip(forall.getMixedLowerBound(), forall.getMixedUpperBound(),
                 forall.getMixedStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return kernel->emitError()
             << "kernel " << describeKernel(kernel)
             << ": the scf.forall of a GPU kernel needs static bounds "
                "and positive steps";
    space.lowerBounds.push_back(*l);
    space.steps.push_back(*s);
    space.counts.push_back(std::max<int64_t>(0, (*u - *l + *s - 1) / *s));
    space.iterations *= space.counts.back();
  }
  return space;
}

void mlir::fuel::noteGpuSchedule(func::FuncOp kernel, StringRef target,
                                 const Twine &reason) {
  Builder b(kernel.getContext());
  kernel->setAttr(
      kernel_attr::kGpuScheduleNote,
      b.getDictionaryAttr(
          {b.getNamedAttr("reason", b.getStringAttr("per-element: " + reason)),
           b.getNamedAttr("target", b.getStringAttr(target))}));
}

LogicalResult mlir::fuel::checkGpuRecordTarget(func::FuncOp kernel,
                                               StringRef attr,
                                               StringRef expected) {
  auto record = kernel->getAttrOfType<DictionaryAttr>(attr);
  auto target = record ? record.getAs<StringAttr>("target") : StringAttr();
  if (!target)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": '" << attr
           << "' needs 'target', the GPU target it was scheduled for";
  if (target.getValue() != expected)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": '" << attr
           << "' was scheduled for target '" << target.getValue() << "', not '"
           << expected << "'";
  return success();
}
