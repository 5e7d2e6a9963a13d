//===- GpuMatmul.cpp - The shared-memory matmul schedule of GPUs ----------===//
//
// See GpuMatmul.h: which matmul, batch_matmul and conv2d kernels take the
// shared-memory schedule and its record (fuel-apply-schedules), and the
// kernel body built from that record (the conversions).
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/GPU/GpuMatmul.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/GPU/CudaKernels.h"
#include "fuel/Codegen/GPU/GpuKernels.h"
#include "fuel/Codegen/GPU/VulkanKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Target/GpuTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

using namespace mlir;
using namespace mlir::fuel;

//===----------------------------------------------------------------------===//
// The schedule's choice
//===----------------------------------------------------------------------===//

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

/// Records the tiling attributes on `kernel`: the record `name` (its
/// `entries` and the target's name), the workgroup size and the grid.
void recordTiling(func::FuncOp kernel, StringRef name, StringRef target,
                  ArrayRef<NamedAttribute> entries,
                  const ::fuel::target::MatmulTiling &tiling, int64_t gridX,
                  int64_t gridY, int64_t gridZ) {
  Builder b(kernel.getContext());
  SmallVector<NamedAttribute> record(entries);
  record.push_back(b.getNamedAttr("target", b.getStringAttr(target)));
  kernel->setAttr(name, b.getDictionaryAttr(record));
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

/// Records why `kernel` keeps the per-element schedule on `target`; false.
bool notePerElement(func::FuncOp kernel, const GpuMatmulTarget &target,
                    const Twine &reason) {
  noteGpuSchedule(kernel, target.name, reason);
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
/// the first reason recorded as `fuel.gpu_schedule_note`, where a step fails.
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
    return notePerElement(kernel, target, reason);
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
  recordTiling(kernel, attr, target.name, entries(b, *plain, *tiling),
               *p.tiling, gridX, gridY, p.batch);
  return true;
}

} // namespace

const GpuMatmulTarget &mlir::fuel::vulkanMatmulTarget() {
  static const GpuMatmulTarget target = {"vulkan",
                                         {kVulkanMaxWorkgroupCount,
                                          kVulkanMaxWorkgroupCount,
                                          kVulkanMaxWorkgroupCount}};
  return target;
}

const GpuMatmulTarget &mlir::fuel::cudaMatmulTarget() {
  static const GpuMatmulTarget target = {
      "cuda", {kCudaMaxGridX, kCudaMaxGridY, kCudaMaxGridZ}};
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
      kernel, limits, mode, target, kernel_attr::kGpuConv2d, matchPlainConv,
      choose, problemOf, entries);
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
      kernel, limits, mode, target, kernel_attr::kGpuMatmul, matchPlainMatmul,
      choose, problemOf, entries);
}

//===----------------------------------------------------------------------===//
// The kernel body
//===----------------------------------------------------------------------===//
//
// One workgroup of IN x IM invocations computes a TM x TN tile of C
// (workgroup (x, y, z): columns x * TN.., rows y * TM.., batch z); each
// invocation a RM x RN block of it in registers, rows ty + i * IM and
// columns tx + j * IN (so that neighbouring invocations touch neighbouring
// elements). K is walked in panels of TK: the invocations copy the TM x TK
// panel of A and the TK x TN panel of B into workgroup memory (zeros past
// the edges of A and B), a barrier, every invocation accumulates its block
// from the panels, a barrier. C is stored where it lies inside the matrix.

