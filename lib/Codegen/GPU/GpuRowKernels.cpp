//===- GpuRowKernels.cpp - The subgroup row schedule of GPU kernels -------===//
//
// See GpuRowKernels.h: which kernels are row kernels and which take the
// subgroup schedule (fuel-apply-schedules), the kernel body over
// gpu.subgroup_reduce, and its gpu.func from the recorded choice (the
// conversions).
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/GpuRowKernels.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/CPU/FastExp.h"
#include "fuel/Codegen/GPU/GpuKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::fuel;
using ::fuel::gpu::RowKernelKind;

//===----------------------------------------------------------------------===//
// Matching, and the schedule's choice
//===----------------------------------------------------------------------===//

namespace {

/// The binding `value` reads whole: the memref argument of the
/// bufferization.to_tensor defining it.
BlockArgument boundArgument(Value value) {
  auto toTensor = value.getDefiningOp<bufferization::ToTensorOp>();
  if (!toTensor)
    return nullptr;
  return dyn_cast<BlockArgument>(toTensor.getBuffer());
}

/// A static f32 tensor type, or null.
RankedTensorType staticF32(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || !tensor.getElementType().isF32())
    return nullptr;
  return tensor;
}

int64_t product(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

/// The row kind of a reduction body `(in, acc) { r = combiner; yield r }`.
std::optional<RowKernelKind> combinerKind(Block &body) {
  if (body.getNumArguments() != 2 ||
      !llvm::hasSingleElement(body.without_terminator()))
    return std::nullopt;
  Operation &combiner = body.front();
  Operation *yield = body.getTerminator();
  if (combiner.getNumOperands() != 2 || combiner.getNumResults() != 1 ||
      yield->getNumOperands() != 1 ||
      yield->getOperand(0) != combiner.getResult(0))
    return std::nullopt;
  Value a = combiner.getOperand(0), b = combiner.getOperand(1);
  Value in = body.getArgument(0), acc = body.getArgument(1);
  if (!((a == in && b == acc) || (a == acc && b == in)))
    return std::nullopt;
  if (isa<arith::AddFOp>(combiner))
    return RowKernelKind::Sum;
  if (isa<arith::MaximumFOp>(combiner))
    return RowKernelKind::Max;
  if (isa<arith::MinimumFOp>(combiner))
    return RowKernelKind::Min;
  return std::nullopt;
}

/// Whether `init` is a linalg.fill of the identity of `kind`'s combiner.
bool filledWithIdentity(Value init, RowKernelKind kind) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  FloatAttr value;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return false;
  double v = value.getValueAsDouble();
  switch (kind) {
  case RowKernelKind::Sum:
    return v == 0.0;
  case RowKernelKind::Max:
    return std::isinf(v) && v < 0;
  case RowKernelKind::Min:
    return std::isinf(v) && v > 0;
  case RowKernelKind::Softmax:
    return false;
  }
  return false;
}

/// A reduction root over the innermost dimensions of binding `in`.
std::optional<GpuRowKernel> matchReduction(linalg::LinalgOp root,
                                           BlockArgument in) {
  if (root.getNumDpsInputs() != 1 || root.getNumDpsInits() != 1 ||
      root->getNumResults() != 1)
    return std::nullopt;
  if (boundArgument(root.getDpsInputs()[0]) != in)
    return std::nullopt;
  RankedTensorType inType = staticF32(root.getDpsInputs()[0].getType());
  if (!inType)
    return std::nullopt;
  int64_t rank = inType.getRank();
  SmallVector<utils::IteratorType> iterators = root.getIteratorTypesArray();
  if (static_cast<int64_t>(iterators.size()) != rank)
    return std::nullopt;
  // The parallel loops first, then at least one reduction loop.
  int64_t kept = 0;
  while (kept < rank && iterators[kept] == utils::IteratorType::parallel)
    ++kept;
  if (kept == rank)
    return std::nullopt;
  for (int64_t d = kept; d < rank; ++d)
    if (iterators[d] != utils::IteratorType::reduction)
      return std::nullopt;
  // The input read element by element, the output indexed by the leading
  // (parallel) loops.
  SmallVector<AffineMap> maps = root.getIndexingMapsArray();
  MLIRContext *ctx = root->getContext();
  SmallVector<AffineExpr> leading;
  for (int64_t d = 0; d < kept; ++d)
    leading.push_back(getAffineDimExpr(d, ctx));
  if (maps[0] != AffineMap::getMultiDimIdentityMap(rank, ctx) ||
      maps[1] != AffineMap::get(rank, 0, leading, ctx))
    return std::nullopt;
  std::optional<RowKernelKind> kind = combinerKind(root->getRegion(0).front());
  if (!kind || !filledWithIdentity(root.getDpsInits()[0], *kind))
    return std::nullopt;
  GpuRowKernel row;
  row.kind = *kind;
  row.rows = product(inType.getShape().take_front(kept));
  row.cols = product(inType.getShape().drop_front(kept));
  return row;
}

} // namespace

