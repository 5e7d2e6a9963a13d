//===- SpirVTestModule.h - Minimal SPIR-V modules for tests -----*- C++ -*-===//
//
// The smallest SPIR-V module the loader accepts: the header, a capability,
// the memory model and one OpEntryPoint per name with the given execution
// model. Not a runnable shader; for tests of the loader's SPIR-V checks.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_UNITTESTS_RUNTIME_SPIRVTESTMODULE_H
#define FUEL_UNITTESTS_RUNTIME_SPIRVTESTMODULE_H

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fuel::rt::test {

inline std::vector<uint8_t>
spirvModule(const std::vector<std::string> &entryPoints,
            uint32_t executionModel = 5 /* GLCompute */) {
  std::vector<uint32_t> w = {0x07230203, 0x00010300, 0, 100, 0};
  w.push_back((2u << 16) | 17); // OpCapability Shader
  w.push_back(1);
  w.push_back((3u << 16) | 14); // OpMemoryModel Logical GLSL450
  w.push_back(0);
  w.push_back(1);
  uint32_t id = 1;
  for (const std::string &name : entryPoints) {
    size_t nameWords = name.size() / 4 + 1;            // with the NUL
    w.push_back(uint32_t((3 + nameWords) << 16) | 15); // OpEntryPoint
    w.push_back(executionModel);
    w.push_back(id++);
    std::vector<uint32_t> chars(nameWords, 0);
    std::memcpy(chars.data(), name.data(), name.size());
    w.insert(w.end(), chars.begin(), chars.end());
  }
  std::vector<uint8_t> bytes(w.size() * 4);
  std::memcpy(bytes.data(), w.data(), bytes.size());
  return bytes;
}

} // namespace fuel::rt::test

#endif // FUEL_UNITTESTS_RUNTIME_SPIRVTESTMODULE_H
