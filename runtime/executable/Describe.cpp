//===- Describe.cpp - A Program as text -----------------------------------===//
//
// describeProgram: the text `fuel-run --dump` prints and lit tests check.
// One line per entry, fields in a fixed order, sizes in bytes, hashes and
// revisions in hex, so that equal executables print equal text.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Executable.h"
#include "fuel/Runtime/Ptx.h"
#include "fuel/Runtime/SpirV.h"

#include <cinttypes>
#include <cstdio>

namespace fuel::rt {

namespace {

std::string hex(uint64_t v) {
  char buf[19];
  std::snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
  return buf;
}

/// `s` in double quotes, with `"` and `\` escaped and every other byte
/// outside printable ASCII as \xNN: names come from the file (an ONNX
/// input's name may hold anything), and one entry stays one line.
std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[5];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string deviceName(const Program &p, uint32_t index) {
  if (index < p.devices.size())
    return p.devices[index].device.str();
  return "device#" + std::to_string(index);
}

const char *formatName(ModuleFormat f) {
  switch (f) {
  case ModuleFormat::ElfSharedObject:
    return "elf";
  case ModuleFormat::SpirV:
    return "spirv";
  case ModuleFormat::Ptx:
    return "ptx";
  }
  return "?";
}

template <class T> std::string list(const std::vector<T> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string shape(const TensorSpec &t) {
  return formatTensorType(t.dtype, t.shape);
}

std::string range(uint32_t buffer, uint64_t offset, uint64_t length) {
  return "b" + std::to_string(buffer) + "[" + std::to_string(offset) + "+" +
         std::to_string(length) + "]";
}

void line(std::string &out, const std::string &text) {
  out += text;
  out += '\n';
}

} // namespace

std::string describeProgram(const Program &p) {
  std::string out;
  line(out, "executable format " + std::to_string(p.formatVersion) + " fuel " +
                quoted(p.fuelVersion) + " kernel_abi " +
                std::to_string(p.kernelAbiVersion));
  line(out, "function " + quoted(p.function) + " topology_hash " +
                hex(p.topologyHash) + " plan_hash " + hex(p.planHash));
  std::string features;
  for (const std::string &f : p.cpuTarget.features)
    features += " +" + f;
  line(out, "cpu_target " + quoted(p.cpuTarget.triple) + " " +
                quoted(p.cpuTarget.cpu) + features);

  line(out, "devices " + std::to_string(p.devices.size()));
  for (size_t i = 0; i < p.devices.size(); ++i)
    line(out, "  [" + std::to_string(i) + "] " + p.devices[i].device.str() +
                  " arena " + std::to_string(p.devices[i].arenaBytes) +
                  " align " + std::to_string(p.devices[i].arenaAlignment));

  line(out, "modules " + std::to_string(p.modules.size()));
  for (size_t m = 0; m < p.modules.size(); ++m) {
    const KernelModule &mod = p.modules[m];
    line(out, "  [" + std::to_string(m) + "] " + deviceName(p, mod.device) +
                  " " + formatName(mod.format) + " " +
                  std::to_string(mod.image.size) + " bytes, " +
                  std::to_string(mod.kernels.size()) + " kernels");
    if (mod.format == ModuleFormat::Ptx) {
      // What the PTX text says, read the way the loader reads it.
      StatusOr<PtxModuleInfo> info =
          readPtxModule(mod.image.data, mod.image.size);
      std::string text = "    ptx";
      if (!info) {
        text += " unreadable: " + info.status().message();
      } else {
        text += " version " + info->version + " target " + info->target +
                " entries";
        if (info->entries.empty())
          text += " none";
        for (const std::string &e : info->entries)
          text += " " + quoted(e);
      }
      line(out, text);
    }
    if (mod.format == ModuleFormat::SpirV) {
      // What the SPIR-V words say, read the way the loader reads them.
      StatusOr<std::vector<SpirVEntryPoint>> eps =
          readSpirVEntryPoints(mod.image.data, mod.image.size);
      std::string text = "    entry points";
      if (!eps) {
        text += " unreadable: " + eps.status().message();
      } else if (eps->empty()) {
        text += " none";
      } else {
        for (const SpirVEntryPoint &ep : *eps)
          text += " " + quoted(ep.name) +
                  (ep.executionModel == kSpirVGLCompute
                       ? ""
                       : " (model " + std::to_string(ep.executionModel) + ")");
      }
      line(out, text);
    }
    for (size_t k = 0; k < mod.kernels.size(); ++k) {
      const KernelEntry &e = mod.kernels[k];
      std::string text = "    kernel [" + std::to_string(k) + "] " +
                         quoted(e.symbol) + " workspace " +
                         std::to_string(e.workspaceBytes);
      if (!e.workgroupSize.empty())
        text += " workgroup " + list(e.workgroupSize);
      for (const BindingSlot &s : e.bindingLayout)
        text += " (set " + std::to_string(s.set) + ", binding " +
                std::to_string(s.binding) + ")";
      line(out, text);
    }
  }

  line(out, "library_kernels " + std::to_string(p.libraryKernels.size()));
  for (size_t l = 0; l < p.libraryKernels.size(); ++l) {
    const LibraryKernel &lib = p.libraryKernels[l];
    line(out, "  [" + std::to_string(l) + "] " + deviceName(p, lib.device) +
                  " " + quoted(lib.kernelId) + " shim " + quoted(lib.shim) +
                  " entry " + quoted(lib.entry) + " params " +
                  list(lib.params) + " workspace " +
                  std::to_string(lib.workspaceBytes));
  }

  line(out, "constants " + std::to_string(p.constants.size()));
  for (size_t c = 0; c < p.constants.size(); ++c)
    line(out, "  [" + std::to_string(c) + "] " + quoted(p.constants[c].name) +
                  " " + std::to_string(p.constants[c].data.size) + " bytes");

  line(out, "buffers " + std::to_string(p.buffers.size()));
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const BufferSpec &b = p.buffers[i];
    std::string what;
    switch (b.kind) {
    case BufferKind::Arena:
      what = "arena offset " + std::to_string(b.offset);
      break;
    case BufferKind::Input:
      what = "input " + std::to_string(b.index);
      break;
    case BufferKind::Output:
      what = "output " + std::to_string(b.index);
      break;
    case BufferKind::Constant:
      what = "constant " + std::to_string(b.index);
      break;
    }
    line(out, "  [" + std::to_string(i) + "] " + deviceName(p, b.device) + " " +
                  what + " size " + std::to_string(b.size) + " align " +
                  std::to_string(b.alignment));
  }

