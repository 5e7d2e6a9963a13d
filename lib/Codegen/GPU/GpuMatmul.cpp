//===- GpuMatmul.cpp - The shared-memory matmul schedule's choice ---------===//
//
// Which vulkan and cuda matmul, batch_matmul and conv2d kernels take the
// shared-memory schedule, with the tiles the device's limits give
// (GpuMatmul.h, docs/LOWERING.md "Vulkan: fast schedules", "CUDA").
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/GpuMatmul.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/GPU/CudaKernels.h"
#include "fuel/Codegen/GPU/VulkanKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <limits>
#include <string>

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// The kernel's binding `value` is read from: the argument index of the
/// memref a `bufferization.to_tensor` reads, else -1.
int64_t bindingOf(Value value) {
  auto toTensor = value.getDefiningOp<bufferization::ToTensorOp>();
  if (!toTensor)
    return -1;
  auto arg = dyn_cast<BlockArgument>(toTensor.getBuffer());
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return -1;
  return arg.getArgNumber();
}

/// A plain matmul kernel: what the shared-memory schedule computes.
struct PlainMatmul {
  int64_t a = -1, b = -1, c = -1;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  FloatAttr init;
};

/// Matches `kernel` as to_tensor(A), to_tensor(B), fill(constant,
/// to_tensor(C)), matmul or batch_matmul with default maps on f32, and its
/// result materialized into C; else the reason it is not.
FailureOr<PlainMatmul> matchPlainMatmul(func::FuncOp kernel,
                                        std::string &reason) {
  linalg::LinalgOp root;
  unsigned linalgOps = 0;
  bufferization::MaterializeInDestinationOp store;
  unsigned stores = 0;
  kernel.walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      ++linalgOps;
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
        root = linalgOp;
    }
    if (auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(op)) {
      store = m;
      ++stores;
    }
  });
  if (!root) {
    reason = "the root is not a linalg.matmul or linalg.batch_matmul";
    return failure();
  }
  if (auto mm = dyn_cast<linalg::MatmulOp>(root.getOperation())) {
    if (mm.getIndexingMapsArray() !=
        linalg::MatmulOp::getDefaultIndexingMaps(kernel.getContext())) {
      reason = "the matmul has user-defined indexing maps";
      return failure();
    }
  } else {
    auto bmm = cast<linalg::BatchMatmulOp>(root.getOperation());
    if (bmm.getIndexingMapsArray() !=
        linalg::BatchMatmulOp::getDefaultIndexingMaps(kernel.getContext())) {
      reason = "the batch_matmul has user-defined indexing maps";
      return failure();
    }
  }
  if (linalgOps != 2 || stores != 1) {
    reason = "the kernel computes more than a filled matmul (a fused "
             "producer or epilogue)";
    return failure();
  }
  auto cType = dyn_cast<RankedTensorType>(root->getResult(0).getType());
  if (!cType || !cType.hasStaticShape() || !cType.getElementType().isF32()) {
    reason = "C is not a static f32 tensor";
    return failure();
  }
  if (store.getSource() != root->getResult(0)) {
    reason = "the matmul's result is not what the kernel writes";
    return failure();
  }
  auto fill = root.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  FloatAttr init;
  if (fill)
    if (auto cst = fill.getInputs().front().getDefiningOp<arith::ConstantOp>())
      init = dyn_cast<FloatAttr>(cst.getValue());
  if (!init) {
    reason = "C is not filled with a constant";
    return failure();
  }
  PlainMatmul mm;
  mm.a = bindingOf(root.getDpsInputOperand(0)->get());
  mm.b = bindingOf(root.getDpsInputOperand(1)->get());
  mm.c = bindingOf(fill.getOutputs().front());
  auto dest = dyn_cast<BlockArgument>(store.getDest());
  if (mm.a < 0 || mm.b < 0 || mm.c < 0 || !dest ||
      dest.getArgNumber() != mm.c) {
    reason = "A, B and C are not the kernel's bindings";
    return failure();
  }
  for (Value v :
       {root.getDpsInputOperand(0)->get(), root.getDpsInputOperand(1)->get()})
    if (!cast<RankedTensorType>(v.getType()).getElementType().isF32()) {
      reason = "A or B is not f32";
      return failure();
    }
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(ranges)) {
    reason = "the shapes are not static";
    return failure();
  }
  mm.init = init;
  if (ranges.size() == 4) {
    mm.batch = ranges[0];
    ranges.erase(ranges.begin());
  }
  mm.m = ranges[0];
  mm.n = ranges[1];
  mm.k = ranges[2];
  return mm;
}

