//===- Executable.h - A verified, loaded fuel executable --------*- C++ -*-===//
//
// The contents of a fuel executable (docs/EXECUTABLE-FORMAT.md) and the
// loader that refuses any file that is truncated, corrupted, foreign, of a
// future version or meaningless, with a message naming the section or
// field. A loaded Executable keeps the file mapped read-only; its kernel
// modules and constants are views into the mapping, never copies.
//
// The same description types are the input of ExecutableWriter, so that a
// round trip compares equal.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_EXECUTABLE_H
#define FUEL_RUNTIME_EXECUTABLE_H

#include "fuel/Runtime/Status.h"
#include "fuel/Support/Device.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fuel::rt {

/// The file format version this runtime writes and reads. A file of a newer
/// version is refused; the rules are in docs/EXECUTABLE-FORMAT.md.
inline constexpr uint32_t kExecutableFormatVersion = 1;

/// Read-only bytes: a segment of a loaded file, or the caller's bytes handed
/// to the writer.
struct ByteSpan {
  const uint8_t *data = nullptr;
  size_t size = 0;
  const uint8_t *begin() const { return data; }
  const uint8_t *end() const { return data + size; }
  bool empty() const { return size == 0; }
  friend bool operator==(const ByteSpan &a, const ByteSpan &b);
  friend bool operator!=(const ByteSpan &a, const ByteSpan &b) {
    return !(a == b);
  }
};

/// Element types of inputs and outputs.
enum class ElementType : uint8_t {
  F32,
  F16,
  BF16,
  F64,
  I8,
  I16,
  I32,
  I64,
  U8,
  Bool
};

/// Bytes per element of `dtype`.
size_t elementTypeSize(ElementType dtype);
/// "f32", "f16", "bf16", "f64", "i8", "i16", "i32", "i64", "u8", "i1".
const char *elementTypeName(ElementType dtype);

/// A device the executable needs, and the size of its arena.
struct DeviceRequirement {
  ::fuel::Device device;
  uint64_t arenaBytes = 0;
  uint64_t arenaAlignment = 64;
  bool operator==(const DeviceRequirement &) const;
};

/// What the CPU code assumes: target triple, CPU name and the CPU features
/// (spelled as /proc/cpuinfo's flags: "avx2", "fma") the host must have.
struct CpuTarget {
  std::string triple;
  std::string cpu;
  std::vector<std::string> features;
  bool operator==(const CpuTarget &) const;
};

/// How a kernel module is encoded; each belongs to one device kind.
enum class ModuleFormat : uint8_t {
  ElfSharedObject, ///< cpu: an ELF shared object exporting the kernels.
  SpirV,           ///< vulkan: a SPIR-V module with entry points.
  Ptx,             ///< cuda: PTX text with entry functions.
};

/// One descriptor slot (SPIR-V set and binding) of a kernel's bindings.
struct BindingSlot {
  uint32_t set = 0;
  uint32_t binding = 0;
  bool operator==(const BindingSlot &) const;
};

/// One kernel of a module: the CPU symbol (fuel_kernel_fn), SPIR-V entry
/// point or PTX entry name, the workspace it needs per worker, and for GPUs
/// the workgroup size and the binding layout.
struct KernelEntry {
  std::string symbol;
  uint64_t workspaceBytes = 0;
  std::vector<uint32_t> workgroupSize;    ///< Empty on the CPU, else 3.
  std::vector<BindingSlot> bindingLayout; ///< SPIR-V only.
  bool operator==(const KernelEntry &) const;
};

/// The one kernel module of a device: its image and its kernels.
struct KernelModule {
  uint32_t device = 0; ///< Index into Program::devices.
  ModuleFormat format = ModuleFormat::ElfSharedObject;
  std::vector<KernelEntry> kernels;
  ByteSpan image;
  bool operator==(const KernelModule &) const;
};

