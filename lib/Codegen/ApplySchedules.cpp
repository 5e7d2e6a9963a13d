//===- ApplySchedules.cpp - Run each generated kernel's schedule ----------===//
//
// fuel-apply-schedules: for every generated kernel of every cpu, vulkan and
// cuda executable, the transform-dialect schedule its `fuel.schedule` names
// (a file of kernels/schedules/, built into fuel), through a named sequence:
// on the CPU the target's ISA class's, with the shape parameters the sequence
// asks for (docs/CPU-CODEGEN.md, "Schedule files"); on Vulkan and CUDA @gpu
// of the schedule set kernels/schedules/gpu/ the GPU backends share. Then
// canonicalize and CSE, and record the
// kernel's workgroup grid (on a GPU, over the workgroup size the device's
// limits give) and workspace. On Vulkan and CUDA a row reduction or softmax
// may take the subgroup (warp) row schedule instead, and a matmul,
// batch_matmul or conv2d the shared-memory one, whose bodies the conversions
// build (docs/LOWERING.md, "GPU schedules").
//
//===----------------------------------------------------------------------===//

#include "fuel/Codegen/Passes.h"

#include "fuel/Codegen/CPU/CpuKernels.h"
#include "fuel/Codegen/CPU/PackMatmul.h"
#include "fuel/Codegen/GPU/CudaKernels.h"
#include "fuel/Codegen/GPU/GpuKernels.h"
#include "fuel/Codegen/GPU/GpuMatmul.h"
#include "fuel/Codegen/GPU/GpuRowKernels.h"
#include "fuel/Codegen/GPU/VulkanKernels.h"
#include "fuel/Dialect/Fuel/IR/GpuLimits.h"
#include "fuel/Target/Cpu/CpuTarget.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELAPPLYSCHEDULESPASS
#include "fuel/Codegen/Passes.h.inc"
} // namespace mlir::fuel

#define DEBUG_TYPE "fuel-apply-schedules"

using namespace mlir;
using namespace mlir::fuel;

namespace {

/// The op whose result the kernel writes to its (first) output: the
/// producer of the first `bufferization.materialize_in_destination`'s
/// source, looking through tensor view ops.
linalg::LinalgOp findRootOp(func::FuncOp kernel) {
  bufferization::MaterializeInDestinationOp store;
  kernel.walk([&](bufferization::MaterializeInDestinationOp op) {
    if (!store)
      store = op;
  });
  if (!store)
    return {};
  Value value = store.getSource();
  while (Operation *def = value.getDefiningOp()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(def))
      return linalgOp;
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::CastOp,
            tensor::ReshapeOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    return {};
  }
  return {};
}

/// The `linalg.softmax` the kernel writes to its (first) output, if that is
/// its root: not a LinalgOp, so findRootOp does not see it.
linalg::SoftmaxOp findSoftmaxRoot(func::FuncOp kernel) {
  linalg::SoftmaxOp root;
  kernel.walk([&](bufferization::MaterializeInDestinationOp op) {
    if (!root)
      root = op.getSource().getDefiningOp<linalg::SoftmaxOp>();
  });
  return root;
}

