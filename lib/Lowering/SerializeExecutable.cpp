//===- SerializeExecutable.cpp - The host program as a .fuelx file --------===//
//
// fuel-serialize-executable (docs/LOWERING.md, "Serialization"): translates
// the module's `fuel.program`, its executables and constants into a
// fuel::rt::Program through fuel::rt::ExecutableWriter (serializeExecutable,
// which returns the bytes) and writes the file, or hands the bytes to the
// compile API. Everything is visited in IR order, so equal IR gives equal
// bytes.
//
//===----------------------------------------------------------------------===//

#include "fuel/Lowering/SerializeExecutable.h"
#include "fuel/Codegen/CPU/CpuObject.h"
#include "fuel/Codegen/GPU/CudaKernels.h"
#include "fuel/Codegen/GPU/GpuKernels.h"
#include "fuel/Codegen/GPU/VulkanKernels.h"
#include "fuel/Dialect/Fuel/IR/FuelProgram.h"
#include "fuel/Dialect/Fuel/IR/GpuLimits.h"
#include "fuel/Lowering/Passes.h"
#include "fuel/Planner/BufferPlan.h"
#include "fuel/Planning/PlanExport.h"
#include "fuel/Runtime/ExecutableWriter.h"
#include "fuel/Target/Version.h"

#include "fuel-c/KernelABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/xxhash.h"

#include <chrono>

#define DEBUG_TYPE "fuel-serialize-executable"

namespace mlir::fuel {
#define GEN_PASS_DEF_FUELSERIALIZEEXECUTABLEPASS
#include "fuel/Lowering/Passes.h.inc"
} // namespace mlir::fuel

using namespace mlir;
using namespace mlir::fuel;
namespace rt = ::fuel::rt;