  for (const auto &[title, tensors] :
       {std::pair{"inputs", &p.inputs}, std::pair{"outputs", &p.outputs}}) {
    line(out, std::string(title) + " " + std::to_string(tensors->size()));
    for (size_t i = 0; i < tensors->size(); ++i) {
      const TensorSpec &t = (*tensors)[i];
      line(out, "  [" + std::to_string(i) + "] " + quoted(t.name) + " " +
                    shape(t) + " on " + deviceName(p, t.residency) +
                    " buffer " + std::to_string(t.buffer));
    }
  }

  line(out, "commands " + std::to_string(p.commands.size()));
  for (size_t c = 0; c < p.commands.size(); ++c) {
    const CommandSpec &cmd = p.commands[c];
    std::string text = "  [" + std::to_string(c) + "] ";
    if (cmd.kind == CommandKind::Dispatch) {
      const Dispatch &d = cmd.dispatch;
      if (d.source == KernelSource::Module) {
        text += "dispatch module " + std::to_string(d.module) + " kernel " +
                std::to_string(d.kernel);
        if (d.module < p.modules.size())
          text += " on " + deviceName(p, p.modules[d.module].device);
      } else {
        text += "dispatch library " + std::to_string(d.kernel);
        if (d.kernel < p.libraryKernels.size())
          text += " on " + deviceName(p, p.libraryKernels[d.kernel].device);
      }
      text += " grid " + std::to_string(d.grid[0]) + "x" +
              std::to_string(d.grid[1]) + "x" + std::to_string(d.grid[2]);
      for (const BindingRange &r : d.bindings)
        text += " " + range(r.buffer, r.offset, r.length);
      if (!d.pushConstants.empty())
        text += " push " + list(d.pushConstants);
    } else {
      const Copy &cp = cmd.copy;
      text += "copy " + range(cp.src, cp.srcOffset, cp.bytes) + " -> " +
              range(cp.dst, cp.dstOffset, cp.bytes) + " " +
              std::to_string(cp.bytes) + " bytes";
    }
    if (!cmd.dependencies.empty())
      text += " after " + list(cmd.dependencies);
    const CommandReport &r = cmd.report;
    text += " | node " + std::to_string(r.nodeId) + " " + quoted(r.opKind) +
            " " + quoted(r.kernelId) + " " + quoted(r.source) + " revision " +
            hex(r.revision) + " predicted " + std::to_string(r.predictedNs) +
            " ns";
    line(out, text);
  }
  return out;
}

} // namespace fuel::rt