int64_t largestDivisorAtMost(int64_t n, int64_t max) {
  for (int64_t d = std::min(n, max); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

int64_t smallestDivisorAtLeast(int64_t n, int64_t min) {
  for (int64_t d = std::max<int64_t>(min, 1); d < n; ++d)
    if (n % d == 0)
      return d;
  return n;
}

/// Parses "name(a, b, ...)" into the name and its integer arguments.
LogicalResult parseParamSpec(StringRef spec, StringRef &name,
                             SmallVectorImpl<int64_t> &args) {
  spec = spec.trim();
  size_t open = spec.find('(');
  if (open == StringRef::npos || !spec.ends_with(")"))
    return failure();
  name = spec.take_front(open).trim();
  StringRef inside = spec.drop_front(open + 1).drop_back().trim();
  if (inside.empty())
    return success();
  SmallVector<StringRef> parts;
  inside.split(parts, ',');
  for (StringRef part : parts) {
    int64_t value;
    if (part.trim().getAsInteger(10, value))
      return failure();
    args.push_back(value);
  }
  return success();
}

/// How a matmul kernel is packed: the panel width of the sequence's
/// `fuel.pack_b` (0: none) and whether the kernel's root takes the packed
/// form (canPackMatmulB).
struct Packing {
  int64_t panel = 0;
  bool packed = false;
};

/// The fewest rows of a workgroup when a matmul is split over M: a register
/// tile has up to 8 rows.
constexpr int64_t kMinSplitRows = 8;

/// `panel_split(n)`: the workgroup split of a (batch) matmul root with loop
/// extents `extents` ([b,] M, N, K), as tile sizes of the loops the schedule
/// sees ([b,] m, n1, n0, k when packed, else [b,] m, n, k). The batch when
/// there is one (> 1); else the panels, when N is more than 2 panels (a
/// whole number of panels per workgroup, at most n workgroups: each packs,
/// or reads, only its own columns of B); else M (tall or narrow shapes), in
/// at most n equal static blocks of at least 8 rows (every workgroup then
/// reads all of B's few panels).
SmallVector<int64_t> panelSplit(ArrayRef<int64_t> extents,
                                const Packing &packing, int64_t n) {
  int64_t lead = extents.size() - 3;
  SmallVector<int64_t> tiles(extents.size() + (packing.packed ? 1 : 0), 0);
  auto chunk = [&](int64_t extent, int64_t least) {
    return smallestDivisorAtLeast(
        extent, std::max((extent + n - 1) / n, std::min(extent, least)));
  };
  if (lead > 0 && extents[0] > 1) {
    tiles[0] = chunk(extents[0], 1);
    return tiles;
  }
  // Whole panels: of the packed form's n1 loop, or P-column strips of N.
  int64_t cols = extents[lead + 1];
  int64_t panels =
      packing.panel > 0 && cols % packing.panel == 0 ? cols / packing.panel : 0;
  if (panels > 2)
    tiles[lead + 1] = chunk(panels, 1) * (packing.packed ? 1 : packing.panel);
  else
    tiles[lead] = chunk(extents[lead], kMinSplitRows);
  return tiles;
}

/// The values of the parameter `spec` for a root op with loop extents
/// `extents` (docs/CPU-CODEGEN.md, "Parameters"), or an error message.
FailureOr<SmallVector<int64_t>>
computeParam(StringRef spec, ArrayRef<int64_t> extents,
             ArrayRef<utils::IteratorType> iterators, const Packing &packing,
             std::string &error) {
  StringRef name;
  SmallVector<int64_t> args;
  if (failed(parseParamSpec(spec, name, args))) {
    error = "malformed parameter '" + spec.str() + "'";
    return failure();
  }
  int64_t rank = extents.size();
  auto dim = [&](int64_t d) -> FailureOr<int64_t> {
    int64_t index = d < 0 ? rank + d : d;
    if (index < 0 || index >= rank) {
      error = "parameter '" + spec.str() + "' names loop dimension " +
              std::to_string(d) + " of a root op with " + std::to_string(rank);
      return failure();
    }
    return index;
  };
  auto expect = [&](size_t n) {
    if (args.size() == n)
      return true;
    error = "parameter '" + spec.str() + "' takes " + std::to_string(n) +
            " integers";
    return false;
  };
  auto positive = [&](int64_t v) {
    if (v > 0)
      return true;
    error = "parameter '" + spec.str() + "' needs a positive bound";
    return false;
  };
  // parallel(t): t for every parallel loop, 0 for every reduction loop (a
  // tiling that splits the parallel loops only).
  if (name == "parallel") {
    if (!expect(1) || !positive(args[0]))
      return failure();
    SmallVector<int64_t> tiles;
    for (utils::IteratorType it : iterators)
      tiles.push_back(it == utils::IteratorType::parallel ? args[0] : 0);
    // Splitting no loop at all is not a tiling (upstream's tile_using_forall
    // crashes on it): a kernel without a parallel loop, one whose result has
    // rank 0, has nothing to map onto threads.
    if (llvm::none_of(iterators, [](utils::IteratorType it) {
          return it == utils::IteratorType::parallel;
        })) {
      error = "parameter '" + spec.str() +
              "' splits the parallel loops and the root op has none (its "
              "result has rank 0): there is nothing to map onto GPU threads; "
              "run this kernel on the CPU";
      return failure();
    }
    return tiles;
  }
  if (name == "extent") {
    if (!expect(1))
      return failure();
    FailureOr<int64_t> d = dim(args[0]);
    if (failed(d))
      return failure();
    return SmallVector<int64_t>{extents[*d]};
  }
  if (name == "divisor" || name == "chunk") {
    if (!expect(2) || !positive(args[1]))
      return failure();
    FailureOr<int64_t> d = dim(args[0]);
    if (failed(d))
      return failure();
    int64_t n = extents[*d];
    if (name == "divisor")
      return SmallVector<int64_t>{largestDivisorAtMost(n, args[1])};
    return SmallVector<int64_t>{
        smallestDivisorAtLeast(n, (n + args[1] - 1) / args[1])};
  }
  if (name == "split") {
    if (!expect(1) || !positive(args[0]))
      return failure();
    SmallVector<int64_t> tiles(rank, 0);
    // A rank-1 root is one block: its only dimension is the vector one.
    if (rank == 1)
      tiles[0] = extents[0];
    else if (rank >= 2)
      tiles[0] = smallestDivisorAtLeast(extents[0],
                                        (extents[0] + args[0] - 1) / args[0]);
    return tiles;
  }
  if (name == "rows") {
    if (!expect(1) || !positive(args[0]))
      return failure();
    SmallVector<int64_t> tiles(rank, 1);
    if (rank == 0)
      return tiles;
    int64_t n = extents.back();
    int64_t d = largestDivisorAtMost(n, args[0]);
    tiles.back() = d * 4 >= std::min(n, args[0]) ? d : n;
    return tiles;
  }
  if (name == "packed") {
    if (!expect(0))
      return failure();
    return SmallVector<int64_t>{packing.packed ? 1 : 0};
  }
  if (name == "panel_split") {
    if (!expect(1) || !positive(args[0]))
      return failure();
    // Not a (batch) matmul: the outermost loop, as `split(n)`.
    if (rank < 3 || rank > 4) {
      SmallVector<int64_t> tiles(rank, 0);
      if (rank > 0)
        tiles[0] = smallestDivisorAtLeast(extents[0],
                                          (extents[0] + args[0] - 1) / args[0]);
      return tiles;
    }
    return panelSplit(extents, packing, args[0]);
  }
  error = "unknown parameter kind '" + name.str() +
          "' (extent, divisor, chunk, split, rows, packed, panel_split)";
  return failure();
}

struct ApplySchedulesPass
    : public mlir::fuel::impl::FuelApplySchedulesPassBase<ApplySchedulesPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<affine::AffineDialect, arith::ArithDialect,
                    bufferization::BufferizationDialect, linalg::LinalgDialect,
                    math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                    tensor::TensorDialect, transform::TransformDialect,
                    vector::VectorDialect>();
    // The transform ops the schedules use (linalg, scf, vector, tensor,
    // loop, ...) and the interface models they rely on (tiling,
    // bufferization, value bounds) are dialect extensions.
    registerAllExtensions(registry);
  }

  /// The schedule `path`, parsed (once per pass run).
  FailureOr<ModuleOp> loadSchedule(func::FuncOp kernel, StringRef path) {
    auto it = schedules->find(path.str());
    if (it != schedules->end())
      return it->second.get();
    std::string text;
    std::string bufferName = path.str();
    if (!schedulesDir.empty()) {
      SmallString<256> full(schedulesDir);
      llvm::sys::path::append(full, path);
      auto buffer = llvm::MemoryBuffer::getFile(full);
      if (!buffer)
        return kernel.emitError()
               << "kernel " << describeKernel(kernel) << ": cannot read "
               << "schedule '" << full << "': " << buffer.getError().message();
      text = (*buffer)->getBuffer().str();
      bufferName = full.str().str();
    } else if (std::optional<StringRef> embedded = getEmbeddedSchedule(path)) {
      text = embedded->str();
    } else {
      return kernel.emitError()
             << "kernel " << describeKernel(kernel) << ": no schedule '" << path
             << "' is built into fuel";
    }
    ParserConfig config(&getContext());
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(text, config, bufferName);
    if (!parsed)
      return kernel.emitError() << "kernel " << describeKernel(kernel)
                                << ": schedule '" << path << "' does not parse";
    ModuleOp result = parsed.get();
    schedules->emplace(path.str(), std::move(parsed));
    return result;
  }

  /// A kernel's B read as constant panels: `panels` reads the binding
  /// (now of the panel type), `unpacked` is the old read, left for the
  /// rewrite to replace.
  struct ConstantB {
    Value panels, unpacked;
  };

  /// The dispatches of `kernel` when every one binds a dense f32
  /// `arith.constant` as the root's B (and there is one), else none.
  std::optional<SmallVector<DispatchOp>>
  constantBDispatches(func::FuncOp kernel, linalg::LinalgOp root) {
    auto toTensor =
        root.getDpsInputs()[1].getDefiningOp<bufferization::ToTensorOp>();
    if (!toTensor || !toTensor->hasOneUse())
      return std::nullopt;
    auto arg = dyn_cast<BlockArgument>(toTensor.getBuffer());
    auto exe = kernel->getParentOfType<ExecutableOp>();
    if (!arg || arg.getOwner() != &kernel.getBody().front() || !exe)
      return std::nullopt;
    unsigned index = arg.getArgNumber();
    SmallVector<DispatchOp> dispatches;
    bool allConstant = true;
    getOperation().walk([&](DispatchOp dispatch) {
      SymbolRefAttr ref = dispatch.getKernel();
      if (ref.getRootReference() != exe.getSymNameAttr() ||
          ref.getLeafReference() != kernel.getSymNameAttr())
        return;
      dispatches.push_back(dispatch);
      auto constant =
          index < dispatch.getInputs().size()
              ? dispatch.getInputs()[index].getDefiningOp<arith::ConstantOp>()
              : arith::ConstantOp();
      auto dense =
          constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
      if (!dense || !dense.getElementType().isF32())
        allConstant = false;
    });
    if (dispatches.empty() || !allConstant)
      return std::nullopt;
    return dispatches;
  }

  /// Given `dispatches`, every dispatch of `kernel`, each binding a dense
  /// f32 `arith.constant` (a weight) as the root's B (constantBDispatches):
  /// replaces each such constant by a constant of its panel layout (packed
  /// once, here, into what becomes the constant segment) and the kernel's B
  /// binding by one of the panel type; the dispatches keep their node and
  /// prediction, so the plan is unchanged.
  ConstantB prepackConstantB(RewriterBase &rewriter, func::FuncOp kernel,
                             linalg::LinalgOp root, int64_t panel,
                             ArrayRef<DispatchOp> dispatches) {
    auto toTensor =
        root.getDpsInputs()[1].getDefiningOp<bufferization::ToTensorOp>();
    auto arg = cast<BlockArgument>(toTensor.getBuffer());
    unsigned index = arg.getArgNumber();

    auto bType = cast<RankedTensorType>(toTensor.getType());
    RankedTensorType panelsType = packedBType(bType, panel);
    llvm::MapVector<Value, Value> packedOf;
    for (DispatchOp dispatch : dispatches) {
      Value weight = dispatch.getInputs()[index];
      Value &packed = packedOf[weight];
      if (!packed) {
        auto constant = weight.getDefiningOp<arith::ConstantOp>();
        auto dense = cast<DenseElementsAttr>(constant.getValue());
        SmallVector<float> values(dense.getValues<float>());
        SmallVector<float> panels =
            packBValues(values, bType.getShape(), panel);
        rewriter.setInsertionPoint(constant);
        packed = arith::ConstantOp::create(
            rewriter, constant.getLoc(),
            DenseElementsAttr::get(panelsType, ArrayRef<float>(panels)));
      }
      dispatch.getInputsMutable()[index].set(packed);
    }
    for (auto &[weight, packed] : packedOf)
      if (weight.use_empty())
        rewriter.eraseOp(weight.getDefiningOp());

    arg.setType(
        MemRefType::get(panelsType.getShape(), panelsType.getElementType()));
    kernel.setType(FunctionType::get(kernel.getContext(),
                                     kernel.getBody().getArgumentTypes(),
                                     kernel.getResultTypes()));
    rewriter.setInsertionPoint(toTensor);
    Value panels = bufferization::ToTensorOp::create(
        rewriter, toTensor.getLoc(), panelsType, arg, /*restrict=*/true);
    return ConstantB{panels, toTensor.getResult()};
  }

  /// Applies `kernel`'s schedule through its named sequence
  /// `sequenceName` (the ISA class on the CPU, `gpu` on Vulkan and CUDA);
  /// `workgroupSize` is the GPU's workgroup (CUDA block) size, 0 on the CPU,
  /// and `gpuKind` its kind.
  LogicalResult applyOne(func::FuncOp kernel, StringRef sequenceName,
                         uint32_t workgroupSize = 0,
                         DeviceKind gpuKind = DeviceKind::vulkan) {
    bool cuda = workgroupSize && gpuKind == DeviceKind::cuda;
    auto pathAttr = kernel->getAttrOfType<StringAttr>(kernel_attr::kSchedule);
    FailureOr<ModuleOp> schedule = loadSchedule(kernel, pathAttr.getValue());
    if (failed(schedule))
      return failure();
    auto sequence = dyn_cast_or_null<transform::NamedSequenceOp>(
        SymbolTable::lookupSymbolIn(*schedule, sequenceName));
    if (!sequence)
      return kernel.emitError() << "kernel " << describeKernel(kernel)
                                << ": schedule '" << pathAttr.getValue()
                                << "' has no named sequence @" << sequenceName;

    // Bindings: the kernel, then one row per parameter argument.
    ArrayRef<BlockArgument> args = sequence.getBody().getArguments();
    if (args.empty() ||
        !isa<transform::TransformHandleTypeInterface>(args.front().getType()))
      return kernel.emitError()
             << "kernel " << describeKernel(kernel) << ": @" << sequenceName
             << " of '" << pathAttr.getValue()
             << "' must take the kernel handle first";
    RaggedArray<transform::MappedValue> bindings;
    bindings.push_back(ArrayRef<transform::MappedValue>{kernel.getOperation()});
    linalg::LinalgOp root = findRootOp(kernel);
    SmallVector<int64_t> extents;
    SmallVector<utils::IteratorType> iterators;
    if (root) {
      extents = root.getStaticLoopRanges();
      iterators = root.getIteratorTypesArray();
    } else if (linalg::SoftmaxOp softmax = findSoftmaxRoot(kernel)) {
      // Its loops are the output's dimensions; the softmax dimension is
      // the one it reduces over.
      ShapedType type = softmax.getOutputOperandType();
      extents.assign(type.getShape().begin(), type.getShape().end());
      for (int64_t d = 0, e = type.getRank(); d < e; ++d)
        iterators.push_back(d == static_cast<int64_t>(softmax.getDimension())
                                ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    }
    Builder b(&getContext());
    // A sequence with `fuel.pack_b = P` works on the packed-B form of a
    // matmul root whose N is a multiple of P (PackMatmul.h), else on the
    // kernel as it is.
    Packing packing;
    // The dispatches binding B as a constant, which is then packed at
    // compile time; found once, when the root can be packed.
    std::optional<SmallVector<DispatchOp>> constantB;
    // The dialect verifies that the width is a positive i64.
    if (auto panel =
            sequence->getAttrOfType<IntegerAttr>(kernel_attr::kSchedulePackB)) {
      packing.panel = panel.getInt();
      packing.packed = canPackMatmulB(root, packing.panel);
      if (packing.packed)
        constantB = constantBDispatches(kernel, root);
      if (sequence->hasAttr(kernel_attr::kSchedulePackBIfConstant))
        packing.packed = packing.packed && constantB.has_value();
    }
    for (unsigned i = 1; i < args.size(); ++i) {
      auto spec =
          sequence.getArgAttrOfType<StringAttr>(i, kernel_attr::kScheduleParam);
      if (!spec ||
          !isa<transform::TransformParamTypeInterface>(args[i].getType()))
        return kernel.emitError()
               << "kernel " << describeKernel(kernel) << ": argument #" << i
               << " of @" << sequenceName << " in '" << pathAttr.getValue()
               << "' must be a !transform.param with a 'fuel.param' string";
      if (extents.empty() || ShapedType::isDynamicShape(extents))
        return kernel.emitError()
               << "kernel " << describeKernel(kernel) << ": parameter '"
               << spec.getValue()
               << "' needs a root linalg op with static loop ranges";
      std::string error;
      FailureOr<SmallVector<int64_t>> values =
          computeParam(spec.getValue(), extents, iterators, packing, error);
      if (failed(values))
        return kernel.emitError()
               << "kernel " << describeKernel(kernel) << ": " << error;
      SmallVector<transform::MappedValue> row;
      for (int64_t v : *values)
        row.push_back(b.getI64IntegerAttr(v));
      bindings.push_back(ArrayRef<transform::MappedValue>(row));
    }

    // Parameters describe the root as the outliner wrote it; the packed
    // form is made after they are computed.
    if (packing.packed) {
      IRRewriter rewriter(&getContext());
      std::optional<ConstantB> packedB;
      if (constantB)
        packedB =
            prepackConstantB(rewriter, kernel, root, packing.panel, *constantB);
      packMatmulB(rewriter, root, packing.panel,
                  packedB ? packedB->panels : Value());
      if (packedB && packedB->unpacked.use_empty())
        rewriter.eraseOp(packedB->unpacked.getDefiningOp());
    }

    transform::TransformOptions options;
    if (failed(transform::applyTransformNamedSequence(
            std::move(bindings),
            cast<transform::TransformOpInterface>(sequence.getOperation()),
            *schedule, options)))
      return kernel.emitError()
             << "kernel " << describeKernel(kernel) << ": schedule '"
             << pathAttr.getValue() << "' (@" << sequenceName << ") failed";

    OpPassManager cleanup(func::FuncOp::getOperationName());
    cleanup.addPass(createCanonicalizerPass());
    cleanup.addPass(createCSEPass());
    if (failed(runPipeline(cleanup, kernel)))
      return failure();

    if (workgroupSize && cuda)
      return recordGpuLaunch(kernel, workgroupSize, kCudaMaxGridX,
                             kCudaMaxGridY, "cuda");
    if (workgroupSize)
      return recordGpuLaunch(kernel, workgroupSize, kVulkanMaxWorkgroupCount,
                             kVulkanMaxWorkgroupCount, "vulkan");
    FailureOr<scf::ForallOp> forall = getWorkgroupLoop(kernel);
    if (failed(forall))
      return failure();
    SmallVector<int64_t> grid{1, 1, 1};
    if (*forall)
      for (auto [i, ub] : llvm::enumerate(forall->getMixedUpperBound()))
        grid[i] = *getConstantIntValue(ub);
    kernel->setAttr(kernel_attr::kWorkgroups, b.getDenseI64ArrayAttr(grid));
    // Scratch lives on the stack (fuel-bufferize-kernels); no kernel needs
    // the ABI's workspace yet.
    kernel->setAttr(kernel_attr::kWorkspaceBytes, b.getI64IntegerAttr(0));
    return success();
  }

  /// A vulkan or cuda kernel runs one invocation per iteration of its
  /// outermost `scf.forall` (any rank, static bounds; convert-fuel-to-spirv
  /// and convert-fuel-to-nvvm linearize it), `workgroupSize` invocations per
  /// workgroup: G = ceil(iterations / size) workgroups, as the grid
  /// [min(G, maxX), ceil(G / maxX), 1] (Vulkan: 65535, its guaranteed
  /// maxComputeWorkGroupCount per dimension; CUDA: 2^31 - 1 in x, 65535 in
  /// y); without a forall, one invocation.
  LogicalResult recordGpuLaunch(func::FuncOp kernel, uint32_t workgroupSize,
                                int64_t maxX, int64_t maxY, StringRef backend) {
    SmallVector<scf::ForallOp> outermost;
    for (Operation &op : kernel.getBody().getOps())
      if (auto forall = dyn_cast<scf::ForallOp>(op))
        outermost.push_back(forall);
    if (outermost.size() > 1)
      return kernel.emitError()
             << "kernel " << describeKernel(kernel) << " has "
             << outermost.size() << " outermost scf.forall loops; a " << backend
             << " kernel runs one";
    int64_t iterations = 1;
    if (!outermost.empty()) {
      FailureOr<GpuForallSpace> space =
          getGpuForallSpace(kernel, outermost.front());
      if (failed(space))
        return failure();
      iterations = space->iterations;
    }
    Builder b(&getContext());
    int64_t size = outermost.empty() ? 1 : workgroupSize;
    int64_t groups = std::max<int64_t>(1, (iterations + size - 1) / size);
    int64_t gridX = std::min(groups, maxX);
    int64_t gridY = (groups + gridX - 1) / gridX;
    if (gridY > maxY)
      return kernel.emitError()
             << "kernel " << describeKernel(kernel) << " needs " << groups
             << " workgroups of " << size << " invocations, more than a "
             << maxX << " x " << maxY << " grid";
    kernel->setAttr(kernel_attr::kWorkgroups,
                    b.getDenseI64ArrayAttr({gridX, gridY, 1}));
    kernel->setAttr(kernel_attr::kWorkgroupSize,
                    b.getDenseI64ArrayAttr({size, 1, 1}));
    kernel->setAttr(kernel_attr::kWorkspaceBytes, b.getI64IntegerAttr(0));
    return success();
  }

  /// A GPU kernel of the matmul kinds, which may take the shared-memory
  /// schedule.
  static bool isGpuMatmulKind(func::FuncOp kernel) {
    auto kind = kernel->getAttrOfType<StringAttr>(kernel_attr::kOpKind);
    return kind &&
           (kind.getValue() == "matmul" || kind.getValue() == "batch_matmul");
  }

  static bool isGpuConvKind(func::FuncOp kernel) {
    auto kind = kernel->getAttrOfType<StringAttr>(kernel_attr::kOpKind);
    return kind && kind.getValue() == "conv2d";
  }

  /// Gives a GPU kernel its fast schedule where one applies: the row
  /// schedule (a row reduction or softmax), the shared-memory matmul or
  /// conv2d (GpuMatmul.h); true when it took one, whose body the target's
  /// conversion builds.
  FailureOr<bool> scheduleFastGpuKernel(func::FuncOp kernel,
                                        const ::fuel::plan::GpuLimits *limits,
                                        RowScheduleMode rowMode,
                                        int64_t maxRows, StringRef rowNote,
                                        GpuMatmulSchedule matmulMode,
                                        unsigned block,
                                        const GpuMatmulTarget &target) {
    FailureOr<bool> row =
        scheduleGpuRowKernel(kernel, limits, rowMode, maxRows, rowNote);
    if (failed(row) || *row)
      return row;
    if (matmulMode == GpuMatmulSchedule::PerElement)
      return false;
    if (isGpuMatmulKind(kernel))
      return scheduleGpuMatmul(kernel, limits, block, matmulMode, target);
    if (isGpuConvKind(kernel))
      return scheduleGpuConv2d(kernel, limits, block, matmulMode, target);
    return false;
  }

  void runOnOperation() override {
    ModuleOp root = getOperation();
    unsigned vulkanBlock =
        vulkanMatmulBlock ? vulkanMatmulBlock : kGpuMatmulDefaultBlock;
    unsigned cudaBlock =
        cudaMatmulBlock ? cudaMatmulBlock : kGpuMatmulDefaultBlock;
    std::map<std::string, OwningOpRef<ModuleOp>> parsed;
    schedules = &parsed;
    for (ModuleOp kernels : getCpuKernelModules(root)) {
      // An explicit target is stamped and then validated like any stamp;
      // otherwise the module's stamp, else the topology's, else the host's.
      if (!targetCpu.empty())
        kernels->setAttr(
            kernel_attr::kCpuTarget,
            cpuTargetAttr(
                &getContext(),
                {targetTriple.empty() ? hostCpuTarget().triple : targetTriple,
                 targetCpu, targetFeatures}));
      FailureOr<CpuTargetSpec> target = resolveCpuTarget(kernels);
      if (failed(target))
        return signalPassFailure();
      kernels->setAttr(kernel_attr::kCpuTarget,
                       cpuTargetAttr(&getContext(), *target));
      IsaClass isaCls = isaClass(*target);
      for (func::FuncOp kernel : getKernelFuncs(kernels)) {
        // The dialect verifies that a `fuel.schedule` is a string.
        if (!kernel->hasAttr(kernel_attr::kSchedule))
          continue;
        if (failed(applyOne(kernel, isaClassName(isaCls))))
          return signalPassFailure();
      }
    }
    // Vulkan kernels: the shared GPU schedules' @gpu, the workgroup size
    // from the device's limits in the module's topology (getGpuLimits; the
    // defaults of VulkanKernels.h for what it does not state).
    for (ModuleOp kernels : getVulkanKernelModules(root)) {
      auto exe = kernels->getParentOfType<ExecutableOp>();
      std::optional<::fuel::plan::GpuLimits> limits =
          getGpuLimits(root, toPlan(exe.getDevice()));
      uint32_t workgroupSize = vulkanWorkgroupSize(limits ? &*limits : nullptr);
      for (func::FuncOp kernel : getKernelFuncs(kernels)) {
        if (!kernel->hasAttr(kernel_attr::kSchedule))
          continue;
        // A row reduction or softmax may take the subgroup row schedule, a
        // matmul, batch_matmul or conv2d the shared-memory one
        // (GpuMatmul.cpp); convert-fuel-to-spirv builds their bodies.
        FailureOr<bool> fast = scheduleFastGpuKernel(
            kernel, limits ? &*limits : nullptr, vulkanRowSchedule,
            kVulkanMaxWorkgroupCount, /*rowNote=*/{}, vulkanMatmul, vulkanBlock,
            vulkanMatmulTarget());
        if (failed(fast))
          return signalPassFailure();
        if (*fast)
          continue;
        if (failed(applyOne(kernel, "gpu", workgroupSize)))
          return signalPassFailure();
      }
    }
    // CUDA kernels: the warp row schedule and the shared-memory matmul and
    // conv2d where they apply (convert-fuel-to-nvvm builds them), else the
    // shared GPU schedules' @gpu, the block size from the device's limits
    // (getCudaLimits: the topology's, the rest from CUDA's table for the
    // compute capability; cudaBlockSize).
    for (ModuleOp kernels : getCudaKernelModules(root)) {
      auto exe = kernels->getParentOfType<ExecutableOp>();
      ::fuel::plan::GpuLimits limits =
          getCudaLimits(root, toPlan(exe.getDevice()));
      uint32_t blockSize = cudaBlockSize(&limits);
      for (func::FuncOp kernel : getKernelFuncs(kernels)) {
        if (!kernel->hasAttr(kernel_attr::kSchedule))
          continue;
        FailureOr<bool> fast = scheduleFastGpuKernel(
            kernel, &limits, cudaRowSchedule, kCudaMaxGridX,
            cudaMatmulTarget().name, cudaMatmul, cudaBlock, cudaMatmulTarget());
        if (failed(fast))
          return signalPassFailure();
        if (*fast)
          continue;
        if (failed(applyOne(kernel, "gpu", blockSize, DeviceKind::cuda)))
          return signalPassFailure();
      }
    }
  }

  /// The schedules parsed in this run, by path.
  std::map<std::string, OwningOpRef<ModuleOp>> *schedules = nullptr;
};
} // namespace