/// A plain convolution kernel: input, filter, output bindings.
struct PlainConv {
  int64_t input = -1, filter = -1, output = -1;
  ::fuel::target::Conv2dShape shape;
  FloatAttr init;
};

/// Matches `kernel` as to_tensor(input), to_tensor(filter), fill(constant,
/// to_tensor(output)), linalg.conv_2d_nchw_fchw or conv_2d_nhwc_hwcf on f32
/// with static shapes, and its result materialized into the output.
FailureOr<PlainConv> matchPlainConv(func::FuncOp kernel, std::string &reason) {
  Operation *root = nullptr;
  unsigned linalgOps = 0, stores = 0;
  bufferization::MaterializeInDestinationOp store;
  kernel.walk([&](Operation *op) {
    if (isa<linalg::LinalgOp>(op)) {
      ++linalgOps;
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>(op))
        root = op;
    }
    if (auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(op)) {
      store = m;
      ++stores;
    }
  });
  if (!root) {
    reason = "the root is not a linalg.conv_2d_nchw_fchw or "
             "linalg.conv_2d_nhwc_hwcf";
    return failure();
  }
  if (linalgOps != 2 || stores != 1 ||
      store.getSource() != root->getResult(0)) {
    reason = "the kernel computes more than a filled convolution (a fused "
             "producer or epilogue)";
    return failure();
  }
  auto linalgOp = cast<linalg::LinalgOp>(root);
  auto fill =
      linalgOp.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  FloatAttr init;
  if (fill)
    if (auto cst = fill.getInputs().front().getDefiningOp<arith::ConstantOp>())
      init = dyn_cast<FloatAttr>(cst.getValue());
  if (!init) {
    reason = "the output is not filled with a constant";
    return failure();
  }
  PlainConv conv;
  conv.init = init;
  conv.input = bindingOf(linalgOp.getDpsInputOperand(0)->get());
  conv.filter = bindingOf(linalgOp.getDpsInputOperand(1)->get());
  conv.output = bindingOf(fill.getOutputs().front());
  auto dest = dyn_cast<BlockArgument>(store.getDest());
  if (conv.input < 0 || conv.filter < 0 || conv.output < 0 || !dest ||
      dest.getArgNumber() != conv.output) {
    reason = "the input, filter and output are not the kernel's bindings";
    return failure();
  }
  auto in =
      cast<RankedTensorType>(linalgOp.getDpsInputOperand(0)->get().getType());
  auto fl =
      cast<RankedTensorType>(linalgOp.getDpsInputOperand(1)->get().getType());
  auto out = cast<RankedTensorType>(root->getResult(0).getType());
  for (RankedTensorType t : {in, fl, out})
    if (!t.hasStaticShape() || !t.getElementType().isF32()) {
      reason = "an operand is not a static f32 tensor";
      return failure();
    }
  ::fuel::target::Conv2dShape &sh = conv.shape;
  DenseIntElementsAttr strides, dilations;
  if (auto nchw = dyn_cast<linalg::Conv2DNchwFchwOp>(root)) {
    sh.nchw = true;
    sh.n = in.getDimSize(0), sh.c = in.getDimSize(1), sh.h = in.getDimSize(2),
    sh.w = in.getDimSize(3);
    sh.f = fl.getDimSize(0), sh.kh = fl.getDimSize(2), sh.kw = fl.getDimSize(3);
    strides = nchw.getStrides();
    dilations = nchw.getDilations();
  } else {
    auto nhwc = cast<linalg::Conv2DNhwcHwcfOp>(root);
    sh.nchw = false;
    sh.n = in.getDimSize(0), sh.h = in.getDimSize(1), sh.w = in.getDimSize(2),
    sh.c = in.getDimSize(3);
    sh.kh = fl.getDimSize(0), sh.kw = fl.getDimSize(1), sh.f = fl.getDimSize(3);
    strides = nhwc.getStrides();
    dilations = nhwc.getDilations();
  }
  auto values = [](DenseIntElementsAttr attr, uint64_t (&into)[2]) {
    int i = 0;
    for (const APInt &v : attr.getValues<APInt>())
      if (i < 2)
        into[i++] = v.getZExtValue();
  };
  values(strides, sh.strides);
  values(dilations, sh.dilations);
  return conv;
}

