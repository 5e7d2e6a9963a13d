//===- ExecutableWriter.cpp - Serializes a Program ------------------------===//
//
// Lays out header, segment table, FlatBuffers metadata and the trailing
// segments (kernel modules, then constants, each in list order) as
// docs/EXECUTABLE-FORMAT.md describes; every gap is zero, so that equal
// Programs give equal bytes and the loader can demand zero padding.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ExecutableWriter.h"

#include "fuel-c/KernelABI.h"
#include "fuel/Runtime/Checksum.h"
#include "fuel/Runtime/ExecutableFormat.h"

#include "executable_generated.h"

#include <flatbuffers/flatbuffers.h>

#include <cstring>

namespace fuel::rt {

namespace fbs = ::fuel::rt::fb;

namespace {

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

flatbuffers::Offset<
    flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>>
stringVector(flatbuffers::FlatBufferBuilder &b,
             const std::vector<std::string> &strings) {
  std::vector<flatbuffers::Offset<flatbuffers::String>> offsets;
  offsets.reserve(strings.size());
  for (const std::string &s : strings)
    offsets.push_back(b.CreateString(s));
  return b.CreateVector(offsets);
}

flatbuffers::Offset<fbs::TensorDef> tensorDef(flatbuffers::FlatBufferBuilder &b,
                                              const TensorSpec &t) {
  auto name = b.CreateString(t.name);
  auto shape = b.CreateVector(t.shape);
  return fbs::CreateTensorDef(b, name, static_cast<fbs::DType>(t.dtype), shape,
                              t.residency, t.buffer);
}

flatbuffers::Offset<fbs::ReportDef> reportDef(flatbuffers::FlatBufferBuilder &b,
                                              const CommandReport &r) {
  auto opKind = b.CreateString(r.opKind);
  auto kernelId = b.CreateString(r.kernelId);
  auto source = b.CreateString(r.source);
  return fbs::CreateReportDef(b, r.nodeId, opKind, kernelId, source, r.revision,
                              r.predictedNs);
}

/// The FlatBuffers metadata of `p`; module i refers to segment i, constant k
/// to segment modules.size() + k.
std::vector<uint8_t> buildMetadata(const Program &p) {
  flatbuffers::FlatBufferBuilder b(4096);

  auto fuelVersion = b.CreateString(p.fuelVersion);
  auto function = b.CreateString(p.function);

  std::vector<flatbuffers::Offset<fbs::DeviceDef>> devices;
  for (const DeviceRequirement &d : p.devices)
    devices.push_back(
        fbs::CreateDeviceDef(b, static_cast<fbs::DeviceKind>(d.device.kind),
                             d.device.ordinal, d.arenaBytes, d.arenaAlignment));
  auto devicesVec = b.CreateVector(devices);

  auto triple = b.CreateString(p.cpuTarget.triple);
  auto cpu = b.CreateString(p.cpuTarget.cpu);
  auto features = stringVector(b, p.cpuTarget.features);
  auto cpuTarget = fbs::CreateCpuTargetDef(b, triple, cpu, features);

  std::vector<flatbuffers::Offset<fbs::ModuleDef>> modules;
  for (size_t m = 0; m < p.modules.size(); ++m) {
    const KernelModule &mod = p.modules[m];
    std::vector<flatbuffers::Offset<fbs::KernelDef>> kernels;
    for (const KernelEntry &k : mod.kernels) {
      auto symbol = b.CreateString(k.symbol);
      auto wg = b.CreateVector(k.workgroupSize);
      std::vector<fbs::BindingSlotDef> slots;
      for (const BindingSlot &s : k.bindingLayout)
        slots.emplace_back(s.set, s.binding);
      auto layout = b.CreateVectorOfStructs(slots);
      kernels.push_back(
          fbs::CreateKernelDef(b, symbol, k.workspaceBytes, wg, layout));
    }
    auto kernelsVec = b.CreateVector(kernels);
    modules.push_back(fbs::CreateModuleDef(
        b, mod.device, static_cast<fbs::ModuleFormat>(mod.format),
        static_cast<uint32_t>(m), kernelsVec));
  }
  auto modulesVec = b.CreateVector(modules);

  std::vector<flatbuffers::Offset<fbs::LibraryKernelDef>> libs;
  for (const LibraryKernel &l : p.libraryKernels) {
    auto id = b.CreateString(l.kernelId);
    auto shim = b.CreateString(l.shim);
    auto entry = b.CreateString(l.entry);
    auto params = b.CreateVector(l.params);
    libs.push_back(fbs::CreateLibraryKernelDef(b, l.device, id, shim, entry,
                                               params, l.workspaceBytes));
  }
  auto libsVec = b.CreateVector(libs);

  std::vector<flatbuffers::Offset<fbs::ConstantDef>> constants;
  for (size_t c = 0; c < p.constants.size(); ++c) {
    auto name = b.CreateString(p.constants[c].name);
    constants.push_back(fbs::CreateConstantDef(
        b, name, static_cast<uint32_t>(p.modules.size() + c)));
  }
  auto constantsVec = b.CreateVector(constants);

  std::vector<flatbuffers::Offset<fbs::BufferDef>> buffers;
  for (const BufferSpec &buf : p.buffers)
    buffers.push_back(fbs::CreateBufferDef(
        b, static_cast<fbs::BufferKind>(buf.kind), buf.device, buf.size,
        buf.alignment, buf.offset, buf.index));
  auto buffersVec = b.CreateVector(buffers);

  std::vector<flatbuffers::Offset<fbs::TensorDef>> inputs, outputs;
  for (const TensorSpec &t : p.inputs)
    inputs.push_back(tensorDef(b, t));
  for (const TensorSpec &t : p.outputs)
    outputs.push_back(tensorDef(b, t));
  auto inputsVec = b.CreateVector(inputs);
  auto outputsVec = b.CreateVector(outputs);

  std::vector<flatbuffers::Offset<fbs::CommandDef>> commands;
  for (const CommandSpec &c : p.commands) {
    flatbuffers::Offset<void> op;
    fbs::CommandOp opType;
    if (c.kind == CommandKind::Dispatch) {
      const Dispatch &d = c.dispatch;
      auto grid = b.CreateVector(d.grid.data(), d.grid.size());
      std::vector<fbs::BindingRangeDef> ranges;
      for (const BindingRange &r : d.bindings)
        ranges.emplace_back(r.buffer, r.offset, r.length);
      auto bindings = b.CreateVectorOfStructs(ranges);
      auto push = b.CreateVector(d.pushConstants);
      op = fbs::CreateDispatchDef(b, static_cast<fbs::KernelSource>(d.source),
                                  d.module, d.kernel, grid, bindings, push)
               .Union();
      opType = fbs::CommandOp::DispatchDef;
    } else {
      const Copy &cp = c.copy;
      op = fbs::CreateCopyDef(b, cp.src, cp.srcOffset, cp.dst, cp.dstOffset,
                              cp.bytes)
               .Union();
      opType = fbs::CommandOp::CopyDef;
    }
    auto deps = b.CreateVector(c.dependencies);
    auto report = reportDef(b, c.report);
    commands.push_back(fbs::CreateCommandDef(b, opType, op, deps, report));
  }
  auto commandsVec = b.CreateVector(commands);

  auto root = fbs::CreateExecutableDef(
      b, p.formatVersion, fuelVersion, p.kernelAbiVersion, p.topologyHash,
      p.planHash, function, devicesVec, cpuTarget, modulesVec, libsVec,
      constantsVec, buffersVec, inputsVec, outputsVec, commandsVec);
  fbs::FinishExecutableDefBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(),
                              b.GetBufferPointer() + b.GetSize());
}

} // namespace