namespace {

/// The index in a binding of element (row, col) of an operand.
using IndexFn = std::function<Value(Value, Value)>;

/// A convolution as an implicit matmul (GpuTiling.h, Conv2dTiling).
struct ConvSpec {
  bool nchw;
  int64_t n, c, h, w, f, kh, kw, oh, ow;
  int64_t strides[2], dilations[2];
};

/// The matmul C[batch][m][n] = init + A[batch][m][k] * B[batch][k][n] a
/// kernel computes, with its tiles; for a convolution, `conv` says how A,
/// B and C lie in the bindings.
struct Spec {
  int64_t a, b, c, batch, m, n, k;
  int64_t tm, tn, tk, rm, rn;
  FloatAttr init;
  std::optional<ConvSpec> conv;
};

/// Reads `tile`, `block` and `init` of a spec dictionary into `s`.
LogicalResult readTiles(DictionaryAttr dict, Spec &s,
                        function_ref<LogicalResult(StringRef)> fail) {
  auto tile = dict.getAs<DenseI64ArrayAttr>("tile");
  auto block = dict.getAs<DenseI64ArrayAttr>("block");
  s.init = dict.getAs<FloatAttr>("init");
  if (!tile || tile.size() != 3 || !block || block.size() != 2 || !s.init ||
      !s.init.getType().isF32())
    return fail("needs 'tile' = array<i64: TM, TN, TK>, 'block' = "
                "array<i64: RM, RN> and an f32 'init'");
  s.tm = tile[0];
  s.tn = tile[1];
  s.tk = tile[2];
  s.rm = block[0];
  s.rn = block[1];
  if (s.tm < 1 || s.tn < 1 || s.tk < 1 || s.rm < 1 || s.rn < 1 || s.tm % s.rm ||
      s.tn % s.rn)
    return fail("needs positive tiles that are multiples of the block");
  return success();
}

/// The record of the shared-memory schedule `kernel` carries:
/// `fuel.gpu_conv2d` where it has one, else `fuel.gpu_matmul`.
StringRef recordAttr(func::FuncOp kernel) {
  return kernel->hasAttr(kernel_attr::kGpuConv2d)
             ? StringRef(kernel_attr::kGpuConv2d)
             : StringRef(kernel_attr::kGpuMatmul);
}

FailureOr<Spec> readConvSpec(func::FuncOp kernel, StringRef attr,
                             DictionaryAttr dict) {
  auto fail = [&](StringRef what) -> LogicalResult {
    return kernel.emitError() << "kernel " << describeKernel(kernel) << ": '"
                              << attr << "' " << what;
  };
  Spec s;
  ConvSpec cv;
  int64_t input = -1, filter = -1, output = -1;
  for (auto [name, field] : {std::pair<StringRef, int64_t *>{"input", &input},
                             {"filter", &filter},
                             {"output", &output}}) {
    auto v = dict.getAs<IntegerAttr>(name);
    if (!v || v.getInt() < 0)
      return (void)fail(("needs '" + name + "', a binding index").str()),
             failure();
    *field = v.getInt();
  }
  auto layout = dict.getAs<StringAttr>("layout");
  auto shape = dict.getAs<DenseI64ArrayAttr>("shape");
  auto strides = dict.getAs<DenseI64ArrayAttr>("strides");
  auto dilations = dict.getAs<DenseI64ArrayAttr>("dilations");
  if (!layout ||
      (layout.getValue() != "nchw_fchw" && layout.getValue() != "nhwc_hwcf") ||
      !shape || shape.size() != 7 || !strides || strides.size() != 2 ||
      !dilations || dilations.size() != 2 ||
      llvm::any_of(shape.asArrayRef(), [](int64_t v) { return v < 1; }) ||
      llvm::any_of(strides.asArrayRef(), [](int64_t v) { return v < 1; }) ||
      llvm::any_of(dilations.asArrayRef(), [](int64_t v) { return v < 1; }))
    return (void)fail(
               "needs 'layout' (\"nchw_fchw\" or \"nhwc_hwcf\"), 'shape' = "
               "array<i64: N, C, H, W, F, KH, KW>, 'strides' and "
               "'dilations' of two positive sizes"),
           failure();
  if (failed(readTiles(dict, s, fail)))
    return failure();
  cv.nchw = layout.getValue() == "nchw_fchw";
  cv.n = shape[0], cv.c = shape[1], cv.h = shape[2], cv.w = shape[3];
  cv.f = shape[4], cv.kh = shape[5], cv.kw = shape[6];
  for (int d = 0; d < 2; ++d) {
    cv.strides[d] = strides[d];
    cv.dilations[d] = dilations[d];
  }
  auto out = [](int64_t in, int64_t k, int64_t stride, int64_t dilation) {
    int64_t span = dilation * (k - 1) + 1;
    return in < span ? 0 : (in - span) / stride + 1;
  };
  cv.oh = out(cv.h, cv.kh, cv.strides[0], cv.dilations[0]);
  cv.ow = out(cv.w, cv.kw, cv.strides[1], cv.dilations[1]);
  if (!cv.oh || !cv.ow)
    return (void)fail("describes a filter larger than the input"), failure();
  s.batch = cv.n;
  s.k = cv.c * cv.kh * cv.kw;
  s.c = output;
  if (cv.nchw) {
    s.a = filter, s.b = input, s.m = cv.f, s.n = cv.oh * cv.ow;
  } else {
    s.a = input, s.b = filter, s.m = cv.oh * cv.ow, s.n = cv.f;
  }
  s.conv = cv;
  return s;
}

FailureOr<Spec> readSpec(func::FuncOp kernel, const TiledMatmulTarget &t) {
  StringRef attr = recordAttr(kernel);
  auto dict = kernel->getAttrOfType<DictionaryAttr>(attr);
  auto fail = [&](StringRef what) -> LogicalResult {
    return kernel.emitError() << "kernel " << describeKernel(kernel) << ": '"
                              << attr << "' " << what;
  };
  if (!dict)
    return (void)fail("is not a dictionary"), failure();
  if (failed(checkGpuRecordTarget(kernel, attr, t.backend)))
    return failure();
  if (attr == kernel_attr::kGpuConv2d)
    return readConvSpec(kernel, attr, dict);
  Spec s;
  for (auto [name, field, least] :
       {std::tuple<StringRef, int64_t *, int64_t>{"a", &s.a, 0},
        {"b", &s.b, 0},
        {"c", &s.c, 0},
        {"batch", &s.batch, 1},
        {"m", &s.m, 1},
        {"n", &s.n, 1},
        {"k", &s.k, 1}}) {
    auto v = dict.getAs<IntegerAttr>(name);
    if (!v || v.getInt() < least)
      return (void)fail(("needs '" + name + "', an integer of at least " +
                         Twine(least))
                            .str()),
             failure();
    *field = v.getInt();
  }
  if (failed(readTiles(dict, s, fail)))
    return failure();
  return s;
}

/// Checks binding `index` of `kernel` is a static f32 memref of `shape`.
LogicalResult checkBinding(func::FuncOp kernel, const TiledMatmulTarget &t,
                           StringRef name, int64_t index,
                           ArrayRef<int64_t> shape) {
  StringRef attr = recordAttr(kernel);
  if (index >= kernel.getNumArguments())
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": " << name
           << " is binding #" << index << ", which the kernel does not have";
  auto type = dyn_cast<MemRefType>(kernel.getArgument(index).getType());
  if (!type || type.getShape() != shape || !type.getElementType().isF32() ||
      !type.getLayout().isIdentity())
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": binding #" << index
           << " (" << name << ") has type "
           << kernel.getArgument(index).getType()
           << ", not the f32 operand of shape ["
           << llvm::make_range(shape.begin(), shape.end()) << "] that '" << attr
           << "' describes";
  return success();
}

} // namespace