/// A kernel of a vendor library reached through a shim (the CPU device).
struct LibraryKernel {
  uint32_t device = 0;
  std::string kernelId; ///< "cpu.openblas.matmul_f32".
  std::string shim;     ///< Shim library name, found beside libfuelrt.
  std::string entry;    ///< The shim's fuel_kernel_fn symbol.
  std::vector<int64_t> params;
  uint64_t workspaceBytes = 0;
  bool operator==(const LibraryKernel &) const;
};

/// Constant data (a model's weights), uploaded once per reading device.
struct Constant {
  std::string name;
  ByteSpan data;
  bool operator==(const Constant &) const;
};

/// Where a buffer's bytes live.
enum class BufferKind : uint8_t {
  Arena,    ///< A slot of its device's arena at `offset`.
  Input,    ///< Bound to input `index`.
  Output,   ///< Bound to output `index`.
  Constant, ///< Holds constant `index` on its device.
};

struct BufferSpec {
  BufferKind kind = BufferKind::Arena;
  uint32_t device = 0; ///< Index into Program::devices.
  uint64_t size = 0;
  uint64_t alignment = 64;
  uint64_t offset = 0; ///< Arena only.
  uint32_t index = 0;  ///< Input, Output and Constant only.
  bool operator==(const BufferSpec &) const;
};

/// An input or output of the executable's function.
struct TensorSpec {
  std::string name;
  ElementType dtype = ElementType::F32;
  std::vector<int64_t> shape;
  uint32_t residency = 0; ///< Index into Program::devices.
  uint32_t buffer = 0;    ///< Index into Program::buffers.
  bool operator==(const TensorSpec &) const;
};

/// Bytes of a tensor of `spec`'s dtype and shape (no overflow check:
/// verifyProgram refuses a shape whose byte size overflows).
uint64_t tensorByteSize(const TensorSpec &spec);
/// A tensor type as `2x3xf32` (a scalar: `f32`).
std::string formatTensorType(ElementType dtype,
                             const std::vector<int64_t> &shape);

/// `length` bytes of buffer `buffer` from `offset`.
struct BindingRange {
  uint32_t buffer = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
  bool operator==(const BindingRange &) const;
};

enum class KernelSource : uint8_t { Module, Library };

/// Runs a kernel over a grid; the device is the kernel's.
struct Dispatch {
  KernelSource source = KernelSource::Module;
  uint32_t module = 0; ///< Module: index into Program::modules.
  uint32_t kernel = 0; ///< Into that module's kernels, or libraryKernels.
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::vector<BindingRange> bindings;
  std::vector<uint32_t> pushConstants;
  bool operator==(const Dispatch &) const;
};

/// Copies `bytes` from buffer `src` at `srcOffset` to `dst` at `dstOffset`.
struct Copy {
  uint32_t src = 0;
  uint64_t srcOffset = 0;
  uint32_t dst = 0;
  uint64_t dstOffset = 0;
  uint64_t bytes = 0;
  bool operator==(const Copy &) const;
};

/// What reports show of a command: the plan node and the winner.
struct CommandReport {
  int64_t nodeId = -1;
  std::string opKind;
  std::string kernelId;
  std::string
      source; ///< The winner's source ("generated", "openblas", ...) or "copy".
  uint64_t revision = 0;
  uint64_t predictedNs = 0;
  bool operator==(const CommandReport &) const;
};

enum class CommandKind : uint8_t { Dispatch, Copy };

/// One command; it may start once every command in `dependencies` (all
/// earlier in the list) has finished.
struct CommandSpec {
  CommandKind kind = CommandKind::Dispatch;
  Dispatch dispatch; ///< Dispatch only.
  Copy copy;         ///< Copy only.
  std::vector<uint32_t> dependencies;
  CommandReport report;
  bool operator==(const CommandSpec &) const;
};