/// Records the tiling attributes on `kernel`: the spec `name`, the
/// workgroup size and the grid.
void recordTiling(func::FuncOp kernel, StringRef name,
                  ArrayRef<NamedAttribute> entries,
                  const ::fuel::target::MatmulTiling &tiling, int64_t gridX,
                  int64_t gridY, int64_t gridZ) {
  Builder b(kernel.getContext());
  kernel->setAttr(name, b.getDictionaryAttr(entries));
  kernel->setAttr(kernel_attr::kWorkgroupSize,
                  b.getDenseI64ArrayAttr(
                      {tiling.workgroupSize[0], tiling.workgroupSize[1], 1}));
  kernel->setAttr(kernel_attr::kWorkgroups,
                  b.getDenseI64ArrayAttr({gridX, gridY, gridZ}));
  kernel->setAttr(kernel_attr::kWorkspaceBytes, b.getI64IntegerAttr(0));
}

/// Why a matmul of `m` x `n` takes the per-element schedule under
/// GpuMatmulSchedule::Automatic, or empty: it does not fill one tile
/// along M or N.
std::string smallShape(GpuMatmulSchedule mode, uint64_t m, uint64_t n,
                       const ::fuel::target::MatmulTiling &t) {
  if (mode != GpuMatmulSchedule::Automatic || (m >= t.tileM && n >= t.tileN))
    return "";
  return ("the matmul's " + Twine(m) + " x " + Twine(n) +
          " is smaller than one " + Twine(t.tileM) + " x " + Twine(t.tileN) +
          " tile, which the per-element schedule runs faster")
      .str();
}

/// Why a grid of `gridX` x `gridY` x `gridZ` workgroups over operands of
/// `elements` elements cannot run on `target`, or empty.
std::string gridProblem(const GpuMatmulTarget &target, int64_t gridX,
                        int64_t gridY, int64_t gridZ,
                        ArrayRef<int64_t> elements) {
  const char *axes[3] = {"x", "y", "z"};
  int64_t grid[3] = {gridX, gridY, gridZ};
  for (int d = 0; d < 3; ++d)
    if (grid[d] > target.maxGrid[d])
      return ("more than " + Twine(target.maxGrid[d]) + " workgroups along " +
              axes[d])
          .str();
  for (int64_t e : elements)
    if (e > std::numeric_limits<int32_t>::max())
      return "an operand has more elements than 32-bit indices address";
  return "";
}

/// The grid [gridX, gridY, batch] of a tiled M x N matmul, or why it takes
/// the per-element schedule (a shape smaller than a tile under `mode`, or a
/// grid or operands the target cannot address); empty when it can run tiled.
std::string tiledGrid(const GpuMatmulTarget &target, GpuMatmulSchedule mode,
                      uint64_t m, uint64_t n, int64_t batch,
                      const ::fuel::target::MatmulTiling &t,
                      ArrayRef<int64_t> elements, int64_t &gridX,
                      int64_t &gridY) {
  gridX = (n + t.tileN - 1) / t.tileN;
  gridY = (m + t.tileM - 1) / t.tileM;
  std::string small = smallShape(mode, m, n, t);
  if (!small.empty())
    return small;
  return gridProblem(target, gridX, gridY, batch, elements);
}

/// Records why `kernel` keeps the per-element schedule; false.
bool notePerElement(func::FuncOp kernel, StringRef noteAttr,
                    const Twine &reason) {
  kernel->setAttr(
      noteAttr, StringAttr::get(kernel.getContext(), "per-element: " + reason));
  return false;
}

