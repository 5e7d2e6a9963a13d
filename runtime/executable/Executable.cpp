//===- Executable.cpp - Loads and verifies fuel executables ---------------===//
//
// The loader's order (docs/EXECUTABLE-FORMAT.md, "Verification"):
//   1. header: length, magic, format version, header checksum, then every
//      offset and size against the file's length;
//   2. checksums of the metadata and of every segment, and zero padding, so
//      that every byte of the file is covered before anything is parsed;
//   3. the FlatBuffers verifier on the metadata;
//   4. decoding (every enum value known) and verifyProgram (meaning).
// Nothing is allocated from a size the file states before that size has
// been checked against the file's length.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Executable.h"

#include "fuel/Runtime/Checksum.h"
#include "fuel/Runtime/ExecutableFormat.h"

#include "executable_generated.h"

#include <flatbuffers/flatbuffers.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fuel::rt {

namespace fbs = ::fuel::rt::fb;
using namespace format;

namespace {

Status dataLoss(const std::string &section, const std::string &what) {
  return Status::error(StatusCode::DataLoss, section + ": " + what);
}

std::string hex(uint64_t v) {
  char buf[19];
  std::snprintf(buf, sizeof(buf), "0x%016llx",
                static_cast<unsigned long long>(v));
  return buf;
}

/// The segment table entry i, as read from the header.
struct SegmentEntry {
  uint64_t offset, size, checksum;
  uint32_t kind, reserved;
};

SegmentEntry readSegment(const uint8_t *file, size_t i) {
  const uint8_t *e = file + kFixedHeaderSize + kSegmentEntrySize * i;
  return {readU64(e + kSegmentOffsetOffset), readU64(e + kSegmentSizeOffset),
          readU64(e + kSegmentChecksumOffset), readU32(e + kSegmentKindOffset),
          readU32(e + kSegmentReservedOffset)};
}

/// Bytes [from, to) are zero.
bool zeroes(const uint8_t *file, uint64_t from, uint64_t to) {
  for (uint64_t i = from; i < to; ++i)
    if (file[i] != 0)
      return false;
  return true;
}

/// Steps 1 and 2: the container, before any metadata is parsed.
Status checkContainer(const uint8_t *file, size_t size,
                      std::vector<SegmentEntry> &segments,
                      uint64_t &metadataOffset, uint64_t &metadataSize) {
  if (size < kFixedHeaderSize)
    return dataLoss("header", "the file is " + std::to_string(size) +
                                  " bytes, shorter than the " +
                                  std::to_string(kFixedHeaderSize) +
                                  "-byte header (truncated?)");
  if (std::memcmp(file, kMagic, sizeof(kMagic)) != 0)
    return Status::error(StatusCode::InvalidArgument,
                         "header.magic: not a fuel executable (the file does "
                         "not start with \"FUELEXEC\")");
  uint32_t version = readU32(file + kFormatVersionOffset);
  if (version > kExecutableFormatVersion)
    return Status::error(StatusCode::Unimplemented,
                         "header.format_version: version " +
                             std::to_string(version) +
                             " is newer than this runtime reads (" +
                             std::to_string(kExecutableFormatVersion) +
                             "); use a newer fuel runtime");
  if (version < 1)
    return Status::error(StatusCode::Unimplemented,
                         "header.format_version: version " +
                             std::to_string(version) + " is not supported");

  uint64_t headerSize = readU32(file + kHeaderSizeOffset);
  uint64_t segmentCount = readU32(file + kSegmentCountOffset);
  if (headerSize > size)
    return dataLoss("header.header_size",
                    std::to_string(headerSize) + " bytes, but the file has " +
                        std::to_string(size) + " (truncated?)");
  if (headerSize != kFixedHeaderSize + kSegmentEntrySize * segmentCount)
    return dataLoss("header.header_size",
                    std::to_string(headerSize) + " does not fit " +
                        std::to_string(segmentCount) + " segments");
  uint64_t checksum =
      xxh64(file + kFormatVersionOffset, headerSize - kFormatVersionOffset);
  if (checksum != readU64(file + kHeaderChecksumOffset))
    return dataLoss("header", "checksum mismatch (stored " +
                                  hex(readU64(file + kHeaderChecksumOffset)) +
                                  ", computed " + hex(checksum) + ")");
  // From here the header's own bytes are trusted; its numbers are not.
  uint64_t fileSize = readU64(file + kFileSizeOffset);
  if (fileSize != size)
    return dataLoss("header.file_size",
                    "the header says " + std::to_string(fileSize) +
                        " bytes, the file has " + std::to_string(size) +
                        (size < fileSize ? " (truncated)" : ""));
  if (readU32(file + kFlagsOffset) != 0)
    return Status::error(StatusCode::Unimplemented,
                         "header.flags: unknown flags " +
                             hex(readU32(file + kFlagsOffset)));

  metadataOffset = readU64(file + kMetadataOffsetOffset);
  metadataSize = readU64(file + kMetadataSizeOffset);
  if (metadataOffset < headerSize || metadataOffset % kMetadataAlignment != 0 ||
      metadataOffset - headerSize >= kMetadataAlignment)
    return dataLoss("header.metadata_offset",
                    std::to_string(metadataOffset) +
                        " is not the 16-aligned end of the header");
  if (metadataOffset > size || metadataSize > size - metadataOffset)
    return dataLoss("header.metadata_size",
                    std::to_string(metadataSize) + " bytes from offset " +
                        std::to_string(metadataOffset) +
                        " run past the end of the " + std::to_string(size) +
                        "-byte file");
  if (!zeroes(file, headerSize, metadataOffset))
    return dataLoss("header", "padding after the segment table is not zero");
  checksum = xxh64(file + metadataOffset, metadataSize);
  if (checksum != readU64(file + kMetadataChecksumOffset))
    return dataLoss("metadata",
                    "checksum mismatch (stored " +
                        hex(readU64(file + kMetadataChecksumOffset)) +
                        ", computed " + hex(checksum) + ")");

  // The segment count is bounded by the header size, itself within the file.
  segments.reserve(segmentCount);
  uint64_t end = metadataOffset + metadataSize;
  for (uint64_t i = 0; i < segmentCount; ++i) {
    SegmentEntry s = readSegment(file, i);
    std::string section = "segments[" + std::to_string(i) + "]";
    uint64_t alignment = segmentAlignment(static_cast<SegmentKind>(s.kind));
    if (alignment == 0)
      return dataLoss(section + ".kind",
                      "unknown segment kind " + std::to_string(s.kind));
    if (s.reserved != 0)
      return dataLoss(section, "reserved field is not zero");
    if (s.offset % alignment != 0)
      return dataLoss(section + ".offset",
                      std::to_string(s.offset) + " is not " +
                          std::to_string(alignment) + "-byte aligned");
    if (s.offset < end || s.offset - end >= alignment)
      return dataLoss(section + ".offset",
                      std::to_string(s.offset) +
                          " does not follow the previous section at " +
                          std::to_string(end));
    if (s.offset > size || s.size > size - s.offset)
      return dataLoss(section + ".size",
                      std::to_string(s.size) + " bytes from offset " +
                          std::to_string(s.offset) +
                          " run past the end of the " + std::to_string(size) +
                          "-byte file");
    if (!zeroes(file, end, s.offset))
      return dataLoss(section, "padding before the segment is not zero");
    checksum = xxh64(file + s.offset, s.size);
    if (checksum != s.checksum)
      return dataLoss(section, "checksum mismatch (stored " + hex(s.checksum) +
                                   ", computed " + hex(checksum) + ")");
    end = s.offset + s.size;
    segments.push_back(s);
  }
  if (end != size)
    return dataLoss("header", std::to_string(size - end) +
                                  " bytes follow the last section");
  return Status::ok();
}

std::string str(const flatbuffers::String *s) {
  return s ? std::string(s->c_str(), s->size()) : std::string();
}

template <class T> std::vector<T> vec(const flatbuffers::Vector<T> *v) {
  return v ? std::vector<T>(v->begin(), v->end()) : std::vector<T>();
}

/// The FlatBuffers 2.0.8 verifier checks the alignment of a vector's length
/// but not of its elements; 8-byte elements are checked here before they are
/// read. An empty vector has no element to read, and the 2.0.8 builder aligns
/// it only for its length (4 bytes): the shape of a rank-0 tensor is such a
/// vector, so the check applies to vectors with at least one element.
template <class T>
Status checkAligned(const flatbuffers::Vector<T> *v, const std::string &field) {
  if (v && v->size() != 0 &&
      reinterpret_cast<uintptr_t>(v->data()) % alignof(T) != 0)
    return Status::error(StatusCode::InvalidArgument,
                         field + ": misaligned vector");
  return Status::ok();
}

template <class T> size_t count(const flatbuffers::Vector<T> *v) {
  return v ? v->size() : 0;
}

Status unknownEnum(const std::string &field, unsigned value) {
  return Status::error(StatusCode::InvalidArgument,
                       field + ": unknown value " + std::to_string(value));
}

Status decodeTensor(const fbs::TensorDef *t, const std::string &field,
                    TensorSpec &out) {
  if (!t)
    return Status::error(StatusCode::InvalidArgument, field + ": missing");
  out.name = str(t->name());
  if (static_cast<unsigned>(t->dtype()) >
      static_cast<unsigned>(ElementType::Bool))
    return unknownEnum(field + ".dtype", static_cast<unsigned>(t->dtype()));
  out.dtype = static_cast<ElementType>(t->dtype());
  FUEL_RT_RETURN_IF_ERROR(checkAligned(t->shape(), field + ".shape"));
  out.shape = vec(t->shape());
  out.residency = t->residency();
  out.buffer = t->buffer();
  return Status::ok();
}

/// Step 4a: the verified FlatBuffer as a Program whose spans point into
/// `file`. Segment references are resolved here: each segment of the right
/// kind, and each used exactly once.
Status decode(const fbs::ExecutableDef *e, const uint8_t *file,
              const std::vector<SegmentEntry> &segments, Program &p) {
  auto missing = [](const std::string &field) {
    return Status::error(StatusCode::InvalidArgument, field + ": missing");
  };
  p.formatVersion = e->format_version();
  p.fuelVersion = str(e->fuel_version());
  p.kernelAbiVersion = e->kernel_abi_version();
  p.topologyHash = e->topology_hash();
  p.planHash = e->plan_hash();
  p.function = str(e->function());

  std::vector<bool> used(segments.size(), false);
  auto segment = [&](const std::string &field, uint32_t index, SegmentKind kind,
                     ByteSpan &span) -> Status {
    if (index >= segments.size())
      return Status::error(StatusCode::OutOfRange,
                           field + ".segment: " + std::to_string(index) +
                               " is not an index into the " +
                               std::to_string(segments.size()) + " segments");
    if (segments[index].kind != static_cast<uint32_t>(kind))
      return Status::error(StatusCode::InvalidArgument,
                           field + ".segment: segment " +
                               std::to_string(index) + " is of another kind");
    if (used[index])
      return Status::error(StatusCode::InvalidArgument,
                           field + ".segment: segment " +
                               std::to_string(index) + " is used twice");
    used[index] = true;
    span = {file + segments[index].offset,
            static_cast<size_t>(segments[index].size)};
    return Status::ok();
  };

  if (auto *ds = e->devices()) {
    p.devices.reserve(ds->size());
    for (size_t i = 0; i < ds->size(); ++i) {
      const fbs::DeviceDef *d = ds->Get(i);
      std::string field = "devices[" + std::to_string(i) + "]";
      if (!d)
        return missing(field);
      auto kind = static_cast<unsigned>(d->kind());
      if (kind > static_cast<unsigned>(DeviceKind::Vulkan))
        return unknownEnum(field + ".kind", kind);
      p.devices.push_back({Device{static_cast<DeviceKind>(kind), d->ordinal()},
                           d->arena_bytes(), d->arena_alignment()});
    }
  }
  if (auto *t = e->cpu_target()) {
    p.cpuTarget.triple = str(t->triple());
    p.cpuTarget.cpu = str(t->cpu());
    if (auto *fs = t->features())
      for (const flatbuffers::String *f : *fs)
        p.cpuTarget.features.push_back(str(f));
  }
  if (auto *ms = e->modules()) {
    for (size_t m = 0; m < ms->size(); ++m) {
      const fbs::ModuleDef *md = ms->Get(m);
      std::string field = "modules[" + std::to_string(m) + "]";
      if (!md)
        return missing(field);
      KernelModule mod;
      mod.device = md->device();
      auto format = static_cast<unsigned>(md->format());
      if (format > static_cast<unsigned>(ModuleFormat::Ptx))
        return unknownEnum(field + ".format", format);
      mod.format = static_cast<ModuleFormat>(format);
      FUEL_RT_RETURN_IF_ERROR(
          segment(field, md->segment(), SegmentKind::KernelModule, mod.image));
      if (auto *ks = md->kernels()) {
        for (size_t k = 0; k < ks->size(); ++k) {
          const fbs::KernelDef *kd = ks->Get(k);
          if (!kd)
            return missing(field + ".kernels[" + std::to_string(k) + "]");
          KernelEntry entry;
          entry.symbol = str(kd->symbol());
          entry.workspaceBytes = kd->workspace_bytes();
          entry.workgroupSize = vec(kd->workgroup_size());
          if (auto *layout = kd->binding_layout())
            for (const fbs::BindingSlotDef *s : *layout)
              entry.bindingLayout.push_back({s->set(), s->binding()});
          mod.kernels.push_back(std::move(entry));
        }
      }
      p.modules.push_back(std::move(mod));
    }
  }
  if (auto *ls = e->library_kernels()) {
    for (size_t l = 0; l < ls->size(); ++l) {
      const fbs::LibraryKernelDef *ld = ls->Get(l);
      std::string field = "library_kernels[" + std::to_string(l) + "]";
      if (!ld)
        return missing(field);
      FUEL_RT_RETURN_IF_ERROR(checkAligned(ld->params(), field + ".params"));
      p.libraryKernels.push_back({ld->device(), str(ld->kernel_id()),
                                  str(ld->shim()), str(ld->entry()),
                                  vec(ld->params()), ld->workspace_bytes()});
    }
  }
  if (auto *cs = e->constants()) {
    for (size_t c = 0; c < cs->size(); ++c) {
      const fbs::ConstantDef *cd = cs->Get(c);
      std::string field = "constants[" + std::to_string(c) + "]";
      if (!cd)
        return missing(field);
      Constant constant;
      constant.name = str(cd->name());
      FUEL_RT_RETURN_IF_ERROR(
          segment(field, cd->segment(), SegmentKind::Constant, constant.data));
      p.constants.push_back(std::move(constant));
    }
  }
  for (size_t i = 0; i < used.size(); ++i)
    if (!used[i])
      return Status::error(StatusCode::InvalidArgument,
                           "segments[" + std::to_string(i) +
                               "]: referenced by no module or constant");
  if (auto *bs = e->buffers()) {
    p.buffers.reserve(bs->size());
    for (size_t i = 0; i < bs->size(); ++i) {
      const fbs::BufferDef *bd = bs->Get(i);
      std::string field = "buffers[" + std::to_string(i) + "]";
      if (!bd)
        return missing(field);
      auto kind = static_cast<unsigned>(bd->kind());
      if (kind > static_cast<unsigned>(BufferKind::Constant))
        return unknownEnum(field + ".kind", kind);
      BufferSpec b;
      b.kind = static_cast<BufferKind>(kind);
      b.device = bd->device();
      b.size = bd->size();
      b.alignment = bd->alignment();
      b.offset = bd->offset();
      b.index = bd->index();
      p.buffers.push_back(b);
    }
  }
  for (size_t i = 0; i < count(e->inputs()); ++i) {
    TensorSpec t;
    FUEL_RT_RETURN_IF_ERROR(decodeTensor(
        e->inputs()->Get(i), "inputs[" + std::to_string(i) + "]", t));
    p.inputs.push_back(std::move(t));
  }
  for (size_t i = 0; i < count(e->outputs()); ++i) {
    TensorSpec t;
    FUEL_RT_RETURN_IF_ERROR(decodeTensor(
        e->outputs()->Get(i), "outputs[" + std::to_string(i) + "]", t));
    p.outputs.push_back(std::move(t));
  }
  if (auto *cs = e->commands()) {
    p.commands.reserve(cs->size());
    for (size_t c = 0; c < cs->size(); ++c) {
      const fbs::CommandDef *cd = cs->Get(c);
      std::string field = "commands[" + std::to_string(c) + "]";
      if (!cd)
        return missing(field);
      CommandSpec cmd;
      if (auto *d = cd->op_as_DispatchDef()) {
        cmd.kind = CommandKind::Dispatch;
        auto source = static_cast<unsigned>(d->source());
        if (source > static_cast<unsigned>(KernelSource::Library))
          return unknownEnum(field + ".source", source);
        cmd.dispatch.source = static_cast<KernelSource>(source);
        cmd.dispatch.module = d->kernel_module();
        cmd.dispatch.kernel = d->kernel();
        if (count(d->grid()) != 3)
          return Status::error(
              StatusCode::InvalidArgument,
              field + ".grid: " + std::to_string(count(d->grid())) +
                  " dimensions, not 3");
        for (int g = 0; g < 3; ++g)
          cmd.dispatch.grid[g] = d->grid()->Get(g);
        FUEL_RT_RETURN_IF_ERROR(
            checkAligned(d->bindings(), field + ".bindings"));
        if (auto *bs = d->bindings())
          for (const fbs::BindingRangeDef *r : *bs)
            cmd.dispatch.bindings.push_back(
                {r->buffer(), r->offset(), r->length()});
        cmd.dispatch.pushConstants = vec(d->push_constants());
      } else if (auto *cp = cd->op_as_CopyDef()) {
        cmd.kind = CommandKind::Copy;
        cmd.copy = {cp->src(), cp->src_offset(), cp->dst(), cp->dst_offset(),
                    cp->bytes()};
      } else {
        return Status::error(
            StatusCode::InvalidArgument,
            field + ".op: missing or unknown command type " +
                std::to_string(static_cast<unsigned>(cd->op_type())));
      }
      cmd.dependencies = vec(cd->dependencies());
      if (auto *r = cd->report())
        cmd.report = {r->node_id(),     str(r->op_kind()), str(r->kernel_id()),
                      str(r->source()), r->revision(),     r->predicted_ns()};
      p.commands.push_back(std::move(cmd));
    }
  }
  return Status::ok();
}

} // namespace