namespace {

std::optional<rt::ElementType> toDtype(Type type) {
  if (type.isF32())
    return rt::ElementType::F32;
  if (type.isF16())
    return rt::ElementType::F16;
  if (type.isBF16())
    return rt::ElementType::BF16;
  if (type.isF64())
    return rt::ElementType::F64;
  if (type.isInteger(1))
    return rt::ElementType::Bool;
  if (auto i = dyn_cast<IntegerType>(type)) {
    if (i.isUnsigned())
      return i.getWidth() == 8 ? std::optional(rt::ElementType::U8)
                               : std::nullopt;
    switch (i.getWidth()) {
    case 8:
      return rt::ElementType::I8;
    case 16:
      return rt::ElementType::I16;
    case 32:
      return rt::ElementType::I32;
    case 64:
      return rt::ElementType::I64;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// The row-major bytes of `value` (a splat expanded, i1 as one byte per
/// element), or failure for data it cannot read.
FailureOr<std::vector<uint8_t>> constantBytes(ConstantDataOp op) {
  auto type = cast<RankedTensorType>(op.getValue().getType());
  uint64_t bytes = *tensorByteSize(type);
  std::vector<uint8_t> out;
  out.reserve(bytes);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(op.getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return op.emitOpError("names a dense_resource blob that is not loaded");
    ArrayRef<char> data = blob->getData();
    if (data.size() != bytes)
      return op.emitOpError("dense_resource blob holds ")
             << data.size() << " bytes, the type needs " << bytes;
    out.assign(data.begin(), data.end());
    return out;
  }
  auto dense = cast<DenseElementsAttr>(op.getValue());
  Type element = type.getElementType();
  if (element.isInteger(1)) {
    for (bool b : dense.getValues<bool>())
      out.push_back(b ? 1 : 0);
    return out;
  }
  ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat()) {
    uint64_t elementBytes = *elementByteSize(element);
    for (uint64_t i = 0, n = bytes / elementBytes; i < n; ++i)
      out.insert(out.end(), raw.begin(), raw.begin() + elementBytes);
  } else {
    out.assign(raw.begin(), raw.end());
  }
  if (out.size() != bytes)
    return op.emitOpError("data holds ")
           << out.size() << " bytes, the type needs " << bytes;
  return out;
}

struct Serializer {
  ModuleOp module;
  ProgramOp program;
  rt::ExecutableWriter writer;
  llvm::DenseMap<Attribute, uint32_t> deviceIndex;
  llvm::DenseMap<Operation *, uint32_t> bufferIndex;
  llvm::DenseMap<Operation *, uint32_t> constantIndex;
  /// Kernel of a launch (the symbol's op) -> (source, module or library
  /// index, kernel index).
  struct KernelSlot {
    rt::KernelSource source;
    uint32_t module, kernel;
  };
  llvm::DenseMap<Operation *, KernelSlot> kernels;
  uint64_t planHash = 0;
  bool cpuTargetSet = false;
  /// The pass's timer (steps nest in it) and the report, when asked for.
  Timer timing;
  SerializeStats *stats = nullptr;

  /// The ELF shared object of a cpu executable's LLVM-dialect kernel
  /// module, compiled for the module's cpu target (which it records).
  FailureOr<std::vector<uint8_t>> compileCpuModule(ModuleOp kernelModule);
  /// The SPIR-V binary of a vulkan executable: its kernel module's one
  /// spirv.module (convert-fuel-to-spirv), by mlir::spirv::serialize.
  FailureOr<std::vector<uint8_t>> spirvImage(ExecutableOp exe,
                                             ModuleOp kernelModule);
  LogicalResult devices();
  LogicalResult kernelModules();
  LogicalResult buffers();
  LogicalResult commands();
  FailureOr<rt::BindingRange> binding(Operation *at, Value v);
  LogicalResult alignVulkanBinding(Operation *at, ExecutableOp exe, Value v,
                                   rt::BindingRange &range, rt::Dispatch &d);
};

FailureOr<std::vector<uint8_t>>
Serializer::compileCpuModule(ModuleOp kernelModule) {
  // The target the schedules were applied for (stamped on the kernel
  // module), else the module's topology's, else the host's.
  FailureOr<CpuTargetSpec> target = resolveCpuTarget(kernelModule);
  if (failed(target))
    return failure();
  FailureOr<std::vector<uint8_t>> image = emitCpuSharedObject(
      kernelModule, *target, timing, stats ? &stats->object : nullptr);
  if (failed(image))
    return failure();
  if (!cpuTargetSet) {
    rt::CpuTarget cpu;
    cpu.triple = target->triple;
    cpu.cpu = target->cpu;
    cpu.features = cpuinfoFeatures(*target);
    writer.setCpuTarget(std::move(cpu));
    cpuTargetSet = true;
  }
  return image;
}

FailureOr<std::vector<uint8_t>> Serializer::spirvImage(ExecutableOp exe,
                                                       ModuleOp kernelModule) {
  auto modules = kernelModule.getOps<spirv::ModuleOp>();
  if (modules.empty() || std::next(modules.begin()) != modules.end())
    return exe.emitOpError("needs exactly one spirv.module in its kernel "
                           "module: run convert-fuel-to-spirv first");
  SmallVector<uint32_t> words;
  if (failed(spirv::serialize(*modules.begin(), words)))
    return exe.emitOpError("could not serialize its spirv.module");
  std::vector<uint8_t> bytes(words.size() * sizeof(uint32_t));
  // The words in the executable's (little-endian) byte order.
  for (size_t i = 0; i < words.size(); ++i)
    for (unsigned b = 0; b < 4; ++b)
      bytes[4 * i + b] = static_cast<uint8_t>(words[i] >> (8 * b));
  return bytes;
}

LogicalResult Serializer::devices() {
  for (ArenaOp arena : program.getBodyBlock().getOps<ArenaOp>())
    deviceIndex[arena.getDevice()] = writer.addDevice(
        toPlan(arena.getDevice()), arena.getSize(), arena.getAlign());
  return success();
}

/// Compiles each executable the program launches into its module entry, in
/// module order, and lists its library kernels.
LogicalResult Serializer::kernelModules() {
  // The kernels the launches use, in first-launch order, per executable.
  llvm::MapVector<Operation *, SmallVector<Operation *>> used;
  // Each generated kernel's workspace, as its (first) launch records it.
  llvm::DenseMap<Operation *, uint64_t> workspace;
  for (LaunchOp launch : program.getBodyBlock().getOps<LaunchOp>()) {
    SymbolRefAttr ref = launch.getKernel();
    ExecutableOp exe;
    Operation *kernel = lookupProgramKernel(module, ref, &exe);
    if (!exe || !kernel)
      return launch.emitOpError("names ")
             << ref << ", which is not a kernel of a fuel.executable";
    auto &list = used[exe];
    if (workspace.try_emplace(kernel, 0).second) {
      list.push_back(kernel);
      workspace[kernel] =
          launch.getWorkspaceBytes() ? *launch.getWorkspaceBytes() : 0;
    }
  }
  for (auto &[exeOp, list] : used) {
    auto exe = cast<ExecutableOp>(exeOp);
    auto device = deviceIndex.find(exe.getDevice());
    if (device == deviceIndex.end())
      return exe.emitOpError("runs on ")
             << exe.getDevice().str() << ", which has no arena in the program";
    std::vector<rt::KernelEntry> entries;
    SmallVector<Operation *> generated;
    for (Operation *kernel : list) {
      if (auto lib = dyn_cast<LibraryKernelOp>(kernel)) {
        rt::LibraryKernel l;
        l.device = device->second;
        l.kernelId = lib.getKernelId().str();
        // The format names the shim by its file name, found beside libfuelrt.
        l.shim = "libfuel-shim-" + lib.getShim().str() + ".so";
        l.entry = lib.getEntry().str();
        l.params.assign(lib.getParams().begin(), lib.getParams().end());
        l.workspaceBytes = lib.getWorkspace();
        kernels[kernel] = {rt::KernelSource::Library, 0,
                           writer.addLibraryKernel(std::move(l))};
        if (stats)
          ++stats->libraryKernels;
        continue;
      }
      rt::KernelEntry entry;
      entry.symbol = cast<SymbolOpInterface>(kernel).getName().str();
      entry.workspaceBytes = workspace.lookup(kernel);
      if (exe.getDevice().getKind() == DeviceKind::cuda) {
        // A PTX entry: its name and block size; the parameters are one
        // pointer per binding, in binding order (convert-fuel-to-nvvm).
        auto func = dyn_cast<func::FuncOp>(kernel);
        auto size = kernel->getAttrOfType<DenseI64ArrayAttr>(
            kernel_attr::kWorkgroupSize);
        auto ptxEntry =
            kernel->getAttrOfType<StringAttr>(kernel_attr::kPtxEntry);
        if (!func || !func.isDeclaration() || !size || size.size() != 3 ||
            !ptxEntry)
          return kernel->emitOpError(
              "is not lowered to PTX yet: run convert-fuel-to-nvvm first");
        entry.symbol = ptxEntry.getValue().str();
        for (int64_t s : size.asArrayRef())
          entry.workgroupSize.push_back(static_cast<uint32_t>(s));
      } else if (!exe.getDevice().isHost()) {
        // A SPIR-V entry point: its LocalSize and, per argument i (inputs,
        // then outputs), the slot (set 0, binding i) convert-fuel-to-spirv
        // gave it.
        auto func = dyn_cast<func::FuncOp>(kernel);
        auto size = kernel->getAttrOfType<DenseI64ArrayAttr>(
            kernel_attr::kWorkgroupSize);
        if (!func || !func.isDeclaration() || !size || size.size() != 3)
          return kernel->emitOpError(
              "is not lowered to SPIR-V yet: run convert-fuel-to-spirv first");
        for (int64_t s : size.asArrayRef())
          entry.workgroupSize.push_back(static_cast<uint32_t>(s));
        for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
          entry.bindingLayout.push_back(rt::BindingSlot{0, i});
      }
      kernels[kernel] = {rt::KernelSource::Module, 0, uint32_t(entries.size())};
      entries.push_back(std::move(entry));
      if (stats)
        ++stats->generatedKernels;
      generated.push_back(kernel);
    }
    if (generated.empty())
      continue;
    ModuleOp kernelModule = exe.getKernelModule();
    if (exe.getDevice().getKind() == DeviceKind::cuda) {
      // The PTX text and one NUL byte: cuModuleLoadDataEx reads a C string
      // (docs/EXECUTABLE-FORMAT.md, "CUDA modules").
      FailureOr<StringRef> ptx = getKernelModulePtx(kernelModule);
      if (failed(ptx))
        return failure();
      std::vector<uint8_t> image(ptx->begin(), ptx->end());
      image.push_back(0);
      if (stats)
        ++stats->modules;
      uint32_t moduleIndex = writer.addModule(
          device->second, rt::ModuleFormat::Ptx, std::move(entries),
          rt::ByteSpan{image.data(), image.size()});
      for (Operation *kernel : generated)
        kernels[kernel].module = moduleIndex;
      continue;
    }
    if (!exe.getDevice().isHost()) {
      FailureOr<std::vector<uint8_t>> image = spirvImage(exe, kernelModule);
      if (failed(image))
        return failure();
      if (stats)
        ++stats->modules;
      uint32_t moduleIndex = writer.addModule(
          device->second, rt::ModuleFormat::SpirV, std::move(entries),
          rt::ByteSpan{image->data(), image->size()});
      for (Operation *kernel : generated)
        kernels[kernel].module = moduleIndex;
      continue;
    }
    for (Operation *kernel : generated)
      if (!isa<LLVM::LLVMFuncOp>(kernel))
        return kernel->emitOpError("is not in the LLVM dialect yet: run "
                                   "convert-fuel-to-llvm first");
    FailureOr<std::vector<uint8_t>> image = compileCpuModule(kernelModule);
    if (failed(image))
      return failure();
    if (stats)
      ++stats->modules;
    uint32_t moduleIndex = writer.addModule(
        device->second, rt::ModuleFormat::ElfSharedObject, std::move(entries),
        rt::ByteSpan{image->data(), image->size()});
    for (Operation *kernel : generated)
      kernels[kernel].module = moduleIndex;
  }
  return success();
}

LogicalResult Serializer::buffers() {
  uint32_t inputs = 0, outputs = 0;
  for (BufferOp buffer : program.getBodyBlock().getOps<BufferOp>()) {
    uint32_t device = deviceIndex.lookup(buffer.getDevice());
    auto type = cast<RankedTensorType>(buffer.getType());
    uint64_t bytes = *tensorByteSize(type);
    if (buffer.isInput() || buffer.isOutput()) {
      std::optional<rt::ElementType> dtype = toDtype(type.getElementType());
      if (!dtype)
        return buffer.emitOpError("has element type ")
               << type.getElementType()
               << ", which the executable format has no dtype for";
      uint32_t &count = buffer.isInput() ? inputs : outputs;
      if (*buffer.getIndex() != count)
        return buffer.emitOpError("is ")
               << buffer.getKind() << " " << *buffer.getIndex()
               << ", listed where " << buffer.getKind() << " " << count
               << " belongs";
      ++count;
      std::vector<int64_t> shape(type.getShape().begin(),
                                 type.getShape().end());
      std::string name = buffer.getTensorName()->str();
      uint32_t index = buffer.isInput()
                           ? writer.addInput(std::move(name), *dtype,
                                             std::move(shape), device)
                           : writer.addOutput(std::move(name), *dtype,
                                              std::move(shape), device);
      const auto &specs =
          buffer.isInput() ? writer.program().inputs : writer.program().outputs;
      bufferIndex[buffer] = specs[index].buffer;
      continue;
    }
    rt::BufferSpec spec;
    spec.device = device;
    spec.size = bytes;
    spec.alignment = ::fuel::plan::kDefaultBufferAlignment;
    if (buffer.isArena()) {
      spec.kind = rt::BufferKind::Arena;
      spec.offset = *buffer.getOffset();
    } else {
      spec.kind = rt::BufferKind::Constant;
      auto data = SymbolTable::lookupSymbolIn(module, buffer.getConstantAttr());
      auto op = cast<ConstantDataOp>(data);
      auto [it, inserted] = constantIndex.try_emplace(op.getOperation(), 0);
      if (inserted) {
        FailureOr<std::vector<uint8_t>> bytes = constantBytes(op);
        if (failed(bytes))
          return failure();
        it->second = writer.addConstant(
            op.getSymName().str(), rt::ByteSpan{bytes->data(), bytes->size()});
      }
      spec.index = it->second;
    }
    bufferIndex[buffer] = writer.addBuffer(spec);
  }
  return success();
}

FailureOr<rt::BindingRange> Serializer::binding(Operation *at, Value v) {
  std::optional<BufferRange> range = resolveBufferRange(v);
  if (!range)
    return at->emitOpError("binds a value that is not a buffer");
  return rt::BindingRange{bufferIndex.lookup(range->root), range->offset,
                          range->length};
}

/// A vulkan binding's offset rounded down to the storage-buffer offset
/// alignment, the remainder pushed as the binding's element offset (push
/// constant i for binding i; docs/LOWERING.md, "Binding offsets").
LogicalResult Serializer::alignVulkanBinding(Operation *at, ExecutableOp exe,
                                             Value v, rt::BindingRange &range,
                                             rt::Dispatch &d) {
  // 64 bytes, or the device's alignment where the topology states a larger
  // one (getGpuLimits).
  uint64_t align = kVulkanDefaultStorageBufferOffsetAlignment;
  if (std::optional<::fuel::plan::GpuLimits> limits =
          getGpuLimits(module, toPlan(exe.getDevice())))
    align = std::max<uint64_t>(align, limits->minStorageBufferOffsetAlignment);
  const rt::BufferSpec &spec = writer.program().buffers[range.buffer];
  uint64_t base = spec.kind == rt::BufferKind::Arena ? spec.offset : 0;
  uint64_t remainder = (base + range.offset) % align;
  auto type = cast<RankedTensorType>(v.getType());
  uint64_t elementBytes =
      *tensorByteSize(RankedTensorType::get({1}, type.getElementType()));
  if (remainder > range.offset || remainder % elementBytes != 0)
    return at->emitOpError("binds bytes at offset ")
           << base + range.offset << ", which cannot be rounded down to a "
           << align << "-byte binding offset with a whole element offset";
  range.offset -= remainder;
  range.length += remainder;
  d.pushConstants.push_back(static_cast<uint32_t>(remainder / elementBytes));
  return success();
}

LogicalResult Serializer::commands() {
  std::string planText;
  for (Operation &op : program.getBodyBlock()) {
    if (auto launch = dyn_cast<LaunchOp>(op)) {
      Operation *kernel = lookupProgramKernel(module, launch.getKernel());
      const KernelSlot &slot = kernels[kernel];
      rt::Dispatch d;
      d.source = slot.source;
      d.module = slot.module;
      d.kernel = slot.kernel;
      for (unsigned i = 0; i < 3; ++i)
        d.grid[i] = uint32_t(launch.getGrid()[i]);
      ExecutableOp exe;
      lookupProgramKernel(module, launch.getKernel(), &exe);
      bool vulkan = exe && exe.getDevice().getKind() == DeviceKind::vulkan;
      for (Value v : launch->getOperands()) {
        FailureOr<rt::BindingRange> b = binding(launch, v);
        if (failed(b))
          return failure();
        if (vulkan && failed(alignVulkanBinding(launch, exe, v, *b, d)))
          return failure();
        d.bindings.push_back(*b);
      }
      rt::CommandReport report;
      report.nodeId = launch.getNode() ? *launch.getNode() : -1;
      report.opKind = launch.getOpKind() ? launch.getOpKind()->str() : "";
      report.kernelId = launch.getKernelId() ? launch.getKernelId()->str() : "";
      report.source = launch.getSource() ? launch.getSource()->str() : "";
      report.revision =
          launch.getRevision() ? uint64_t(*launch.getRevision()) : 0;
      report.predictedNs =
          launch.getPredictedNs() ? uint64_t(*launch.getPredictedNs()) : 0;
      planText += std::to_string(report.nodeId) + " " + report.kernelId + " " +
                  report.source + " " + std::to_string(report.revision) + " " +
                  std::to_string(d.grid[0]) + "x" + std::to_string(d.grid[1]) +
                  "x" + std::to_string(d.grid[2]) + "\n";
      std::vector<uint32_t> deps(launch.getAfter().begin(),
                                 launch.getAfter().end());
      writer.addDispatch(std::move(d), std::move(deps), std::move(report));
      if (stats)
        ++stats->launches;
      continue;
    }
    if (auto transfer = dyn_cast<TransferOp>(op)) {
      FailureOr<rt::BindingRange> src = binding(transfer, transfer.getSource());
      FailureOr<rt::BindingRange> dst = binding(transfer, transfer.getTarget());
      if (failed(src) || failed(dst))
        return failure();
      rt::Copy c;
      c.src = src->buffer;
      c.srcOffset = src->offset;
      c.dst = dst->buffer;
      c.dstOffset = dst->offset;
      c.bytes = src->length;
      rt::CommandReport report;
      report.opKind = "copy";
      report.source = "copy";
      report.predictedNs =
          transfer.getPredictedNs() ? uint64_t(*transfer.getPredictedNs()) : 0;
      planText += "copy " + std::to_string(c.bytes) + "\n";
      std::vector<uint32_t> deps(transfer.getAfter().begin(),
                                 transfer.getAfter().end());
      writer.addCopy(c, std::move(deps), std::move(report));
      if (stats)
        ++stats->transfers;
    }
  }
  planHash = llvm::xxh3_64bits(StringRef(planText));
  return success();
}

} // namespace

FailureOr<std::vector<uint8_t>>
mlir::fuel::serializeExecutable(ModuleOp module, Timer timing,
                                SerializeStats *stats) {
  auto start = std::chrono::steady_clock::now();
  if (stats)
    *stats = SerializeStats();
  auto programs = llvm::to_vector(module.getOps<ProgramOp>());
  if (programs.size() != 1) {
    module.emitError("fuel-serialize-executable needs exactly one "
                     "fuel.program, the module has ")
        << programs.size()
        << (programs.empty() ? " (run fuel-plan-buffers first)" : "");
    return failure();
  }
  // The object steps nest in "kernel modules".
  Timer modules = timing.nest("kernel modules");
  Serializer s;
  s.timing = Timer(modules);
  s.stats = stats;
  s.module = module;
  s.program = programs.front();
  s.writer.setFuelVersion(::fuel::target::kFuelVersion);
  s.writer.setFunction(s.program.getSymName().str());
  if (failed(s.devices()))
    return failure();
  {
    TimingScope compiling(modules);
    if (failed(s.kernelModules()))
      return failure();
  }
  {
    TimingScope building(timing.nest("buffers and commands"));
    if (failed(s.buffers()) || failed(s.commands()))
      return failure();
  }
  uint64_t topologyHash = 0;
  if (auto topology =
          module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName))
    topologyHash = topology.getHash();
  s.writer.setHashes(topologyHash, s.planHash);
  std::vector<uint8_t> data;
  {
    TimingScope writing(timing.nest("write"));
    auto bytes = s.writer.finish();
    if (!bytes.isOk()) {
      module.emitError("the executable is invalid: ")
          << bytes.status().message();
      return failure();
    }
    data = std::move(bytes.value());
  }
  if (stats)
    stats->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  return data;
}

namespace {

struct SerializeExecutablePass
    : public mlir::fuel::impl::FuelSerializeExecutablePassBase<
          SerializeExecutablePass> {
  using Base::Base;

  SerializeExecutablePass(FuelSerializeExecutablePassOptions options,
                          Timer passTimers, SerializeStats *stats)
      : Base(std::move(options)), passTimers(passTimers), stats(stats) {}

  SerializeExecutablePass(std::vector<uint8_t> *sink, Timer passTimers,
                          SerializeStats *stats)
      : passTimers(passTimers), stats(stats), sink(sink) {}

  void runOnOperation() override {
    ModuleOp module = getOperation();
    markAllAnalysesPreserved();
    // The timer the pass manager's timing made for this pass (nested by the
    // same key), so the steps show under the pass.
    Timer self = passTimers.nest(getThreadingSiblingOrThis(),
                                 [this] { return getName().str(); });
    FailureOr<std::vector<uint8_t>> bytes =
        serializeExecutable(module, self, stats);
    if (failed(bytes))
      return signalPassFailure();
    if (sink) {
      *sink = std::move(*bytes);
      return;
    }
    const std::vector<uint8_t> &data = *bytes;
    if (failed(
            writeOutputFile(module, output, "executable", [&](raw_ostream &os) {
              os.write(reinterpret_cast<const char *>(data.data()),
                       data.size());
            })))
      return signalPassFailure();
  }

  Timer passTimers;
  SerializeStats *stats = nullptr;
  /// Where the bytes go instead of `output`, when set.
  std::vector<uint8_t> *sink = nullptr;
};

} // namespace

std::unique_ptr<Pass> mlir::fuel::createFuelSerializeExecutablePass(
    FuelSerializeExecutablePassOptions options, Timer passTimers,
    SerializeStats *stats) {
  return std::make_unique<SerializeExecutablePass>(std::move(options),
                                                   passTimers, stats);
}

std::unique_ptr<Pass> mlir::fuel::createFuelSerializeExecutablePass(
    std::vector<uint8_t> *bytes, Timer passTimers, SerializeStats *stats) {
  return std::make_unique<SerializeExecutablePass>(bytes, passTimers, stats);
}