constexpr llvm::StringLiteral kNoLimits =
    "the topology gives no gpu limits for this device";

/// A tiled schedule's GEMM: its tiles, M and N, the batch (the grid's z)
/// and the elements of its operands (each must be 32-bit addressable).
struct TiledProblem {
  const ::fuel::target::MatmulTiling *tiling;
  uint64_t m, n;
  int64_t batch;
  SmallVector<int64_t, 3> elements;
};

/// What scheduleGpuMatmul and scheduleGpuConv2d share: `match` the kernel,
/// `choose` its tiles under `limits`, size its grid (`problemOf`, tiledGrid)
/// and record `entries` as `attr` with the workgroup size and grid. False,
/// the first reason recorded as `target.noteAttr`, where a step fails.
template <typename Plain, typename Tiling>
bool scheduleTiled(
    func::FuncOp kernel, const ::fuel::plan::GpuLimits *limits,
    GpuMatmulSchedule mode, const GpuMatmulTarget &target, StringRef attr,
    FailureOr<Plain> (*match)(func::FuncOp, std::string &),
    llvm::function_ref<llvm::Expected<Tiling>(const Plain &)> choose,
    llvm::function_ref<TiledProblem(const Plain &, const Tiling &)> problemOf,
    llvm::function_ref<SmallVector<NamedAttribute>(Builder &, const Plain &,
                                                   const Tiling &)>
        entries) {
  auto note = [&](const Twine &reason) {
    return notePerElement(kernel, target.noteAttr, reason);
  };
  std::string reason;
  FailureOr<Plain> plain = match(kernel, reason);
  if (failed(plain) || !limits)
    return note(failed(plain) ? StringRef(reason) : StringRef(kNoLimits));
  llvm::Expected<Tiling> tiling = choose(*plain);
  if (!tiling)
    return note(llvm::toString(tiling.takeError()));
  TiledProblem p = problemOf(*plain, *tiling);
  int64_t gridX, gridY;
  std::string problem = tiledGrid(target, mode, p.m, p.n, p.batch, *p.tiling,
                                  p.elements, gridX, gridY);
  if (!problem.empty())
    return note(problem);
  Builder b(kernel.getContext());
  recordTiling(kernel, attr, entries(b, *plain, *tiling), *p.tiling, gridX,
               gridY, p.batch);
  return true;
}

} // namespace

const GpuMatmulTarget &mlir::fuel::vulkanMatmulTarget() {
  static const GpuMatmulTarget target = {kernel_attr::kVulkanMatmul,
                                         kernel_attr::kVulkanConv2d,
                                         kernel_attr::kVulkanScheduleNote,
                                         {kVulkanMaxWorkgroupCount,
                                          kVulkanMaxWorkgroupCount,
                                          kVulkanMaxWorkgroupCount}};
  return target;
}

const GpuMatmulTarget &mlir::fuel::cudaMatmulTarget() {
  static const GpuMatmulTarget target = {
      kernel_attr::kCudaMatmul,
      kernel_attr::kCudaConv2d,
      kernel_attr::kCudaScheduleNote,
      {kCudaMaxGridX, kCudaMaxGridY, kCudaMaxGridZ}};
  return target;
}