Executable::~Executable() {
  if (mapping_)
    ::munmap(mapping_, mappingSize_);
  std::free(owned_);
}

StatusOr<std::unique_ptr<Executable>>
Executable::finishLoad(std::unique_ptr<Executable> exe,
                       const LoadOptions &options) {
  const uint8_t *file = exe->bytes_.data;
  size_t size = exe->bytes_.size;
  std::vector<SegmentEntry> segments;
  uint64_t metadataOffset = 0, metadataSize = 0;
  FUEL_RT_RETURN_IF_ERROR(
      checkContainer(file, size, segments, metadataOffset, metadataSize));

  const uint8_t *metadata = file + metadataOffset;
  // FlatBuffers asserts on buffers of 2 GiB or more; refuse them first.
  if (metadataSize >= FLATBUFFERS_MAX_BUFFER_SIZE)
    return Status::error(StatusCode::OutOfRange,
                         "metadata: " + std::to_string(metadataSize) +
                             " bytes, beyond the FlatBuffers limit");
  if (metadataSize < 8 || !fbs::ExecutableDefBufferHasIdentifier(metadata))
    return Status::error(StatusCode::InvalidArgument,
                         "metadata: file identifier is not \"FUEL\"");
  // Depth and table limits well above what any plan needs, so that a
  // hostile buffer cannot make the verifier itself expensive.
  flatbuffers::Verifier verifier(metadata, metadataSize, /*max_depth=*/64,
                                 /*max_tables=*/1u << 22);
  if (!fbs::VerifyExecutableDefBuffer(verifier))
    return Status::error(StatusCode::DataLoss,
                         "metadata: the FlatBuffers verifier rejects it");
  const fbs::ExecutableDef *def = fbs::GetExecutableDef(metadata);
  if (def->format_version() != readU32(file + kFormatVersionOffset))
    return Status::error(
        StatusCode::InvalidArgument,
        "metadata.format_version: " + std::to_string(def->format_version()) +
            " differs from the header's " +
            std::to_string(readU32(file + kFormatVersionOffset)));

  FUEL_RT_RETURN_IF_ERROR(decode(def, file, segments, exe->program_));
  FUEL_RT_RETURN_IF_ERROR(verifyProgram(exe->program_, options));
  return exe;
}