ExecutableWriter::ExecutableWriter() {
  program_.kernelAbiVersion = FUEL_KERNEL_ABI_VERSION;
}

uint32_t ExecutableWriter::addDevice(Device device, uint64_t arenaBytes,
                                     uint64_t arenaAlignment) {
  program_.devices.push_back({device, arenaBytes, arenaAlignment});
  return static_cast<uint32_t>(program_.devices.size() - 1);
}

uint32_t ExecutableWriter::addModule(uint32_t device, ModuleFormat format,
                                     std::vector<KernelEntry> kernels,
                                     ByteSpan image) {
  storage_.emplace_back(image.begin(), image.end());
  const std::vector<uint8_t> &copy = storage_.back();
  program_.modules.push_back(
      {device, format, std::move(kernels), {copy.data(), copy.size()}});
  return static_cast<uint32_t>(program_.modules.size() - 1);
}

uint32_t ExecutableWriter::addLibraryKernel(LibraryKernel kernel) {
  program_.libraryKernels.push_back(std::move(kernel));
  return static_cast<uint32_t>(program_.libraryKernels.size() - 1);
}

uint32_t ExecutableWriter::addConstant(std::string name, ByteSpan data) {
  storage_.emplace_back(data.begin(), data.end());
  const std::vector<uint8_t> &copy = storage_.back();
  program_.constants.push_back({std::move(name), {copy.data(), copy.size()}});
  return static_cast<uint32_t>(program_.constants.size() - 1);
}

uint32_t ExecutableWriter::addBuffer(BufferSpec buffer) {
  program_.buffers.push_back(buffer);
  return static_cast<uint32_t>(program_.buffers.size() - 1);
}

uint32_t ExecutableWriter::addArenaBuffer(uint32_t device, uint64_t size,
                                          uint64_t offset, uint64_t alignment) {
  BufferSpec b;
  b.kind = BufferKind::Arena;
  b.device = device;
  b.size = size;
  b.offset = offset;
  b.alignment = alignment;
  return addBuffer(b);
}

/// Appends `tensor` to `list` (the program's inputs or outputs) with its
/// external buffer of `kind`; returns its index in `list`.
static uint32_t addExternal(ExecutableWriter &w, std::vector<TensorSpec> &list,
                            BufferKind kind, TensorSpec tensor) {
  BufferSpec b;
  b.kind = kind;
  b.device = tensor.residency;
  b.size = tensorByteSize(tensor);
  b.index = static_cast<uint32_t>(list.size());
  tensor.buffer = w.addBuffer(b);
  list.push_back(std::move(tensor));
  return b.index;
}

