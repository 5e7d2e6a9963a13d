//===- SpirV.h - A bounded reader of SPIR-V module headers ------*- C++ -*-===//
//
// The few facts of a SPIR-V module the loader checks before a Vulkan device
// sees it: the module is a nonzero number of little-endian 32-bit words
// starting with the magic number, and its OpEntryPoint instructions. The
// reader walks instruction by instruction, never past the end, so truncated
// or garbage input yields a Status naming the word, never a crash.
// LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_SPIRV_H
#define FUEL_RUNTIME_SPIRV_H

#include "fuel/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fuel::rt {

/// The SPIR-V magic number, word 0 of every module.
inline constexpr uint32_t kSpirVMagic = 0x07230203;
/// The SPIR-V header: magic, version, generator, id bound, schema.
inline constexpr size_t kSpirVHeaderWords = 5;
/// ExecutionModel GLCompute, the model of compute shaders.
inline constexpr uint32_t kSpirVGLCompute = 5;

/// One OpEntryPoint of a module.
struct SpirVEntryPoint {
  uint32_t executionModel = 0;
  std::string name;
};

/// The module's OpEntryPoint instructions, in order. Refuses a size that is
/// 0 or not a multiple of 4, a wrong magic number (a big-endian module
/// included), a header that does not fit, an instruction of word count 0 or
/// one that runs past the end, and an entry point name without its NUL.
StatusOr<std::vector<SpirVEntryPoint>> readSpirVEntryPoints(const void *data,
                                                            size_t size);

} // namespace fuel::rt

#endif // FUEL_RUNTIME_SPIRV_H
