//===- RowKernels.cpp - Subgroup kernels of row reductions ----------------===//
//
// See GpuSchedules.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/GpuSchedules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <limits>

using namespace mlir;
using fuel::gpu::RowKernelKind;

namespace {

/// The workgroup memory space of the Vulkan storage-class mapping.
constexpr unsigned kWorkgroupMemorySpace = 3;

struct Folder {
  gpu::AllReduceOperation op;
  /// The identity as a double (exactly representable in f16 and f32).
  double identity;
};

Folder folderFor(RowKernelKind kind, bool max) {
  if (kind == RowKernelKind::Max || (kind == RowKernelKind::Softmax && max))
    return {gpu::AllReduceOperation::MAXIMUMF,
            -std::numeric_limits<double>::infinity()};
  if (kind == RowKernelKind::Min)
    return {gpu::AllReduceOperation::MINIMUMF,
            std::numeric_limits<double>::infinity()};
  return {gpu::AllReduceOperation::ADD, 0.0};
}

Value combine(OpBuilder &b, Location loc, gpu::AllReduceOperation op, Value x,
              Value y) {
  switch (op) {
  case gpu::AllReduceOperation::MAXIMUMF:
    return arith::MaximumFOp::create(b, loc, x, y);
  case gpu::AllReduceOperation::MINIMUMF:
    return arith::MinimumFOp::create(b, loc, x, y);
  default:
    return arith::AddFOp::create(b, loc, x, y);
  }
}

/// Folds `v` over the subgroup: GroupNonUniformFAdd / FMax / FMin Reduce.
Value subgroupFold(OpBuilder &b, Location loc, gpu::AllReduceOperation op,
                   Value v) {
  return gpu::SubgroupReduceOp::create(b, loc, v, op, /*uniform=*/false);
}

class RowKernelBuilder {
public:
  RowKernelBuilder(OpBuilder &b, Location loc, RowKernelKind kind, int64_t cols,
                   Type elementType,
                   const fuel::target::ReductionTiling &tiling)
      : b(b), loc(loc), kind(kind), cols(cols), elementType(elementType),
        tiling(tiling) {}

  void build(Value in, Value out) {
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    row = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    if (tiling.subgroups > 1) {
      lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
      subgroup = gpu::SubgroupIdOp::create(b, loc, /*upper_bound=*/nullptr);
    }
    step = arith::ConstantIndexOp::create(b, loc, tiling.workgroupSize);
    end = arith::ConstantIndexOp::create(b, loc, cols);

    if (kind != RowKernelKind::Softmax) {
      Folder f = folderFor(kind, /*max=*/false);
      Value r = reduceRow(in, f, /*shift=*/nullptr);
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, c0);
      auto ifOp = scf::IfOp::create(b, loc, first, /*withElse=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(b, loc, r, out, ValueRange{row});
      return;
    }
    // The sum's pass writes each exp(x - max) to the output, which the last
    // pass scales: one exp per element, not two. Each element is read and
    // then written by the invocation that owns its column, after the max is
    // complete, so the kernel is also correct with `out` aliasing `in`.
    Value max = reduceRow(in, folderFor(kind, /*max=*/true), nullptr);
    Value sum = reduceRow(in, folderFor(kind, /*max=*/false), max, out);
    Value one = constant(1.0);
    Value inv = arith::DivFOp::create(b, loc, one, sum);
    auto loop = scf::ForOp::create(b, loc, tid, end, step);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value c = loop.getInductionVar();
    Value e = memref::LoadOp::create(b, loc, out, ValueRange{row, c});
    memref::StoreOp::create(b, loc, arith::MulFOp::create(b, loc, e, inv), out,
                            ValueRange{row, c});
  }

private:
  Value constant(double v) {
    return arith::ConstantOp::create(b, loc, elementType,
                                     b.getFloatAttr(elementType, v));
  }