uint32_t ExecutableWriter::addInput(std::string name, ElementType dtype,
                                    std::vector<int64_t> shape,
                                    uint32_t residency) {
  return addExternal(*this, program_.inputs, BufferKind::Input,
                     {std::move(name), dtype, std::move(shape), residency, 0});
}

uint32_t ExecutableWriter::addOutput(std::string name, ElementType dtype,
                                     std::vector<int64_t> shape,
                                     uint32_t residency) {
  return addExternal(*this, program_.outputs, BufferKind::Output,
                     {std::move(name), dtype, std::move(shape), residency, 0});
}

uint32_t ExecutableWriter::addDispatch(Dispatch dispatch,
                                       std::vector<uint32_t> dependencies,
                                       CommandReport report) {
  CommandSpec c;
  c.kind = CommandKind::Dispatch;
  c.dispatch = std::move(dispatch);
  c.dependencies = std::move(dependencies);
  c.report = std::move(report);
  program_.commands.push_back(std::move(c));
  return static_cast<uint32_t>(program_.commands.size() - 1);
}

uint32_t ExecutableWriter::addCopy(Copy copy,
                                   std::vector<uint32_t> dependencies,
                                   CommandReport report) {
  CommandSpec c;
  c.kind = CommandKind::Copy;
  c.copy = copy;
  c.dependencies = std::move(dependencies);
  c.report = std::move(report);
  program_.commands.push_back(std::move(c));
  return static_cast<uint32_t>(program_.commands.size() - 1);
}

StatusOr<std::vector<uint8_t>>
ExecutableWriter::finish(const WriteOptions &options) const {
  return writeExecutable(program_, options);
}

StatusOr<std::vector<uint8_t>> writeExecutable(const Program &program,
                                               const WriteOptions &options) {
  using namespace format;
  if (options.verify) {
    LoadOptions checks;
    checks.checkCpuFeatures = false;
    if (Status s = verifyProgram(program, checks); !s)
      return s.withContext("writing executable");
  }

  std::vector<uint8_t> metadata = buildMetadata(program);

  struct Segment {
    SegmentKind kind;
    ByteSpan data;
    uint64_t offset;
  };
  std::vector<Segment> segments;
  for (const KernelModule &m : program.modules)
    segments.push_back({SegmentKind::KernelModule, m.image, 0});
  for (const Constant &c : program.constants)
    segments.push_back({SegmentKind::Constant, c.data, 0});

  uint64_t headerSize = kFixedHeaderSize + kSegmentEntrySize * segments.size();
  uint64_t metadataOffset = alignUp(headerSize, kMetadataAlignment);
  uint64_t end = metadataOffset + metadata.size();
  for (Segment &s : segments) {
    s.offset = alignUp(end, segmentAlignment(s.kind));
    end = s.offset + s.data.size;
  }

  std::vector<uint8_t> file(end, 0);
  uint8_t *f = file.data();
  std::memcpy(f + kMagicOffset, kMagic, sizeof(kMagic));
  writeU32(f + kFormatVersionOffset, kExecutableFormatVersion);
  writeU32(f + kHeaderSizeOffset, static_cast<uint32_t>(headerSize));
  writeU64(f + kFileSizeOffset, end);
  writeU64(f + kMetadataOffsetOffset, metadataOffset);
  writeU64(f + kMetadataSizeOffset, metadata.size());
  writeU64(f + kMetadataChecksumOffset,
           xxh64(metadata.data(), metadata.size()));
  writeU32(f + kSegmentCountOffset, static_cast<uint32_t>(segments.size()));
  writeU32(f + kFlagsOffset, 0);
  for (size_t i = 0; i < segments.size(); ++i) {
    uint8_t *e = f + kFixedHeaderSize + kSegmentEntrySize * i;
    const Segment &s = segments[i];
    writeU64(e + kSegmentOffsetOffset, s.offset);
    writeU64(e + kSegmentSizeOffset, s.data.size);
    writeU64(e + kSegmentChecksumOffset, xxh64(s.data.data, s.data.size));
    writeU32(e + kSegmentKindOffset, static_cast<uint32_t>(s.kind));
    writeU32(e + kSegmentReservedOffset, 0);
    if (s.data.size)
      std::memcpy(f + s.offset, s.data.data, s.data.size);
  }
  std::memcpy(f + metadataOffset, metadata.data(), metadata.size());
  resealHeader(f, file.size());
  return file;
}

namespace format {

bool resealHeader(uint8_t *bytes, size_t size) {
  if (size < kFixedHeaderSize)
    return false;
  uint64_t headerSize = readU32(bytes + kHeaderSizeOffset);
  if (headerSize < kFixedHeaderSize || headerSize > size)
    return false;
  writeU64(
      bytes + kHeaderChecksumOffset,
      xxh64(bytes + kFormatVersionOffset, headerSize - kFormatVersionOffset));
  return true;
}

} // namespace format

} // namespace fuel::rt
