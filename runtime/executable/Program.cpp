//===- Program.cpp - The meaning checks of an executable ------------------===//
//
// verifyProgram: the last step of loading (after checksums and the
// FlatBuffers verifier) and the first of writing. Every index is checked
// before it is used, every sum and product of sizes for overflow, and each
// message names the field ("commands[3].bindings[1]: ...").
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Executable.h"

#include "fuel-c/KernelABI.h"
#include "fuel/Probe/Probe.h"
#include "fuel/Runtime/Ptx.h"
#include "fuel/Runtime/SpirV.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fuel::rt {

bool operator==(const ByteSpan &a, const ByteSpan &b) {
  return a.size == b.size &&
         (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
}

bool DeviceRequirement::operator==(const DeviceRequirement &o) const {
  return device == o.device && arenaBytes == o.arenaBytes &&
         arenaAlignment == o.arenaAlignment;
}
bool CpuTarget::operator==(const CpuTarget &o) const {
  return triple == o.triple && cpu == o.cpu && features == o.features;
}
bool BindingSlot::operator==(const BindingSlot &o) const {
  return set == o.set && binding == o.binding;
}
bool KernelEntry::operator==(const KernelEntry &o) const {
  return symbol == o.symbol && workspaceBytes == o.workspaceBytes &&
         workgroupSize == o.workgroupSize && bindingLayout == o.bindingLayout;
}
bool KernelModule::operator==(const KernelModule &o) const {
  return device == o.device && format == o.format && kernels == o.kernels &&
         image == o.image;
}
bool LibraryKernel::operator==(const LibraryKernel &o) const {
  return device == o.device && kernelId == o.kernelId && shim == o.shim &&
         entry == o.entry && params == o.params &&
         workspaceBytes == o.workspaceBytes;
}
bool Constant::operator==(const Constant &o) const {
  return name == o.name && data == o.data;
}
bool BufferSpec::operator==(const BufferSpec &o) const {
  return kind == o.kind && device == o.device && size == o.size &&
         alignment == o.alignment && offset == o.offset && index == o.index;
}
bool TensorSpec::operator==(const TensorSpec &o) const {
  return name == o.name && dtype == o.dtype && shape == o.shape &&
         residency == o.residency && buffer == o.buffer;
}
bool BindingRange::operator==(const BindingRange &o) const {
  return buffer == o.buffer && offset == o.offset && length == o.length;
}
bool Dispatch::operator==(const Dispatch &o) const {
  return source == o.source && module == o.module && kernel == o.kernel &&
         grid == o.grid && bindings == o.bindings &&
         pushConstants == o.pushConstants;
}
bool Copy::operator==(const Copy &o) const {
  return src == o.src && srcOffset == o.srcOffset && dst == o.dst &&
         dstOffset == o.dstOffset && bytes == o.bytes;
}
bool CommandReport::operator==(const CommandReport &o) const {
  return nodeId == o.nodeId && opKind == o.opKind && kernelId == o.kernelId &&
         source == o.source && revision == o.revision &&
         predictedNs == o.predictedNs;
}
bool CommandSpec::operator==(const CommandSpec &o) const {
  if (kind != o.kind || dependencies != o.dependencies || !(report == o.report))
    return false;
  return kind == CommandKind::Dispatch ? dispatch == o.dispatch
                                       : copy == o.copy;
}
bool Program::operator==(const Program &o) const {
  return formatVersion == o.formatVersion && fuelVersion == o.fuelVersion &&
         kernelAbiVersion == o.kernelAbiVersion &&
         topologyHash == o.topologyHash && planHash == o.planHash &&
         function == o.function && devices == o.devices &&
         cpuTarget == o.cpuTarget && modules == o.modules &&
         libraryKernels == o.libraryKernels && constants == o.constants &&
         buffers == o.buffers && inputs == o.inputs && outputs == o.outputs &&
         commands == o.commands;
}

uint64_t tensorByteSize(const TensorSpec &spec) {
  uint64_t n = elementTypeSize(spec.dtype);
  for (int64_t d : spec.shape)
    n *= static_cast<uint64_t>(d);
  return n;
}

std::string formatTensorType(ElementType dtype,
                             const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + elementTypeName(dtype);
}

size_t elementTypeSize(ElementType dtype) {
  switch (dtype) {
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::I16:
    return 2;
  case ElementType::F64:
  case ElementType::I64:
    return 8;
  case ElementType::I8:
  case ElementType::U8:
  case ElementType::Bool:
    return 1;
  }
  return 0;
}

const char *elementTypeName(ElementType dtype) {
  switch (dtype) {
  case ElementType::F32:
    return "f32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F64:
    return "f64";
  case ElementType::I8:
    return "i8";
  case ElementType::I16:
    return "i16";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  case ElementType::U8:
    return "u8";
  case ElementType::Bool:
    return "i1";
  }
  return "?";
}

uint32_t dispatchDevice(const Program &p, const Dispatch &d) {
  return d.source == KernelSource::Module ? p.modules[d.module].device
                                          : p.libraryKernels[d.kernel].device;
}

std::vector<std::string> hostCpuFeatures() {
  // The probe's parser, so that the runtime and the planner read the host
  // the same way.
  std::ifstream in("/proc/cpuinfo");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> features =
      fuel::probe::parseCpuInfo(text.str()).flags;
  std::sort(features.begin(), features.end());
  features.erase(std::unique(features.begin(), features.end()), features.end());
  return features;
}

namespace {

Status invalid(const std::string &field, const std::string &what) {
  return Status::error(StatusCode::InvalidArgument, field + ": " + what);
}
Status outOfRange(const std::string &field, const std::string &what) {
  return Status::error(StatusCode::OutOfRange, field + ": " + what);
}

std::string at(const char *list, size_t i) {
  return std::string(list) + "[" + std::to_string(i) + "]";
}

bool isPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/// a + b, or false on overflow.
bool addOk(uint64_t a, uint64_t b, uint64_t &sum) {
  sum = a + b;
  return sum >= a;
}

/// `index < count`, else an OutOfRange naming `field` and the list.
Status checkIndex(const std::string &field, uint64_t index, size_t count,
                  const char *list) {
  if (index < count)
    return Status::ok();
  return outOfRange(field, std::to_string(index) + " is not an index into " +
                               list + " (" + std::to_string(count) +
                               " entries)");
}

/// [offset, offset + length) inside a buffer of `size` bytes.
Status checkRange(const std::string &field, uint64_t offset, uint64_t length,
                  uint64_t size, uint32_t buffer) {
  uint64_t end;
  if (!addOk(offset, length, end) || end > size)
    return outOfRange(
        field, "bytes [" + std::to_string(offset) + ", " +
                   std::to_string(offset) + " + " + std::to_string(length) +
                   ") lie outside buffer " + std::to_string(buffer) + " of " +
                   std::to_string(size) + " bytes");
  return Status::ok();
}

ModuleFormat formatOf(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::Cpu:
    return ModuleFormat::ElfSharedObject;
  case DeviceKind::Cuda:
    return ModuleFormat::Ptx;
  case DeviceKind::Vulkan:
    return ModuleFormat::SpirV;
  }
  return ModuleFormat::ElfSharedObject;
}

Status verifyTensor(const Program &p, const char *list, size_t i,
                    const TensorSpec &t, BufferKind kind) {
  std::string field = at(list, i);
  FUEL_RT_RETURN_IF_ERROR(checkIndex(field + ".residency", t.residency,
                                     p.devices.size(), "devices"));
  FUEL_RT_RETURN_IF_ERROR(
      checkIndex(field + ".buffer", t.buffer, p.buffers.size(), "buffers"));
  const BufferSpec &b = p.buffers[t.buffer];
  if (b.kind != kind || b.index != i)
    return invalid(field + ".buffer", "buffer " + std::to_string(t.buffer) +
                                          " is not bound to " + field);
  if (b.device != t.residency)
    return invalid(field + ".buffer", "buffer " + std::to_string(t.buffer) +
                                          " is not on the residency device");
  uint64_t bytes = elementTypeSize(t.dtype);
  for (size_t d = 0; d < t.shape.size(); ++d) {
    int64_t dim = t.shape[d];
    if (dim < 0)
      return invalid(field + ".shape[" + std::to_string(d) + "]",
                     "negative dimension " + std::to_string(dim));
    uint64_t u = static_cast<uint64_t>(dim);
    if (u != 0 && bytes > UINT64_MAX / u)
      return outOfRange(field + ".shape", "byte size overflows 64 bits");
    bytes *= u;
  }
  if (bytes != b.size)
    return invalid(field, "shape x dtype is " + std::to_string(bytes) +
                              " bytes but buffer " + std::to_string(t.buffer) +
                              " holds " + std::to_string(b.size));
  return Status::ok();
}

} // namespace