StatusOr<std::unique_ptr<Executable>>
Executable::loadUnowned(const void *data, size_t size,
                        const LoadOptions &options) {
  if (!data && size)
    return Status::error(StatusCode::InvalidArgument, "executable: null data");
  if (reinterpret_cast<uintptr_t>(data) % kModuleAlignment != 0)
    return Status::error(StatusCode::InvalidArgument,
                         "executable: bytes are not 64-byte aligned");
  std::unique_ptr<Executable> exe(new Executable());
  exe->bytes_ = {static_cast<const uint8_t *>(data), size};
  return finishLoad(std::move(exe), options);
}

StatusOr<std::unique_ptr<Executable>>
Executable::loadBytes(const void *data, size_t size,
                      const LoadOptions &options) {
  if (!data && size)
    return Status::error(StatusCode::InvalidArgument, "executable: null data");
  std::unique_ptr<Executable> exe(new Executable());
  size_t rounded =
      (size + kConstantAlignment - 1) / kConstantAlignment * kConstantAlignment;
  if (rounded) {
    exe->owned_ = std::aligned_alloc(kConstantAlignment, rounded);
    if (!exe->owned_)
      return Status::error(StatusCode::ResourceExhausted,
                           "executable: cannot allocate " +
                               std::to_string(size) + " bytes");
    std::memcpy(exe->owned_, data, size);
  }
  exe->bytes_ = {static_cast<const uint8_t *>(exe->owned_), size};
  return finishLoad(std::move(exe), options);
}

StatusOr<std::unique_ptr<Executable>>
Executable::loadFile(const std::string &path, const LoadOptions &options) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status::error(StatusCode::InvalidArgument,
                         path + ": cannot open: " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::error(StatusCode::InvalidArgument,
                         path + ": not a regular file");
  }
  std::unique_ptr<Executable> exe(new Executable());
  size_t size = static_cast<size_t>(st.st_size);
  if (size > 0) {
    void *m = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return Status::error(StatusCode::Unavailable,
                           path + ": cannot map: " + std::strerror(err));
    }
    exe->mapping_ = m;
    exe->mappingSize_ = size;
  }
  ::close(fd);
  exe->bytes_ = {static_cast<const uint8_t *>(exe->mapping_), size};
  auto loaded = finishLoad(std::move(exe), options);
  if (!loaded.isOk())
    return loaded.status().withContext(path);
  return loaded;
}

} // namespace fuel::rt