/// Everything an executable says. In a loaded Executable the ByteSpans point
/// into the mapped file.
struct Program {
  uint32_t formatVersion = kExecutableFormatVersion;
  std::string fuelVersion;
  uint32_t kernelAbiVersion = 0; ///< FUEL_KERNEL_ABI_VERSION when written.
  uint64_t topologyHash = 0;
  uint64_t planHash = 0;
  std::string function;
  std::vector<DeviceRequirement> devices;
  CpuTarget cpuTarget;
  std::vector<KernelModule> modules;
  std::vector<LibraryKernel> libraryKernels;
  std::vector<Constant> constants;
  std::vector<BufferSpec> buffers;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::vector<CommandSpec> commands;
  bool operator==(const Program &) const;
  bool operator!=(const Program &o) const { return !(*this == o); }
};

/// A device the host offers, and its memory (0: unknown, not checked).
struct AvailableDevice {
  ::fuel::Device device;
  uint64_t memoryBytes = 0;
};

/// What the loader checks the executable against.
struct LoadOptions {
  /// The host CPU's features; std::nullopt reads them from /proc/cpuinfo.
  std::optional<std::vector<std::string>> hostCpuFeatures;
  /// Whether to check CPU features at all (off for tools that only inspect).
  bool checkCpuFeatures = true;
  /// The devices present; std::nullopt skips the device check (the runtime
  /// checks again when it opens devices).
  std::optional<std::vector<AvailableDevice>> availableDevices;
  /// Worker threads of the CPU device: each has its own workspace, so a cpu
  /// device needs arena + constants + workerThreads x largest workspace.
  uint32_t workerThreads = 1;
};

/// Checks the meaning of `program`: indices in range, bindings inside their
/// buffers, byte sizes equal to shape x dtype, dependencies on earlier
/// commands only, the kernel ABI version, and, per `options`, the CPU
/// features and devices present. The loader runs it after the FlatBuffers
/// verifier; the writer before it writes.
Status verifyProgram(const Program &program, const LoadOptions &options);

/// The index of the device `dispatch` runs on: its module's device, or its
/// library kernel's. `program` must have passed verifyProgram.
uint32_t dispatchDevice(const Program &program, const Dispatch &dispatch);

/// `program` as text, one line per entry in a fixed format (what
/// `fuel-run --dump` prints and lit tests check). Works on unverified
/// programs too: an index out of range prints as such.
std::string describeProgram(const Program &program);

/// The host's CPU features as /proc/cpuinfo spells them (empty when it cannot
/// be read).
std::vector<std::string> hostCpuFeatures();

/// A loaded executable: the verified Program and the mapping it points into.
class Executable {
public:
  /// Maps `path` read-only and verifies it. The file must not be truncated
  /// or rewritten while the Executable lives (replace it by renaming).
  static StatusOr<std::unique_ptr<Executable>>
  loadFile(const std::string &path, const LoadOptions &options = {});
  /// Copies `size` bytes into an owned, page-aligned buffer and verifies it.
  static StatusOr<std::unique_ptr<Executable>>
  loadBytes(const void *data, size_t size, const LoadOptions &options = {});
  /// Verifies bytes the caller keeps alive and unchanged for the lifetime of
  /// the Executable; `data` must be 64-byte aligned.
  static StatusOr<std::unique_ptr<Executable>>
  loadUnowned(const void *data, size_t size, const LoadOptions &options = {});

  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  const Program &program() const { return program_; }
  /// The whole file.
  ByteSpan bytes() const { return bytes_; }

private:
  Executable() = default;
  static StatusOr<std::unique_ptr<Executable>>
  finishLoad(std::unique_ptr<Executable> exe, const LoadOptions &options);

  Program program_;
  ByteSpan bytes_;
  void *mapping_ = nullptr; ///< mmap'ed region, or null.
  size_t mappingSize_ = 0;
  void *owned_ = nullptr; ///< Owned aligned copy, or null.
};

} // namespace fuel::rt

#endif // FUEL_RUNTIME_EXECUTABLE_H