  /// Folds the row (exp(x - shift) when `shift` is given) into a value every
  /// invocation of the workgroup holds; with `store`, each folded value of a
  /// column of the row is also written to `store` at that column.
  Value reduceRow(Value in, Folder f, Value shift, Value store = nullptr) {
    // Every invocation runs the same ceil(cols / W) >= 1 steps, reading
    // column tid + i * W clamped to the row (a column past the end is
    // dropped by a select for a sum; max and min are idempotent, so the
    // clamped repeat is harmless). No invocation runs a loop of zero trips:
    // the SPIR-V lowering of scf.for carries its results in variables the
    // body stores, so a loop that never runs yields 0, not its init (which
    // the runs on lavapipe against numpy showed for max over rows shorter
    // than the workgroup).
    const bool idempotent = f.op != gpu::AllReduceOperation::ADD;
    Value identity = constant(f.identity);
    int64_t width = tiling.workgroupSize;
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    Value trips =
        arith::ConstantIndexOp::create(b, loc, (cols + width - 1) / width);
    Value last = arith::ConstantIndexOp::create(b, loc, cols - 1);
    auto loop = scf::ForOp::create(b, loc, c0, trips, c1, ValueRange{identity});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value c = arith::AddIOp::create(
          b, loc, tid,
          arith::MulIOp::create(b, loc, loop.getInductionVar(), step));
      Value col = arith::MinUIOp::create(b, loc, c, last);
      Value x = memref::LoadOp::create(b, loc, in, ValueRange{row, col});
      if (shift)
        x = math::ExpOp::create(b, loc,
                                arith::SubFOp::create(b, loc, x, shift));
      Value acc = loop.getRegionIterArgs()[0];
      Value next = combine(b, loc, f.op, acc, x);
      if (!idempotent || store) {
        Value inRow =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c, end);
        if (!idempotent)
          next = arith::SelectOp::create(b, loc, inRow, next, acc);
        if (store) {
          auto ifOp = scf::IfOp::create(b, loc, inRow, /*withElse=*/false);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(ifOp.thenBlock());
          memref::StoreOp::create(b, loc, x, store, ValueRange{row, col});
        }
      }
      scf::YieldOp::create(b, loc, next);
    }
    Value partial = subgroupFold(b, loc, f.op, loop.getResult(0));
    if (tiling.subgroups == 1)
      return partial;
    // The subgroups' results through workgroup memory; a fresh buffer per
    // reduction, so that no barrier is needed before it is written.
    auto sharedType =
        MemRefType::get({static_cast<int64_t>(tiling.subgroups)}, elementType,
                        MemRefLayoutAttrInterface(),
                        b.getI64IntegerAttr(kWorkgroupMemorySpace));
    Value shared = memref::AllocOp::create(b, loc, sharedType);
    Value lane0 =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, c0);
    {
      auto ifOp = scf::IfOp::create(b, loc, lane0, /*withElse=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(b, loc, partial, shared, ValueRange{subgroup});
    }
    gpu::BarrierOp::create(b, loc);
    if (idempotent) {
      Value lastSubgroup =
          arith::ConstantIndexOp::create(b, loc, tiling.subgroups - 1);
      Value index = arith::MinUIOp::create(b, loc, lane, lastSubgroup);
      Value v = memref::LoadOp::create(b, loc, shared, ValueRange{index});
      return subgroupFold(b, loc, f.op, v);
    }
    Value n = arith::ConstantIndexOp::create(b, loc, tiling.subgroups);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, n);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{elementType}, inRange,
                                  /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value v = memref::LoadOp::create(b, loc, shared, ValueRange{lane});
      scf::YieldOp::create(b, loc, v);
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, identity);
    }
    return subgroupFold(b, loc, f.op, ifOp.getResult(0));
  }

  OpBuilder &b;
  Location loc;
  RowKernelKind kind;
  int64_t cols;
  Type elementType;
  const fuel::target::ReductionTiling &tiling;
  Value row, tid, lane, subgroup, step, end;
};

} // namespace

FailureOr<gpu::GPUFuncOp> fuel::gpu::buildRowKernel(
    OpBuilder &builder, Location loc, mlir::gpu::GPUModuleOp module,
    StringRef name, RowKernelKind kind, int64_t rows, int64_t cols,
    Type elementType, const fuel::target::ReductionTiling &tiling) {
  if (rows <= 0 || cols <= 0)
    return emitError(loc) << "row kernel '" << name << "': shape " << rows
                          << " x " << cols << " is not positive";
  if (!elementType.isF32() && !elementType.isF16())
    return emitError(loc) << "row kernel '" << name << "': element type "
                          << elementType << " is not f32 or f16";
  if (!tiling.subgroupSize || !tiling.subgroups ||
      tiling.workgroupSize != tiling.subgroupSize * tiling.subgroups ||
      tiling.subgroups > tiling.subgroupSize ||
      (tiling.subgroupSize & (tiling.subgroupSize - 1)))
    return emitError(loc) << "row kernel '" << name << "': tiling of "
                          << tiling.subgroups << " subgroups of "
                          << tiling.subgroupSize << " in a workgroup of "
                          << tiling.workgroupSize << " is inconsistent";

  MLIRContext *ctx = builder.getContext();
  auto inType = MemRefType::get({rows, cols}, elementType);
  auto outType = kind == RowKernelKind::Softmax
                     ? inType
                     : MemRefType::get({rows}, elementType);
  OpBuilder::InsertionGuard g(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto fn = mlir::gpu::GPUFuncOp::create(
      builder, loc, name, builder.getFunctionType({inType, outType}, {}));
  fn->setAttr(mlir::gpu::GPUDialect::getKernelFuncAttrName(),
              builder.getUnitAttr());
  int32_t wg = static_cast<int32_t>(tiling.workgroupSize);
  fn->setAttr(spirv::getEntryPointABIAttrName(),
              spirv::getEntryPointABIAttr(ctx, {wg, 1, 1}));
  Block &entry = fn.getBody().front();
  builder.setInsertionPointToStart(&entry);
  RowKernelBuilder(builder, loc, kind, cols, elementType, tiling)
      .build(entry.getArgument(0), entry.getArgument(1));
  mlir::gpu::ReturnOp::create(builder, loc);
  return fn;
}