FailureOr<gpu::GPUFuncOp> mlir::fuel::buildTiledMatmulFunc(
    func::FuncOp kernel, gpu::GPUModuleOp gpuModule,
    const TiledMatmulTarget &target,
    const std::optional<::fuel::plan::GpuLimits> &limits) {
  FailureOr<Spec> parsed = readSpec(kernel, target);
  if (failed(parsed))
    return failure();
  const Spec &s = *parsed;
  if (s.conv) {
    const ConvSpec &cv = *s.conv;
    SmallVector<int64_t> in, fl, out;
    if (cv.nchw) {
      in = {cv.n, cv.c, cv.h, cv.w};
      fl = {cv.f, cv.c, cv.kh, cv.kw};
      out = {cv.n, cv.f, cv.oh, cv.ow};
    } else {
      in = {cv.n, cv.h, cv.w, cv.c};
      fl = {cv.kh, cv.kw, cv.c, cv.f};
      out = {cv.n, cv.oh, cv.ow, cv.f};
    }
    int64_t inputIndex = cv.nchw ? s.b : s.a, filterIndex = cv.nchw ? s.a : s.b;
    if (failed(checkBinding(kernel, target, "the input", inputIndex, in)) ||
        failed(checkBinding(kernel, target, "the filter", filterIndex, fl)) ||
        failed(checkBinding(kernel, target, "the output", s.c, out)))
      return failure();
  } else {
    if (s.c >= kernel.getNumArguments())
      return kernel.emitError()
             << "kernel " << describeKernel(kernel) << ": C is binding #" << s.c
             << ", which the kernel does not have";
    // A batch_matmul of batch 1 keeps its rank-3 bindings.
    auto cType = dyn_cast<MemRefType>(kernel.getArgument(s.c).getType());
    bool batched = cType && cType.getRank() == 3;
    auto shapeOf = [&](int64_t rows, int64_t cols) {
      SmallVector<int64_t> v;
      if (batched)
        v.push_back(s.batch);
      v.append({rows, cols});
      return v;
    };
    if (failed(checkBinding(kernel, target, "A", s.a, shapeOf(s.m, s.k))) ||
        failed(checkBinding(kernel, target, "B", s.b, shapeOf(s.k, s.n))) ||
        failed(checkBinding(kernel, target, "C", s.c, shapeOf(s.m, s.n))))
      return failure();
  }

  const int64_t threadsX = s.tn / s.rn, threadsY = s.tm / s.rm;
  auto sizeAttr =
      kernel->getAttrOfType<DenseI64ArrayAttr>(kernel_attr::kWorkgroupSize);
  if (!sizeAttr || sizeAttr.size() != 3 || sizeAttr[0] != threadsX ||
      sizeAttr[1] != threadsY || sizeAttr[2] != 1)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel)
           << ": 'fuel.workgroup_size' must be [" << threadsX << ", "
           << threadsY << ", 1], the invocations of its matmul tiling";
  // The tiling against the device's limits.
  uint64_t shared = uint64_t(s.tm + s.tn) * s.tk * 4;
  uint64_t sharedLimit = limits && limits->sharedMemoryBytes
                             ? limits->sharedMemoryBytes
                             : target.defaultSharedMemoryBytes;
  if (shared > sharedLimit)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": its matmul panels take "
           << shared << " bytes of workgroup memory, more than the device's "
           << "shared_memory_bytes (" << sharedLimit << ")";
  uint64_t invocationLimit = limits && limits->maxWorkgroupInvocations
                                 ? limits->maxWorkgroupInvocations
                                 : target.defaultInvocations;
  if (uint64_t(threadsX * threadsY) > invocationLimit)
    return kernel.emitError()
           << "kernel " << describeKernel(kernel) << ": its workgroup of "
           << threadsX * threadsY << " invocations exceeds the device's "
           << "max_workgroup_invocations (" << invocationLimit << ")";

  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  Type f32 = Float32Type::get(ctx);
  SmallVector<Type> argTypes;
  for (Type type : kernel.getArgumentTypes())
    argTypes.push_back(target.argumentType(cast<MemRefType>(type)));
  OpBuilder b = OpBuilder::atBlockEnd(gpuModule.getBody());
  auto fn = gpu::GPUFuncOp::create(b, loc, kernel.getName(),
                                   FunctionType::get(ctx, argTypes, {}));
  fn->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  Block &entry = fn.getBody().front();
  b.setInsertionPointToStart(&entry);

  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto add = [&](Value x, Value y) -> Value {
    if (!x)
      return y;
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, int64_t y) -> Value {
    if (y == 1)
      return x;
    return arith::MulIOp::create(b, loc, x, cst(y));
  };
  // A binding's element offset; null where the argument points at its
  // first element.
  auto offsetOf = [&](int64_t binding) -> Value {
    return target.elementOffset(b, fn, static_cast<unsigned>(binding));
  };
  Value offA = offsetOf(s.a), offB = offsetOf(s.b), offC = offsetOf(s.c);
  Value bufA = entry.getArgument(s.a), bufB = entry.getArgument(s.b),
        bufC = entry.getArgument(s.c);

  Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value lin = add(mul(ty, threadsX), tx);
  Value c0 = cst(0);
  Value rowBase = mul(by, s.tm), colBase = mul(bx, s.tn);
  // Where element (row, col) of A, of B and of C (of image / batch bz)
  // lies in its binding.
  IndexFn indexA, indexB, indexC;
  auto div = [&](Value x, int64_t y) -> Value {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, cst(y)).getResult();
  };
  auto rem = [&](Value x, int64_t y) -> Value {
    return y == 1 ? c0 : arith::RemUIOp::create(b, loc, x, cst(y)).getResult();
  };
  if (!s.conv) {
    Value baseA = add(offA, mul(bz, s.m * s.k));
    Value baseB = add(offB, mul(bz, s.k * s.n));
    Value baseC = add(offC, mul(bz, s.m * s.n));
    indexA = [&, baseA](Value r, Value q) {
      return add(baseA, add(mul(r, s.k), q));
    };
    indexB = [&, baseB](Value r, Value q) {
      return add(baseB, add(mul(r, s.n), q));
    };
    indexC = [&, baseC](Value r, Value q) {
      return add(baseC, add(mul(r, s.n), q));
    };
  } else {
    const ConvSpec &cv = *s.conv;
    Value baseIn = add(cv.nchw ? offB : offA, mul(bz, cv.c * cv.h * cv.w));
    Value baseFilter = cv.nchw ? offA : offB;
    Value baseOut = add(offC, mul(bz, s.m * s.n));
    // Input row and column of output pixel `pixel` under filter tap
    // (kh, kw).
    auto window = [&, cv](Value pixel, Value kh, Value kw) {
      Value oh = div(pixel, cv.ow), ow = rem(pixel, cv.ow);
      Value ih = add(mul(oh, cv.strides[0]), mul(kh, cv.dilations[0]));
      Value iw = add(mul(ow, cv.strides[1]), mul(kw, cv.dilations[1]));
      return std::make_pair(ih, iw);
    };
    if (cv.nchw) {
      // A: filter[f][(c, kh, kw)]; B: patches[(c, kh, kw)][pixel].
      indexA = [&, baseFilter](Value r, Value q) {
        return add(baseFilter, add(mul(r, s.k), q));
      };
      indexB = [&, cv, baseIn, window](Value r, Value q) {
        Value ch = div(r, cv.kh * cv.kw), tap = rem(r, cv.kh * cv.kw);
        auto [ih, iw] = window(q, div(tap, cv.kw), rem(tap, cv.kw));
        return add(baseIn, add(mul(ch, cv.h * cv.w), add(mul(ih, cv.w), iw)));
      };
    } else {
      // A: patches[pixel][(kh, kw, c)]; B: filter[(kh, kw, c)][f].
      indexA = [&, cv, baseIn, window](Value r, Value q) {
        Value tap = div(q, cv.c), ch = rem(q, cv.c);
        auto [ih, iw] = window(r, div(tap, cv.kw), rem(tap, cv.kw));
        return add(baseIn, add(mul(add(mul(ih, cv.w), iw), cv.c), ch));
      };
      indexB = [&, baseFilter](Value r, Value q) {
        return add(baseFilter, add(mul(r, s.n), q));
      };
    }
    indexC = [&, baseOut](Value r, Value q) {
      return add(baseOut, add(mul(r, s.n), q));
    };
  }

  auto sharedType = [&](int64_t elements) {
    return MemRefType::get({elements}, f32, MemRefLayoutAttrInterface(),
                           b.getI64IntegerAttr(kGpuWorkgroupMemorySpace));
  };
  Value panelA = memref::AllocOp::create(b, loc, sharedType(s.tm * s.tk));
  Value panelB = memref::AllocOp::create(b, loc, sharedType(s.tk * s.tn));
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value init = arith::ConstantOp::create(b, loc, s.init);

  const int64_t threads = threadsX * threadsY;
  const int64_t panels = (s.k + s.tk - 1) / s.tk;
  SmallVector<Value> acc(s.rm * s.rn, init);
  auto outer = scf::ForOp::create(b, loc, c0, cst(panels), cst(1), acc);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(outer.getBody());
    Value k0 = mul(outer.getInductionVar(), s.tk);
    // Copies a rows x cols panel into `panel`: element (r, q) of the
    // panel is element (r0 + r, q0 + q) of the operand, read at
    // `indexOf(row, col)` of `buf`, zero past (rowEnd, colEnd); each
    // invocation copies elements lin, lin + threads, ...
    auto copyPanel = [&](Value buf, const IndexFn &indexOf, Value r0, Value q0,
                         int64_t rows, int64_t cols, int64_t rowEnd,
                         int64_t colEnd, bool rowsExact, bool colsExact,
                         Value panel) {
      const int64_t elements = rows * cols;
      for (int64_t i = 0; i * threads < elements; ++i) {
        Value e = add(lin, cst(i * threads));
        Value r = arith::DivUIOp::create(b, loc, e, cst(cols));
        Value q = arith::RemUIOp::create(b, loc, e, cst(cols));
        Value gr = add(r0, r), gq = add(q0, q);
        Value inside;
        auto both = [&](Value cond) {
          inside = inside
                       ? arith::AndIOp::create(b, loc, inside, cond).getResult()
                       : cond;
        };
        if (!rowsExact)
          both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, gr,
                                     cst(rowEnd)));
        if (!colsExact)
          both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, gq,
                                     cst(colEnd)));
        // Elements past the edges read the operand's element (0, 0), then
        // become zeros.
        if (inside) {
          gr = arith::SelectOp::create(b, loc, inside, gr, c0);
          gq = arith::SelectOp::create(b, loc, inside, gq, c0);
        }
        Value v = memref::LoadOp::create(b, loc, buf, indexOf(gr, gq));
        if (inside)
          v = arith::SelectOp::create(b, loc, inside, v, zero);
        if (elements % threads == 0 || (i + 1) * threads <= elements) {
          memref::StoreOp::create(b, loc, v, panel, e);
          continue;
        }
        Value inPanel = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              e, cst(elements));
        auto guard = scf::IfOp::create(b, loc, inPanel, /*withElse=*/false);
        OpBuilder::InsertionGuard ig(b);
        b.setInsertionPointToStart(guard.thenBlock());
        memref::StoreOp::create(b, loc, v, panel, e);
      }
    };
    copyPanel(bufA, indexA, rowBase, k0, s.tm, s.tk, s.m, s.k, s.m % s.tm == 0,
              s.k % s.tk == 0, panelA);
    copyPanel(bufB, indexB, k0, colBase, s.tk, s.tn, s.k, s.n, s.k % s.tk == 0,
              s.n % s.tn == 0, panelB);
    gpu::BarrierOp::create(b, loc);

    auto inner = scf::ForOp::create(b, loc, c0, cst(s.tk), cst(1),
                                    outer.getRegionIterArgs());
    {
      OpBuilder::InsertionGuard ig(b);
      b.setInsertionPointToStart(inner.getBody());
      Value kk = inner.getInductionVar();
      SmallVector<Value> as, bs;
      for (int64_t i = 0; i < s.rm; ++i)
        as.push_back(memref::LoadOp::create(
            b, loc, panelA,
            ValueRange{add(mul(add(ty, cst(i * threadsY)), s.tk), kk)}));
      for (int64_t j = 0; j < s.rn; ++j)
        bs.push_back(memref::LoadOp::create(
            b, loc, panelB,
            ValueRange{add(mul(kk, s.tn), add(tx, cst(j * threadsX)))}));
      SmallVector<Value> next;
      for (int64_t i = 0; i < s.rm; ++i)
        for (int64_t j = 0; j < s.rn; ++j) {
          Value p = arith::MulFOp::create(b, loc, as[i], bs[j]);
          next.push_back(arith::AddFOp::create(
              b, loc, inner.getRegionIterArgs()[i * s.rn + j], p));
        }
      scf::YieldOp::create(b, loc, next);
    }
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, inner.getResults());
  }

  // C, where it lies inside the matrix.
  for (int64_t i = 0; i < s.rm; ++i)
    for (int64_t j = 0; j < s.rn; ++j) {
      Value gr = add(rowBase, add(ty, cst(i * threadsY)));
      Value gc = add(colBase, add(tx, cst(j * threadsX)));
      Value index = indexC(gr, gc);
      Value result = outer.getResult(i * s.rn + j);
      Value inside;
      if (s.m % s.tm)
        inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, gr,
                                       cst(s.m));
      if (s.n % s.tn) {
        Value col = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, gc,
                                          cst(s.n));
        inside = inside ? arith::AndIOp::create(b, loc, inside, col).getResult()
                        : col;
      }
      if (!inside) {
        memref::StoreOp::create(b, loc, result, bufC, index);
        continue;
      }
      auto guard = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
      OpBuilder::InsertionGuard ig(b);
      b.setInsertionPointToStart(guard.thenBlock());
      memref::StoreOp::create(b, loc, result, bufC, index);
    }
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
  return fn;
}