std::optional<GpuRowKernel> mlir::fuel::matchGpuRowKernel(func::FuncOp kernel) {
  if (kernel.isExternal() || kernel.getNumArguments() != 2 ||
      !kernel.getBody().hasOneBlock())
    return std::nullopt;
  BlockArgument in = kernel.getArgument(0), out = kernel.getArgument(1);
  // One write, of the root's result into binding 1; nothing else but the
  // bindings' tensors, constants, the init and the root.
  bufferization::MaterializeInDestinationOp write;
  Operation *root = nullptr;
  for (Operation &op : kernel.getBody().front()) {
    if (auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(op)) {
      if (write)
        return std::nullopt;
      write = m;
      continue;
    }
    if (isa<bufferization::ToTensorOp, arith::ConstantOp, tensor::EmptyOp,
            linalg::FillOp, func::ReturnOp>(op))
      continue;
    if (root)
      return std::nullopt;
    root = &op;
  }
  if (!write || !root || write.getDest() != out ||
      write.getSource().getDefiningOp() != root)
    return std::nullopt;

  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(root)) {
    RankedTensorType type = staticF32(softmax.getInput().getType());
    if (!type || boundArgument(softmax.getInput()) != in ||
        static_cast<int64_t>(softmax.getDimension()) != type.getRank() - 1)
      return std::nullopt;
    GpuRowKernel row;
    row.kind = RowKernelKind::Softmax;
    row.rows = product(type.getShape().drop_back());
    row.cols = type.getShape().back();
    return row;
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(root))
    return matchReduction(linalgOp, in);
  return std::nullopt;
}

FailureOr<bool> mlir::fuel::scheduleGpuRowKernel(
    func::FuncOp kernel, const ::fuel::plan::GpuLimits *limits,
    RowScheduleMode mode, int64_t maxRows, StringRef noteTarget) {
  if ((mode == RowScheduleMode::PerElement || !limits) && noteTarget.empty())
    return false;
  std::optional<GpuRowKernel> row = matchGpuRowKernel(kernel);
  if (!row)
    return false;
  auto note = [&](const Twine &why) {
    if (!noteTarget.empty())
      noteGpuSchedule(kernel, noteTarget, why);
    return false;
  };
  if (mode == RowScheduleMode::PerElement)
    return note("the row schedule option is 'per-element'");
  if (!limits)
    return note("the topology gives no gpu limits for this device");
  llvm::Expected<::fuel::target::ReductionTiling> tiling =
      ::fuel::target::chooseReductionTiling(*limits, row->cols);
  if (!tiling)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": the subgroup row "
           << "schedule of " << row->rows << " x " << row->cols << ": "
           << llvm::toString(tiling.takeError());
  uint32_t sg = tiling->subgroupSize;
  if (sg & (sg - 1))
    return kernel.emitError()
           << "kernel " << describeKernel(kernel)
           << ": the subgroup row schedule needs a power-of-two "
              "'subgroup_size' in the device's limits, got "
           << sg;
  if (mode == RowScheduleMode::Subgroup && row->rows > maxRows)
    return note("its " + Twine(row->rows) + " rows are more than the " +
                Twine(maxRows) + " workgroups of the grid");
  if (mode == RowScheduleMode::Auto &&
      ::fuel::target::chooseRowSchedule(*limits, row->rows, row->cols) !=
          ::fuel::target::RowSchedule::Subgroup)
    return note(Twine(row->rows) + " rows of " + Twine(row->cols) +
                " columns: the measured rule takes the subgroup schedule "
                "only for fewer rows than the subgroup size (" +
                Twine(sg) + ") of at least " +
                Twine(::fuel::target::kRowScheduleColumnsPerInvocation) +
                " columns per invocation of its " +
                Twine(tiling->workgroupSize) + "-wide workgroup");
  Builder b(kernel.getContext());
  kernel->setAttr(kernel_attr::kRowKernel,
                  b.getStringAttr(stringifyRowKernelKind(row->kind)));
  kernel->setAttr(
      kernel_attr::kRowTiling,
      b.getDenseI64ArrayAttr({row->rows, row->cols, sg, tiling->subgroups}));
  kernel->setAttr(kernel_attr::kWorkgroupSize,
                  b.getDenseI64ArrayAttr({tiling->workgroupSize, 1, 1}));
  kernel->setAttr(kernel_attr::kWorkgroups,
                  b.getDenseI64ArrayAttr({row->rows, 1, 1}));
  kernel->setAttr(kernel_attr::kWorkspaceBytes, b.getI64IntegerAttr(0));
  return true;
}

StringRef mlir::fuel::stringifyRowKernelKind(RowKernelKind kind) {
  switch (kind) {
  case RowKernelKind::Sum:
    return "sum";
  case RowKernelKind::Max:
    return "max";
  case RowKernelKind::Min:
    return "min";
  case RowKernelKind::Softmax:
    return "softmax";
  }
  return "";
}

std::optional<RowKernelKind>
mlir::fuel::symbolizeRowKernelKind(StringRef name) {
  return llvm::StringSwitch<std::optional<RowKernelKind>>(name)
      .Case("sum", RowKernelKind::Sum)
      .Case("max", RowKernelKind::Max)
      .Case("min", RowKernelKind::Min)
      .Case("softmax", RowKernelKind::Softmax)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// The kernel body
//===----------------------------------------------------------------------===//

namespace {

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
                   const ::fuel::target::ReductionTiling &tiling)
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
                        b.getI64IntegerAttr(kGpuWorkgroupMemorySpace));
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
  const ::fuel::target::ReductionTiling &tiling;
  Value row, tid, lane, subgroup, step, end;
};

} // namespace

// (A trailing return type: `FailureOr<...> ::fuel::...` would read as a
// member of FailureOr.)
auto ::fuel::gpu::buildRowKernel(OpBuilder &builder, Location loc,
                                 mlir::gpu::GPUModuleOp module, StringRef name,
                                 RowKernelKind kind, int64_t rows, int64_t cols,
                                 Type elementType,
                                 const ::fuel::target::ReductionTiling &tiling)
    -> FailureOr<mlir::gpu::GPUFuncOp> {
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

//===----------------------------------------------------------------------===//
// The gpu.func of a recorded row kernel
//===----------------------------------------------------------------------===//

bool mlir::fuel::isGpuRowKernel(func::FuncOp kernel) {
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