Status verifyProgram(const Program &p, const LoadOptions &options) {
  if (p.formatVersion != kExecutableFormatVersion)
    return Status::error(
        StatusCode::Unimplemented,
        "metadata.format_version: " + std::to_string(p.formatVersion) +
            " is not the supported version " +
            std::to_string(kExecutableFormatVersion));
  if (p.kernelAbiVersion != FUEL_KERNEL_ABI_VERSION)
    return Status::error(StatusCode::FailedPrecondition,
                         "metadata.kernel_abi_version: the kernels use ABI " +
                             std::to_string(p.kernelAbiVersion) +
                             ", this runtime ABI " +
                             std::to_string(FUEL_KERNEL_ABI_VERSION));

  // Devices: distinct, with a usable arena alignment.
  for (size_t i = 0; i < p.devices.size(); ++i) {
    const DeviceRequirement &d = p.devices[i];
    std::string field = at("devices", i);
    if (d.device.kind == DeviceKind::Cpu && d.device.ordinal != 0)
      return invalid(field + ".ordinal", "the cpu device has no ordinal");
    if (!isPowerOfTwo(d.arenaAlignment))
      return invalid(field + ".arena_alignment",
                     std::to_string(d.arenaAlignment) +
                         " is not a power of two");
    for (size_t j = 0; j < i; ++j)
      if (p.devices[j].device == d.device)
        return invalid(field, d.device.str() + " is listed twice");
  }

  // Modules: one per device, in the device's format.
  for (size_t m = 0; m < p.modules.size(); ++m) {
    const KernelModule &mod = p.modules[m];
    std::string field = at("modules", m);
    FUEL_RT_RETURN_IF_ERROR(
        checkIndex(field + ".device", mod.device, p.devices.size(), "devices"));
    for (size_t n = 0; n < m; ++n)
      if (p.modules[n].device == mod.device)
        return invalid(field + ".device",
                       "device " + std::to_string(mod.device) +
                           " already has module " + std::to_string(n));
    DeviceKind kind = p.devices[mod.device].device.kind;
    if (mod.format != formatOf(kind))
      return invalid(field + ".format",
                     "not the module format of a " +
                         std::string(stringifyDeviceKind(kind)) + " device");
    if (mod.image.empty())
      return invalid(field, "empty module image");
    for (size_t k = 0; k < mod.kernels.size(); ++k) {
      const KernelEntry &e = mod.kernels[k];
      std::string kf = field + "." + at("kernels", k);
      if (e.symbol.empty())
        return invalid(kf + ".symbol", "empty");
      if (kind == DeviceKind::Cpu ? !e.workgroupSize.empty()
                                  : e.workgroupSize.size() != 3)
        return invalid(kf + ".workgroup_size", kind == DeviceKind::Cpu
                                                   ? "must be empty on the cpu"
                                                   : "must have 3 entries");
      if (kind != DeviceKind::Vulkan && !e.bindingLayout.empty())
        return invalid(kf + ".binding_layout", "only SPIR-V kernels have one");
      for (size_t g = 0; g < e.workgroupSize.size(); ++g)
        if (e.workgroupSize[g] == 0)
          return invalid(kf + ".workgroup_size[" + std::to_string(g) + "]",
                         "a workgroup dimension of 0");
      for (size_t s = 0; s < e.bindingLayout.size(); ++s)
        for (size_t t = 0; t < s; ++t)
          if (e.bindingLayout[t] == e.bindingLayout[s])
            return invalid(
                kf + ".binding_layout[" + std::to_string(s) + "]",
                "(set " + std::to_string(e.bindingLayout[s].set) +
                    ", binding " + std::to_string(e.bindingLayout[s].binding) +
                    ") is already binding_layout[" + std::to_string(t) + "]");
      for (size_t j = 0; j < k; ++j)
        if (mod.kernels[j].symbol == e.symbol)
          return invalid(kf + ".symbol", "'" + e.symbol +
                                             "' is already kernels[" +
                                             std::to_string(j) + "]");
    }
    if (mod.format == ModuleFormat::Ptx) {
      // The PTX text itself: one C string with a .version and a .target,
      // an .entry for every kernel, and blocks within CUDA's 1024 threads.
      StatusOr<PtxModuleInfo> ptx =
          readPtxModule(mod.image.data, mod.image.size);
      if (!ptx)
        return invalid(field + ".image", ptx.status().message());
      for (size_t k = 0; k < mod.kernels.size(); ++k) {
        const KernelEntry &e = mod.kernels[k];
        std::string kf = field + "." + at("kernels", k);
        uint64_t threads = uint64_t(e.workgroupSize[0]) * e.workgroupSize[1] *
                           e.workgroupSize[2];
        if (threads > kMaxCudaThreadsPerBlock)
          return invalid(kf + ".workgroup_size",
                         "a block of " + std::to_string(threads) +
                             " threads (CUDA allows at most " +
                             std::to_string(kMaxCudaThreadsPerBlock) + ")");
        bool found = false;
        for (const std::string &name : ptx->entries)
          found |= name == e.symbol;
        if (!found) {
          std::string names;
          for (const std::string &name : ptx->entries)
            names += (names.empty() ? "'" : ", '") + name + "'";
          return invalid(
              kf + ".symbol",
              "'" + e.symbol + "' is not an .entry of the PTX module (it has " +
                  (names.empty() ? std::string("none") : names) + ")");
        }
      }
    }
    if (mod.format == ModuleFormat::SpirV) {
      // The SPIR-V words themselves: the size, the magic number and the
      // entry points every kernel names.
      StatusOr<std::vector<SpirVEntryPoint>> entries =
          readSpirVEntryPoints(mod.image.data, mod.image.size);
      if (!entries)
        return invalid(field + ".image", entries.status().message());
      for (size_t k = 0; k < mod.kernels.size(); ++k) {
        const std::string &name = mod.kernels[k].symbol;
        bool found = false;
        for (const SpirVEntryPoint &ep : *entries)
          found |= ep.executionModel == kSpirVGLCompute && ep.name == name;
        if (!found) {
          std::string names;
          for (const SpirVEntryPoint &ep : *entries)
            if (ep.executionModel == kSpirVGLCompute)
              names += (names.empty() ? "'" : ", '") + ep.name + "'";
          return invalid(field + "." + at("kernels", k) + ".symbol",
                         "'" + name +
                             "' is not an OpEntryPoint GLCompute of the "
                             "SPIR-V module (it has " +
                             (names.empty() ? std::string("none") : names) +
                             ")");
        }
      }
    }
  }

  // Library kernels: shims run on the CPU, cuBLAS on CUDA devices.
  for (size_t l = 0; l < p.libraryKernels.size(); ++l) {
    const LibraryKernel &lib = p.libraryKernels[l];
    std::string field = at("library_kernels", l);
    FUEL_RT_RETURN_IF_ERROR(
        checkIndex(field + ".device", lib.device, p.devices.size(), "devices"));
    // CPU shims (OpenBLAS, BLIS), and cuBLAS on a CUDA device.
    if (p.devices[lib.device].device.kind == DeviceKind::Vulkan)
      return invalid(field + ".device",
                     "library kernels run on the cpu or a cuda device");
    if (lib.kernelId.empty())
      return invalid(field + ".kernel_id", "empty");
    if (lib.shim.empty())
      return invalid(field + ".shim", "empty");
    if (lib.entry.empty())
      return invalid(field + ".entry", "empty");
  }

  // Inputs and outputs, then the buffers they and the commands use.
  for (size_t i = 0; i < p.inputs.size(); ++i)
    FUEL_RT_RETURN_IF_ERROR(
        verifyTensor(p, "inputs", i, p.inputs[i], BufferKind::Input));
  for (size_t i = 0; i < p.outputs.size(); ++i)
    FUEL_RT_RETURN_IF_ERROR(
        verifyTensor(p, "outputs", i, p.outputs[i], BufferKind::Output));

  // Buffers.
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const BufferSpec &b = p.buffers[i];
    std::string field = at("buffers", i);
    FUEL_RT_RETURN_IF_ERROR(
        checkIndex(field + ".device", b.device, p.devices.size(), "devices"));
    if (!isPowerOfTwo(b.alignment))
      return invalid(field + ".alignment",
                     std::to_string(b.alignment) + " is not a power of two");
    switch (b.kind) {
    case BufferKind::Arena: {
      const DeviceRequirement &d = p.devices[b.device];
      if (b.alignment > d.arenaAlignment || b.offset % b.alignment != 0)
        return invalid(field + ".offset",
                       std::to_string(b.offset) + " is not " +
                           std::to_string(b.alignment) + "-byte aligned");
      uint64_t end;
      if (!addOk(b.offset, b.size, end) || end > d.arenaBytes)
        return outOfRange(field, "slot [" + std::to_string(b.offset) + ", +" +
                                     std::to_string(b.size) +
                                     ") lies outside the " +
                                     std::to_string(d.arenaBytes) +
                                     "-byte arena of devices[" +
                                     std::to_string(b.device) + "]");
      break;
    }
    case BufferKind::Input:
      FUEL_RT_RETURN_IF_ERROR(
          checkIndex(field + ".index", b.index, p.inputs.size(), "inputs"));
      if (p.inputs[b.index].buffer != i)
        return invalid(field + ".index", "input " + std::to_string(b.index) +
                                             " uses another buffer");
      break;
    case BufferKind::Output:
      FUEL_RT_RETURN_IF_ERROR(
          checkIndex(field + ".index", b.index, p.outputs.size(), "outputs"));
      if (p.outputs[b.index].buffer != i)
        return invalid(field + ".index", "output " + std::to_string(b.index) +
                                             " uses another buffer");
      break;
    case BufferKind::Constant:
      FUEL_RT_RETURN_IF_ERROR(checkIndex(field + ".index", b.index,
                                         p.constants.size(), "constants"));
      if (p.constants[b.index].data.size != b.size)
        return invalid(field + ".size",
                       std::to_string(b.size) + " bytes but constant " +
                           std::to_string(b.index) + " has " +
                           std::to_string(p.constants[b.index].data.size));
      break;
    }
  }

  // Commands: valid references, bindings inside buffers on the kernel's
  // device, dependencies only on earlier commands (so list order is a valid
  // order), no writes into inputs or constants by copies.
  for (size_t c = 0; c < p.commands.size(); ++c) {
    const CommandSpec &cmd = p.commands[c];
    std::string field = at("commands", c);
    for (size_t d = 0; d < cmd.dependencies.size(); ++d)
      if (cmd.dependencies[d] >= c)
        return invalid(field + "." + at("dependencies", d),
                       "command " + std::to_string(cmd.dependencies[d]) +
                           " is not an earlier command");
    if (cmd.kind == CommandKind::Dispatch) {
      const Dispatch &dp = cmd.dispatch;
      uint32_t device;
      if (dp.source == KernelSource::Module) {
        FUEL_RT_RETURN_IF_ERROR(checkIndex(field + ".module", dp.module,
                                           p.modules.size(), "modules"));
        const KernelModule &mod = p.modules[dp.module];
        FUEL_RT_RETURN_IF_ERROR(checkIndex(
            field + ".kernel", dp.kernel, mod.kernels.size(),
            ("modules[" + std::to_string(dp.module) + "].kernels").c_str()));
        device = mod.device;
        const KernelEntry &entry = mod.kernels[dp.kernel];
        if (mod.format == ModuleFormat::SpirV &&
            dp.bindings.size() != entry.bindingLayout.size())
          return invalid(field + ".bindings",
                         std::to_string(dp.bindings.size()) +
                             " bindings, but kernel '" + entry.symbol +
                             "' has a binding_layout of " +
                             std::to_string(entry.bindingLayout.size()));
      } else {
        FUEL_RT_RETURN_IF_ERROR(checkIndex(field + ".kernel", dp.kernel,
                                           p.libraryKernels.size(),
                                           "library_kernels"));
        device = p.libraryKernels[dp.kernel].device;
      }
      for (int g = 0; g < 3; ++g)
        if (dp.grid[g] == 0)
          return invalid(field + ".grid[" + std::to_string(g) + "]",
                         "a grid dimension of 0");
      for (size_t b = 0; b < dp.bindings.size(); ++b) {
        const BindingRange &r = dp.bindings[b];
        std::string bf = field + "." + at("bindings", b);
        FUEL_RT_RETURN_IF_ERROR(
            checkIndex(bf + ".buffer", r.buffer, p.buffers.size(), "buffers"));
        const BufferSpec &buf = p.buffers[r.buffer];
        FUEL_RT_RETURN_IF_ERROR(
            checkRange(bf, r.offset, r.length, buf.size, r.buffer));
        if (buf.device != device)
          return invalid(bf + ".buffer", "buffer " + std::to_string(r.buffer) +
                                             " is not on the kernel's device");
      }
    } else {
      const Copy &cp = cmd.copy;
      FUEL_RT_RETURN_IF_ERROR(
          checkIndex(field + ".src", cp.src, p.buffers.size(), "buffers"));
      FUEL_RT_RETURN_IF_ERROR(
          checkIndex(field + ".dst", cp.dst, p.buffers.size(), "buffers"));
      FUEL_RT_RETURN_IF_ERROR(checkRange(field + ".src", cp.srcOffset, cp.bytes,
                                         p.buffers[cp.src].size, cp.src));
      FUEL_RT_RETURN_IF_ERROR(checkRange(field + ".dst", cp.dstOffset, cp.bytes,
                                         p.buffers[cp.dst].size, cp.dst));
      BufferKind dk = p.buffers[cp.dst].kind;
      if (dk == BufferKind::Input || dk == BufferKind::Constant)
        return invalid(field + ".dst", "buffer " + std::to_string(cp.dst) +
                                           " is read-only (an input or a "
                                           "constant)");
      if (cp.src == cp.dst && cp.bytes != 0 &&
          cp.srcOffset < cp.dstOffset + cp.bytes &&
          cp.dstOffset < cp.srcOffset + cp.bytes)
        return invalid(field, "source and destination overlap");
    }
  }

  // The host: CPU features the code assumes, then the devices and their
  // memory, before anything is allocated for them.
  bool needsCpuCode = false;
  for (const KernelModule &m : p.modules)
    needsCpuCode |= m.format == ModuleFormat::ElfSharedObject;
  for (const LibraryKernel &l : p.libraryKernels)
    needsCpuCode |= p.devices[l.device].device.kind == DeviceKind::Cpu;
  if (options.checkCpuFeatures && needsCpuCode) {
    std::vector<std::string> host =
        options.hostCpuFeatures ? *options.hostCpuFeatures : hostCpuFeatures();
    std::vector<std::string> missing;
    for (const std::string &f : p.cpuTarget.features)
      if (std::find(host.begin(), host.end(), f) == host.end())
        missing.push_back(f);
    if (!missing.empty()) {
      std::string list;
      for (const std::string &f : missing)
        list += (list.empty() ? "" : ", ") + f;
      return Status::error(
          StatusCode::FailedPrecondition,
          "cpu_target.features: this CPU lacks " + list + " (compiled for " +
              (p.cpuTarget.cpu.empty() ? "an unnamed CPU" : p.cpuTarget.cpu) +
              ")");
    }
  }
  if (options.availableDevices) {
    for (size_t i = 0; i < p.devices.size(); ++i) {
      const DeviceRequirement &d = p.devices[i];
      auto it = std::find_if(
          options.availableDevices->begin(), options.availableDevices->end(),
          [&](const AvailableDevice &a) { return a.device == d.device; });
      if (it == options.availableDevices->end())
        return Status::error(StatusCode::FailedPrecondition,
                             at("devices", i) + ": " + d.device.str() +
                                 " is not available on this machine");
      if (it->memoryBytes == 0)
        continue;
      // The arena, every constant placed on the device and, on the cpu,
      // one workspace per worker thread.
      uint64_t need = d.arenaBytes;
      bool overflow = false;
      for (const BufferSpec &b : p.buffers)
        if (b.device == i && b.kind == BufferKind::Constant)
          overflow |= !addOk(need, b.size, need);
      if (d.device.kind == DeviceKind::Cpu) {
        uint64_t workspace = 0;
        for (const KernelModule &m : p.modules)
          if (m.device == i)
            for (const KernelEntry &k : m.kernels)
              workspace = std::max(workspace, k.workspaceBytes);
        for (const LibraryKernel &l : p.libraryKernels)
          if (l.device == i)
            workspace = std::max(workspace, l.workspaceBytes);
        uint64_t threads = std::max<uint32_t>(options.workerThreads, 1);
        overflow |= workspace > UINT64_MAX / threads ||
                    !addOk(need, workspace * threads, need);
      }
      if (overflow)
        need = UINT64_MAX;
      if (need > it->memoryBytes)
        return Status::error(
            StatusCode::ResourceExhausted,
            at("devices", i) + ": needs " + std::to_string(need) + " bytes, " +
                d.device.str() + " has " + std::to_string(it->memoryBytes));
    }
  }
  return Status::ok();
}

} // namespace fuel::rt
