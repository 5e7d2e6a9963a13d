//===- VulkanRowKernels.cpp - Vulkan kernels of the row schedule ----------===//
//
// See VulkanRowKernels.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/VulkanRowKernels.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/GPU/VulkanKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fuel;
using ::fuel::gpu::RowKernelKind;

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
std::optional<VulkanRowKernel> matchReduction(linalg::LinalgOp root,
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
  VulkanRowKernel row;
  row.kind = *kind;
  row.rows = product(inType.getShape().take_front(kept));
  row.cols = product(inType.getShape().drop_front(kept));
  return row;
}

} // namespace

std::optional<VulkanRowKernel>
mlir::fuel::matchVulkanRowKernel(func::FuncOp kernel) {
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
    VulkanRowKernel row;
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
    RowScheduleMode mode, int64_t maxRows, StringRef noteAttr) {
  if ((mode == RowScheduleMode::PerElement || !limits) && noteAttr.empty())
    return false;
  std::optional<VulkanRowKernel> row = matchVulkanRowKernel(kernel);
  if (!row)
    return false;
  auto note = [&](const Twine &why) {
    if (!noteAttr.empty())
      kernel->setAttr(noteAttr, StringAttr::get(kernel.getContext(),
                                                "per-element: " + why));
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
