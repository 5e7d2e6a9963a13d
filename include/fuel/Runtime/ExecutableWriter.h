//===- ExecutableWriter.h - Writes fuel executables -------------*- C++ -*-===//
//
// Builds the bytes of a fuel executable (docs/EXECUTABLE-FORMAT.md) from the
// description types of Executable.h. Deterministic: the same calls give the
// same bytes. The compiler's serializer and the runtime's tests use it.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_EXECUTABLEWRITER_H
#define FUEL_RUNTIME_EXECUTABLEWRITER_H

#include "fuel/Runtime/Executable.h"

#include <deque>

namespace fuel::rt {

/// Options of ExecutableWriter::finish.
struct WriteOptions {
  /// Run verifyProgram (without host checks) before writing. Off only to
  /// write deliberately invalid files for tests of the loader.
  bool verify = true;
};

/// Collects a Program, then serializes it. Every add* returns the index the
/// new entry has in its list, which later entries use to refer to it.
class ExecutableWriter {
public:
  ExecutableWriter();
  /// Not copyable: the Program's ByteSpans point into this writer's storage.
  ExecutableWriter(const ExecutableWriter &) = delete;
  ExecutableWriter &operator=(const ExecutableWriter &) = delete;
  ExecutableWriter(ExecutableWriter &&) = default;
  ExecutableWriter &operator=(ExecutableWriter &&) = default;

  void setFuelVersion(std::string version) {
    program_.fuelVersion = std::move(version);
  }
  void setHashes(uint64_t topologyHash, uint64_t planHash) {
    program_.topologyHash = topologyHash;
    program_.planHash = planHash;
  }
  void setFunction(std::string name) { program_.function = std::move(name); }
  void setCpuTarget(CpuTarget target) {
    program_.cpuTarget = std::move(target);
  }

  uint32_t addDevice(::fuel::Device device, uint64_t arenaBytes,
                     uint64_t arenaAlignment = 64);
  /// Copies `image`; the module's device is `device` (an index).
  uint32_t addModule(uint32_t device, ModuleFormat format,
                     std::vector<KernelEntry> kernels, ByteSpan image);
  uint32_t addLibraryKernel(LibraryKernel kernel);
  /// Copies `data`.
  uint32_t addConstant(std::string name, ByteSpan data);
  uint32_t addBuffer(BufferSpec buffer);
  uint32_t addArenaBuffer(uint32_t device, uint64_t size, uint64_t offset,
                          uint64_t alignment = 64);
  /// Adds the input and its buffer (kind Input, the tensor's byte size, on
  /// `residency`); returns the input's index.
  uint32_t addInput(std::string name, ElementType dtype,
                    std::vector<int64_t> shape, uint32_t residency);
  /// As addInput, for an output.
  uint32_t addOutput(std::string name, ElementType dtype,
                     std::vector<int64_t> shape, uint32_t residency);
  uint32_t addDispatch(Dispatch dispatch, std::vector<uint32_t> dependencies,
                       CommandReport report = {});
  uint32_t addCopy(Copy copy, std::vector<uint32_t> dependencies,
                   CommandReport report = {});

  /// The program so far; tests edit it to write invalid files.
  Program &program() { return program_; }
  const Program &program() const { return program_; }

  /// The file's bytes, or the error verifyProgram found.
  StatusOr<std::vector<uint8_t>> finish(const WriteOptions &options = {}) const;

private:
  Program program_;
  /// Owned copies of module images and constant data; a deque so that the
  /// ByteSpans into it stay valid as it grows.
  std::deque<std::vector<uint8_t>> storage_;
};

/// Serializes `program` as ExecutableWriter::finish does.
StatusOr<std::vector<uint8_t>>
writeExecutable(const Program &program, const WriteOptions &options = {});

} // namespace fuel::rt

#endif // FUEL_RUNTIME_EXECUTABLEWRITER_H