bool mlir::fuel::scheduleGpuConv2d(func::FuncOp kernel,
                                   const ::fuel::plan::GpuLimits *limits,
                                   unsigned block, GpuMatmulSchedule mode,
                                   const GpuMatmulTarget &target) {
  using ::fuel::target::Conv2dTiling;
  auto choose = [&](const PlainConv &conv) {
    return ::fuel::target::chooseConv2dTiling(*limits, conv.shape,
                                              /*elementBytes=*/4, block);
  };
  auto problemOf = [](const PlainConv &conv, const Conv2dTiling &tiling) {
    const ::fuel::target::Conv2dShape &sh = conv.shape;
    return TiledProblem{&tiling.matmul,
                        tiling.gemmM,
                        tiling.gemmN,
                        int64_t(sh.n),
                        {int64_t(sh.n * sh.c * sh.h * sh.w),
                         int64_t(sh.f * sh.c * sh.kh * sh.kw),
                         int64_t(sh.n * sh.f * sh.outH() * sh.outW())}};
  };
  auto entries = [](Builder &b, const PlainConv &conv,
                    const Conv2dTiling &tiling) {
    const ::fuel::target::Conv2dShape &sh = conv.shape;
    const ::fuel::target::MatmulTiling &mt = tiling.matmul;
    auto i64 = [&](uint64_t v) { return b.getI64IntegerAttr(int64_t(v)); };
    return SmallVector<NamedAttribute>{
        b.getNamedAttr("input", i64(conv.input)),
        b.getNamedAttr("filter", i64(conv.filter)),
        b.getNamedAttr("output", i64(conv.output)),
        b.getNamedAttr("layout",
                       b.getStringAttr(sh.nchw ? "nchw_fchw" : "nhwc_hwcf")),
        b.getNamedAttr(
            "shape",
            b.getDenseI64ArrayAttr({int64_t(sh.n), int64_t(sh.c), int64_t(sh.h),
                                    int64_t(sh.w), int64_t(sh.f),
                                    int64_t(sh.kh), int64_t(sh.kw)})),
        b.getNamedAttr("strides",
                       b.getDenseI64ArrayAttr(
                           {int64_t(sh.strides[0]), int64_t(sh.strides[1])})),
        b.getNamedAttr("dilations",
                       b.getDenseI64ArrayAttr({int64_t(sh.dilations[0]),
                                               int64_t(sh.dilations[1])})),
        b.getNamedAttr("tile",
                       b.getDenseI64ArrayAttr({mt.tileM, mt.tileN, mt.tileK})),
        b.getNamedAttr("block", b.getDenseI64ArrayAttr({mt.blockM, mt.blockN})),
        b.getNamedAttr("init", conv.init),
    };
  };
  return scheduleTiled<PlainConv, Conv2dTiling>(
      kernel, limits, mode, target, target.conv2dAttr, matchPlainConv, choose,
      problemOf, entries);
}

bool mlir::fuel::scheduleGpuMatmul(func::FuncOp kernel,
                                   const ::fuel::plan::GpuLimits *limits,
                                   unsigned block, GpuMatmulSchedule mode,
                                   const GpuMatmulTarget &target) {
  using ::fuel::target::MatmulTiling;
  auto choose = [&](const PlainMatmul &mm) {
    return ::fuel::target::chooseMatmulTiling(*limits, mm.m, mm.n, mm.k,
                                              /*elementBytes=*/4, block);
  };
  auto problemOf = [](const PlainMatmul &mm, const MatmulTiling &tiling) {
    return TiledProblem{&tiling,
                        uint64_t(mm.m),
                        uint64_t(mm.n),
                        mm.batch,
                        {mm.batch * mm.m * mm.n, mm.batch * mm.m * mm.k,
                         mm.batch * mm.k * mm.n}};
  };
  auto entries = [](Builder &b, const PlainMatmul &mm,
                    const MatmulTiling &tiling) {
    return SmallVector<NamedAttribute>{
        b.getNamedAttr("a", b.getI64IntegerAttr(mm.a)),
        b.getNamedAttr("b", b.getI64IntegerAttr(mm.b)),
        b.getNamedAttr("c", b.getI64IntegerAttr(mm.c)),
        b.getNamedAttr("batch", b.getI64IntegerAttr(mm.batch)),
        b.getNamedAttr("m", b.getI64IntegerAttr(mm.m)),
        b.getNamedAttr("n", b.getI64IntegerAttr(mm.n)),
        b.getNamedAttr("k", b.getI64IntegerAttr(mm.k)),
        b.getNamedAttr("tile", b.getDenseI64ArrayAttr(
                                   {tiling.tileM, tiling.tileN, tiling.tileK})),
        b.getNamedAttr("block",
                       b.getDenseI64ArrayAttr({tiling.blockM, tiling.blockN})),
        b.getNamedAttr("init", mm.init),
    };
  };
  return scheduleTiled<PlainMatmul, MatmulTiling>(
      kernel, limits, mode, target, target.matmulAttr, matchPlainMatmul, choose,
      problemOf, entries);
}
